// The workflow commands: start (startWorkflowCommand.ts), find (findWorkflowsCommand.ts), reconfirm
// (reconfirmWorkflowCommand.ts), and here refresh, open raw JSON, copy ids and remove.
import * as vscode from 'vscode';
import type { TrackedWorkflow } from '../../core/workflows';
import { showError } from '../errors/showError';
import type { ExplorerNode } from '../explorer/explorerTree';
import { workflowJsonUri } from '../explorer/workflowJsonDocuments';
import type { Services } from '../services';
import { COMMANDS } from '../commandIds';
import { findWorkflows, type FindWorkflowsArgs } from './findWorkflowsCommand';
import { reconfirmWorkflow } from './reconfirmWorkflowCommand';
import { startWorkflow, type StartWorkflowArgs } from './startWorkflowCommand';
import { nodeOrPick, type WorkflowNode } from './workflowPick';

export function registerWorkflowCommands(s: Services): vscode.Disposable[] {
  const copy = (field: 'workflowId' | 'runId' | 'correlationId') => async (node?: WorkflowNode) => {
    const w = await nodeOrPick(s, node, vscode.l10n.t('Copy {0}', field));
    if (!w) return;
    await vscode.env.clipboard.writeText(w[field]);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0} {1}', field, w[field]), 3000);
    return w[field];
  };
  return [
    vscode.commands.registerCommand(COMMANDS.startWorkflow, (arg?: ExplorerNode | StartWorkflowArgs) =>
      startWorkflow(
        s,
        arg && 'kind' in arg ? (arg.kind === 'session' ? { sessionId: arg.sessionId } : {}) : (arg ?? {}),
      ),
    ),
    vscode.commands.registerCommand(COMMANDS.findWorkflows, (args?: FindWorkflowsArgs) => findWorkflows(s, args ?? {})),
    vscode.commands.registerCommand(COMMANDS.refreshWorkflow, (node?: WorkflowNode) => refreshWorkflow(s, node)),
    vscode.commands.registerCommand(COMMANDS.refresh, () => refreshAll(s)),
    vscode.commands.registerCommand(COMMANDS.reconfirmWorkflow, (node?: WorkflowNode) => reconfirmWorkflow(s, node)),
    vscode.commands.registerCommand(COMMANDS.openWorkflowJson, async (node?: WorkflowNode) => {
      const w = await nodeOrPick(s, node, vscode.l10n.t('Open Raw JSON'));
      if (!w) return;
      const doc = await vscode.workspace.openTextDocument(workflowJsonUri(w.env, w.workflowId));
      await vscode.languages.setTextDocumentLanguage(doc, 'json');
      await vscode.window.showTextDocument(doc, { preview: true });
      return doc.uri.toString();
    }),
    vscode.commands.registerCommand(COMMANDS.copyWorkflowId, copy('workflowId')),
    vscode.commands.registerCommand(COMMANDS.copyRunId, copy('runId')),
    vscode.commands.registerCommand(COMMANDS.copyCorrelationId, copy('correlationId')),
    vscode.commands.registerCommand(COMMANDS.removeWorkflow, (node?: WorkflowNode) => {
      if (node?.kind === 'workflow') s.workflows.remove(node.env, node.workflowId);
    }),
  ];
}

async function refreshWorkflow(s: Services, node?: WorkflowNode): Promise<TrackedWorkflow | undefined> {
  const w = await nodeOrPick(s, node, vscode.l10n.t('Refresh workflow'));
  if (!w) return undefined;
  try {
    return await s.workflows.refresh(w.env, w.workflowId);
  } catch (err) {
    void showError(s.output, vscode.l10n.t('Refresh of {0}', w.workflowId), err);
    return undefined;
  }
}

async function refreshAll(s: Services): Promise<void> {
  const env = s.environments.current;
  if (!env || s.workflows.store.workflows(env).length === 0) return;
  const r = await vscode.window.withProgress(
    { location: { viewId: 'wfs.explorer' }, title: vscode.l10n.t('Refreshing workflows') },
    () => s.workflows.refreshAll(env),
  );
  if (r.failed)
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          '{0} of {1} workflows could not be read; see the tooltips or the log.',
          r.failed,
          r.read + r.failed,
        ),
        vscode.l10n.t('Show Log'),
      )
      .then((a) => a && s.output.show());
}
