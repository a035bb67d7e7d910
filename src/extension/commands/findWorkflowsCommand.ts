// Find Workflows by correlationId: typed, or picked from this environment's starts; what it finds is added to the
// explorer.
import * as vscode from 'vscode';
import type { Environment } from '../../core/environments';
import { findByCorrelationId, type TrackedWorkflow } from '../../core/workflows';
import { showError } from '../errors/showError';
import type { Services } from '../services';
import { pickOrType } from './pickOrType';
import { COMMANDS } from '../commandIds';

export interface FindWorkflowsArgs {
  correlationId?: string;
  environment?: string;
}

/** Find Workflows by a correlationId typed or picked from this environment's starts; adds what it finds. */
export async function findWorkflows(s: Services, args: FindWorkflowsArgs): Promise<TrackedWorkflow[] | undefined> {
  let env: Environment;
  try {
    env = s.environments.resolve(args.environment ?? s.environments.currentName);
  } catch (err) {
    void showError(s.output, 'Find Workflows', err);
    return undefined;
  }
  const recent = [...s.workflows.store.workflows(env)].reverse().filter((w) => w.correlationId);
  const correlationId =
    args.correlationId ??
    (await pickOrType<string>({
      title: `Find Workflows on ${env.name}: correlationId`,
      placeholder: 'Type a correlationId, or pick one of your starts',
      items: recent.map((w) => ({
        label: w.correlationId,
        description: `${w.product.service} / ${w.product.model} · ${w.sessionId}`,
        value: w.correlationId,
      })),
      fromText: (text) =>
        text.trim()
          ? { label: text.trim(), description: 'search for this correlationId', value: text.trim() }
          : undefined,
    }));
  if (!correlationId) return undefined;
  try {
    // Copied with its quotes ("wfs-…" from a JSON line): "none" would say to start again, and bill twice.
    const { found, searched, copied } = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Searching ${env.name} for correlationId ${correlationId}…`,
      },
      () => findByCorrelationId((id) => s.workflows.find(env, id), correlationId),
    );
    if (found.length === 0)
      void vscode.window.showInformationMessage(
        `${env.name} holds no workflow with correlationId ${correlationId}${copied !== undefined ? `, nor with ${copied}` : ''}.`,
      );
    else {
      const list = found
        .map((w) => `${w.product.service} / ${w.product.model} in ${w.sessionId} (${w.status}, ${w.workflowId})`)
        .join('; ');
      const asTyped =
        searched === correlationId
          ? ''
          : `No workflow carries the correlationId as typed (${JSON.stringify(correlationId)}), but without the quotes or spaces copying added, `;
      void vscode.window.showInformationMessage(
        `${asTyped}${env.name} holds ${found.length === 1 ? 'one workflow' : `${found.length} workflows`} with correlationId ${searched}: ${list}. Added to the explorer.`,
      );
      void vscode.commands.executeCommand(COMMANDS.revealWorkflowByRunId, found[0]!.runId);
    }
    return found;
  } catch (err) {
    void showError(s.output, 'Find Workflows', err);
    return undefined;
  }
}
