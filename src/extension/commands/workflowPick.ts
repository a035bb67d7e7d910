// The workflow a command acts on: the explorer node's, or one picked from the current environment's.
import * as vscode from 'vscode';
import { workflowStatusWords } from '../explorer/workflowPresentation';
import type { Environment } from '../../core/environments';
import type { TrackedWorkflow } from '../../core/workflows';
import type { ExplorerNode } from '../explorer/explorerTree';
import type { Services } from '../services';

export type WorkflowNode = Extract<ExplorerNode, { kind: 'workflow' }>;

/** A workflow with the Environment value it belongs to. */
export type WorkflowInEnv = TrackedWorkflow & { env: Environment };

/** The node's workflow, in the value the node was shown for; or one picked from the current environment's. */
export async function nodeOrPick(
  s: Services,
  node: WorkflowNode | undefined,
  title: string,
  filter?: (w: TrackedWorkflow) => boolean,
): Promise<WorkflowInEnv | undefined> {
  if (!node) return pickWorkflow(s, title, filter);
  const w = s.workflows.store.workflow(node.env, node.workflowId);
  return w && { ...w, env: node.env };
}

async function pickWorkflow(
  s: Services,
  title: string,
  filter: (w: TrackedWorkflow) => boolean = () => true,
): Promise<WorkflowInEnv | undefined> {
  const env = s.environments.current;
  const list = env ? s.workflows.store.workflows(env).filter(filter) : [];
  if (!env || list.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No workflows in {0} to choose from.', s.environments.currentName),
    );
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    list
      .slice()
      .reverse()
      .map((w) => ({
        label: `${w.product.service} / ${w.product.model}`,
        description: vscode.l10n.t('{0} · {1}', workflowStatusWords(w.status), w.sessionId),
        detail: vscode.l10n.t('workflowId {0} · correlationId {1}', w.workflowId, w.correlationId),
        w,
      })),
    { title, matchOnDetail: true },
  );
  return pick && { ...pick.w, env };
}
