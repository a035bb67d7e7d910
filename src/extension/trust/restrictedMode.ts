// Restricted Mode (an untrusted workspace): the sandbox, the explorer and the panel work; what sends credentials to,
// or is billed by, a real environment waits for trust. Pure: unit-tested; the commands show its sentence.
import { SANDBOX_ENVIRONMENT } from '../../core/environments/environmentConfig';

export type GuardedAction = 'start' | 'sign-in';

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
