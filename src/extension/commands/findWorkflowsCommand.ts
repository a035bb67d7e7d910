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
        vscode.l10n.t(
          '{0} holds no workflow with correlationId {1}{2}.',
          env.name,
          correlationId,
          copied !== undefined ? vscode.l10n.t(', nor with {0}', copied) : '',
        ),
      );
    else {
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
      const asTyped =
        searched === correlationId
          ? ''
          : vscode.l10n.t(
              'No workflow carries the correlationId as typed ({0}), but without the quotes or spaces copying added, ',
              JSON.stringify(correlationId),
            );
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          '{0}{1} holds {2} with correlationId {3}: {4}. Added to the explorer.',
          asTyped,
          env.name,
          found.length === 1 ? vscode.l10n.t('one workflow') : vscode.l10n.t('{0} workflows', found.length),
          searched,
          list,
        ),
      );
      void vscode.commands.executeCommand(COMMANDS.revealWorkflowByRunId, found[0]!.runId);
    }
    return found;
  } catch (err) {
    void showError(s.output, vscode.l10n.t('Find Workflows'), err);
    return undefined;
  }
}
