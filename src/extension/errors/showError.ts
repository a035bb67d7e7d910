// Shows an error as presentError() describes it and carries out the button the user picks.
import * as vscode from 'vscode';
import { ServiceError } from '../../core/http';
import type { ExtensionLog } from '../log/extensionLog';
import { presentError } from './errorPresentation';
import { COMMANDS } from '../commandIds';

export async function showError(
  output: ExtensionLog,
  operation: string,
  err: unknown,
  opts: { billed?: boolean } = {},
): Promise<void> {
  const p = presentError(operation, err, opts.billed);
  // The fields are names and values (kind=…, status=…); what the server said is data, introduced in the user's words.
  const detail =
    err instanceof ServiceError
      ? ` [kind=${err.kind}${err.status ? ` status=${err.status}` : ''}${err.correlationId ? ` correlationId=${err.correlationId}` : ''}${err.serverText ? ` ${vscode.l10n.t('server said: {0}', err.serverText)}` : ''}]`
      : '';
  output.error(`${p.message}${detail}`);
  // The buttons show in the display language; the action is read back from the label picked.
  const labels = p.actions.map(actionLabel);
  const picked = p.modal
    ? await vscode.window.showErrorMessage(p.message, { modal: true, detail: correlationDetail(err) }, ...labels)
    : await vscode.window.showErrorMessage(p.message, ...labels);
  const pick = picked === undefined ? undefined : p.actions[labels.indexOf(picked)];
  switch (pick) {
    case 'Find Workflows':
      await vscode.commands.executeCommand(COMMANDS.findWorkflows, {
        correlationId: (err as ServiceError).correlationId,
      });
      break;
    case 'Sign In':
      await vscode.commands.executeCommand(COMMANDS.signIn);
      break;
    case 'Copy correlationId':
      await vscode.env.clipboard.writeText((err as ServiceError).correlationId ?? '');
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Copied the correlationId {0}', (err as ServiceError).correlationId ?? ''),
      );
      break;
    case 'Show Log':
      output.show();
      break;
    case 'Manage Workspace Trust':
      await vscode.commands.executeCommand('workbench.trust.manage');
      break;
    case 'Open Settings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'wfs.');
      break;
  }
}

function actionLabel(action: string): string {
  switch (action) {
    case 'Find Workflows':
      return vscode.l10n.t('Find Workflows');
    case 'Sign In':
      return vscode.l10n.t('Sign In');
    case 'Copy correlationId':
      return vscode.l10n.t('Copy correlationId');
    case 'Show Log':
      return vscode.l10n.t('Show Log');
    case 'Manage Workspace Trust':
      return vscode.l10n.t('Manage Workspace Trust');
    case 'Open Settings':
      return vscode.l10n.t('Open Settings');
    default:
      return action;
  }
}

function correlationDetail(err: unknown): string | undefined {
  const cid = (err as ServiceError)?.correlationId;
  return cid
    ? vscode.l10n.t('correlationId: {0}\nSearch for the workflow by this correlationId before starting another.', cid)
    : undefined;
}
