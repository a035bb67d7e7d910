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
  const detail =
    err instanceof ServiceError
      ? ` [kind=${err.kind}${err.status ? ` status=${err.status}` : ''}${err.correlationId ? ` correlationId=${err.correlationId}` : ''}${err.serverText ? ` server said: ${err.serverText}` : ''}]`
      : '';
  output.error(`${p.message}${detail}`);
  const pick = p.modal
    ? await vscode.window.showErrorMessage(p.message, { modal: true, detail: correlationDetail(err) }, ...p.actions)
    : await vscode.window.showErrorMessage(p.message, ...p.actions);
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
      void vscode.window.showInformationMessage(`Copied the correlationId ${(err as ServiceError).correlationId}`);
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

function correlationDetail(err: unknown): string | undefined {
  const cid = (err as ServiceError)?.correlationId;
  return cid
    ? `correlationId: ${cid}\nSearch for the workflow by this correlationId before starting another.`
    : undefined;
}
