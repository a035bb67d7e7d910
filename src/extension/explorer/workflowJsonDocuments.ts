// "Open Raw JSON": the last envelope read for a workflow, as a read-only JSON document (a content provider's
// documents cannot be edited or saved over anything).
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { Environment } from '../../core/environments';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { WorkflowService } from '../workflows/workflowService';

export const WORKFLOW_JSON_SCHEME = 'wfs-workflow';

/** A document's address names the environment (envName: a URI is text) and the workflow; reading it resolves the
 * name's value now, so it shows only what the current service holds. */
export function workflowJsonUri(env: Environment, workflowId: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: WORKFLOW_JSON_SCHEME,
    path: `/${encodeURIComponent(env.name)}/${encodeURIComponent(workflowId)}.json`,
  });
}

export class WorkflowJsonDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly workflows: WorkflowService,
    private readonly environments: EnvironmentRegistry,
  ) {
    super();
    // Open documents follow the workflow's latest state.
    this.register(
      workflows.onDidChange(() => {
        for (const d of vscode.workspace.textDocuments)
          if (d.uri.scheme === WORKFLOW_JSON_SCHEME) this.changed.fire(d.uri);
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [, envName, file] = uri.path.split('/');
    const env = this.environments.get(decodeURIComponent(envName ?? ''));
    const w = env && this.workflows.store.workflow(env, decodeURIComponent((file ?? '').replace(/\.json$/, '')));
    if (!w) return JSON.stringify({ error: vscode.l10n.t('This workflow is no longer in the explorer.') }, null, 2);
    return `${JSON.stringify(w.envelope ?? { workflow: { workflowId: w.workflowId, status: w.status } }, null, 2)}\n`;
  }
}
