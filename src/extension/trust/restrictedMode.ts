// Restricted Mode (an untrusted workspace): the sandbox, the explorer and the panel work; what uses a real
// environment's sign-in, or sends anything off this machine, waits for trust. Pure but for vscode.l10n.t: unit-tested;
// the commands show its sentence.
import * as vscode from 'vscode';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';

export type GuardedAction = 'start' | 'sign-in';

/** The sentence for an action that waits for trust: what waits, then what to do (the command's name as the palette
 * shows it). */
export function waitsForTrustText(what: string): string {
  return vscode.l10n.t(
    '{0} waits until you trust this workspace (Restricted Mode). Trust it with "Workspaces: Manage Workspace Trust".',
    what,
  );
}

/** Why the action must wait in this workspace, or undefined when it may go ahead. */
export function restrictedModeRefusal(
  action: GuardedAction,
  environment: string,
  workspaceTrusted: boolean,
): string | undefined {
  if (workspaceTrusted || environment === SANDBOX_ENVIRONMENT) return undefined;
  const what =
    action === 'start'
      ? vscode.l10n.t('Starting a billed workflow on {0}', environment)
      : vscode.l10n.t('Signing in to {0}', environment);
  return vscode.l10n.t(
    '{0} waits until you trust this workspace (Restricted Mode). The sandbox works without it.',
    what,
  );
}

/** Thrown where a real environment's sign-in would be used, or something sent off this machine, in Restricted Mode:
 * nothing was sent. The error presentation offers Manage Workspace Trust. */
export class WaitsForTrust extends Error {
  constructor(what: string) {
    super(waitsForTrustText(what));
    this.name = 'WaitsForTrust';
  }
}
