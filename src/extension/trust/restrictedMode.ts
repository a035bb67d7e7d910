// Restricted Mode (an untrusted workspace): the sandbox, the explorer and the panel work; what uses a real
// environment's sign-in, or sends anything off this machine, waits for trust. Pure: unit-tested; the commands show its
// sentence.
import { SANDBOX_ENVIRONMENT } from '../../core/environments';

export type GuardedAction = 'start' | 'sign-in';

/** What to do about it: the command's name as the palette shows it. */
const TRUST_HINT = 'Trust it with "Workspaces: Manage Workspace Trust".';

/** The sentence for an action that waits for trust: what waits, then what to do. */
export function waitsForTrustText(what: string): string {
  return `${what} waits until you trust this workspace (Restricted Mode). ${TRUST_HINT}`;
}

/** Why the action must wait in this workspace, or undefined when it may go ahead. */
export function restrictedModeRefusal(
  action: GuardedAction,
  environment: string,
  workspaceTrusted: boolean,
): string | undefined {
  if (workspaceTrusted || environment === SANDBOX_ENVIRONMENT) return undefined;
  const what = action === 'start' ? `Starting a billed workflow on ${environment}` : `Signing in to ${environment}`;
  return `${what} waits until you trust this workspace (Restricted Mode). The sandbox works without it.`;
}

/** Thrown where a real environment's sign-in would be used, or something sent off this machine, in Restricted Mode:
 * nothing was sent. The error presentation offers Manage Workspace Trust. */
export class WaitsForTrust extends Error {
  constructor(what: string) {
    super(waitsForTrustText(what));
    this.name = 'WaitsForTrust';
  }
}
