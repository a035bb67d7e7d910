// Find Workflows by correlationId: typed, or picked from this environment's starts; what it finds is added to the
// explorer.
import * as vscode from 'vscode';
import { workflowStatusWords } from '../explorer/workflowPresentation';
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
    void showError(s.output, vscode.l10n.t('Find Workflows'), err);
    return undefined;
  }
  const recent = [...s.workflows.store.workflows(env)].reverse().filter((w) => w.correlationId);
  const correlationId =
    args.correlationId ??
    (await pickOrType<string>({
      title: vscode.l10n.t('Find Workflows on {0}: correlationId', env.name),
      placeholder: vscode.l10n.t('Type a correlationId, or pick one of your starts'),
      items: recent.map((w) => ({
        label: w.correlationId,
        description: `${w.product.service} / ${w.product.model} · ${w.sessionId}`,
        value: w.correlationId,
      })),
      fromText: (text) =>
        text.trim()
          ? { label: text.trim(), description: vscode.l10n.t('search for this correlationId'), value: text.trim() }
          : undefined,
    }));
  if (!correlationId) return undefined;
  try {
    // Copied with its quotes ("wfs-…" from a JSON line): "none" would say to start again, and bill twice.
    const { found, searched, copied } = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Searching {0} for correlationId {1}…', env.name, correlationId),
      },
      () => findByCorrelationId((id) => s.workflows.find(env, id), correlationId),
    );
    if (found.length === 0)
      void vscode.window.showInformationMessage(
        copied !== undefined
          ? vscode.l10n.t(
              '{0} holds no workflow with correlationId {1}, nor with {2}.',
              env.name,
              correlationId,
              copied,
            )
          : vscode.l10n.t('{0} holds no workflow with correlationId {1}.', env.name, correlationId),
      );
    else {
      void vscode.window.showInformationMessage(foundWords(env, found, correlationId, searched));
      void vscode.commands.executeCommand(COMMANDS.revealWorkflowByRunId, found[0]!.runId);
    }
    return found;
  } catch (err) {
    void showError(s.output, vscode.l10n.t('Find Workflows'), err);
    return undefined;
  }
}

/** What was found, and, when the id as typed carried quotes or spaces copying added, that it was found without them. */
function foundWords(env: Environment, found: TrackedWorkflow[], typed: string, searched: string): string {
  const list = found
    .map((w) =>
      vscode.l10n.t(
        '{0} / {1} in {2} ({3}, {4})',
        w.product.service,
        w.product.model,
        w.sessionId,
        workflowStatusWords(w.status),
        w.workflowId,
      ),
    )
    .join('; ');
  const count = found.length === 1 ? vscode.l10n.t('one workflow') : vscode.l10n.t('{0} workflows', found.length);
  return searched === typed
    ? vscode.l10n.t(
        '{0} holds {1} with correlationId {2}: {3}. Added to the explorer.',
        env.name,
        count,
        searched,
        list,
      )
    : vscode.l10n.t(
        'No workflow carries the correlationId as typed ({0}), but without the quotes or spaces copying added, {1} holds {2} with correlationId {3}: {4}. Added to the explorer.',
        JSON.stringify(typed),
        env.name,
        count,
        searched,
        list,
      );
}
