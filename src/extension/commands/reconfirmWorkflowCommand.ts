// Reconfirm a workflow (billed like a start), and what follows when its answer is lost.
import * as vscode from 'vscode';
import { workflowStatusWords } from '../explorer/workflowPresentation';
import type { Environment } from '../../core/environments';
import { TransportError } from '../../core/http';
import type { TrackedWorkflow } from '../../core/workflows';
import { showError } from '../errors/showError';
import type { Services } from '../services';
import { COMMANDS } from '../commandIds';
import { errorInUserWords } from '../coreWords';
import { nodeOrPick, type WorkflowNode } from './workflowPick';

export async function reconfirmWorkflow(s: Services, node?: WorkflowNode): Promise<TrackedWorkflow | undefined> {
  const w = await nodeOrPick(s, node, vscode.l10n.t('Reconfirm workflow'), (x) => x.reconfirmAvailable);
  if (!w) return undefined;
  const env = w.env;
  // The store's record is updated in place by later reads: the run this reconfirm starts from, as it is now.
  const earlierRunId = w.runId;
  try {
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reconfirming {0}…', w.workflowId) },
      () => s.workflows.reconfirm(env, w.workflowId),
    );
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Reconfirmed {0}: {1}.', w.workflowId, workflowStatusWords(r.status)),
    );
    return r;
  } catch (err) {
    if (err instanceof TransportError && err.mayHaveBeenSent)
      return afterLostReconfirm(s, env, w.workflowId, earlierRunId, err);
    void showError(s.output, vscode.l10n.t('Reconfirm of {0}', w.workflowId), err, { billed: true });
    return undefined;
  }
}

/** A reconfirm is billed like a start: sent and its answer lost, it may have taken place. The workflow read again
 * says which (a reconfirm starts a new run: its runId changes). */
async function afterLostReconfirm(
  s: Services,
  env: Environment,
  workflowId: string,
  earlierRunId: string,
  err: TransportError,
): Promise<TrackedWorkflow | undefined> {
  s.output.warn(
    vscode.l10n.t(
      '{0}: no answer to the reconfirm of {1} ({2}); reading it again to see whether a new run started',
      env.name,
      workflowId,
      errorInUserWords(err),
    ),
  );
  let now: TrackedWorkflow;
  try {
    now = await s.workflows.refresh(env, workflowId);
  } catch (readErr) {
    // Neither answer: whether the billed reconfirm took place is unknown until the workflow can be read.
    const message = vscode.l10n.t(
      "The reconfirm's answer was lost ({0}), and {1} could not be read to see whether it took place ({2}). It may have been reconfirmed and billed: refresh the workflow (a new runId means it was) before reconfirming again.",
      errorInUserWords(err),
      workflowId,
      errorInUserWords(readErr),
    );
    s.output.error(message);
    void vscode.window
      .showErrorMessage(message, vscode.l10n.t('Refresh Workflow'))
      .then(
        (a) => a && vscode.commands.executeCommand(COMMANDS.refreshWorkflow, { kind: 'workflow', env, workflowId }),
      );
    return undefined;
  }
  if (now.runId !== earlierRunId) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        "The reconfirm's answer was lost ({0}), but {1} shows a new run ({2}): it was reconfirmed.",
        errorInUserWords(err),
        workflowId,
        now.runId,
      ),
    );
    return now;
  }
  const again = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      "The reconfirm's answer was lost ({0}), and {1} still shows its earlier run ({2}): it was not reconfirmed. Reconfirm again?",
      errorInUserWords(err),
      workflowId,
      earlierRunId,
    ),
    vscode.l10n.t('Reconfirm Again'),
  );
  return again === vscode.l10n.t('Reconfirm Again')
    ? reconfirmWorkflow(s, { kind: 'workflow', env, workflowId })
    : undefined;
}
