// The control secret of a running `wfs sandbox`, for the commands that drive it (listen --trust-sandbox, audit
// --sandbox-url). Read from the environment only: a flag's value shows in every user's process list, and another
// local user is whom the secret keeps out.
import { SANDBOX_SECRET_ENV } from '../core/sandbox';
import { UsageError } from './flags';

/** The help row for the variable, naming the flag that needs it. */
export function sandboxSecretHelp(flag: string): [string, string] {
  return [
    SANDBOX_SECRET_ENV,
    `with ${flag}: that sandbox's "controlSecret" (in the first line \`wfs sandbox\` prints)`,
  ];
}

/** The secret for the sandbox named by `flag` and its value (e.g. "--trust-sandbox URL"); a usage error, before
 * anything is sent, without one. */
export function sandboxSecretFromEnv(env: NodeJS.ProcessEnv, flag: string): string {
  const secret = env[SANDBOX_SECRET_ENV]?.trim();
  if (!secret) throw new UsageError(sandboxSecretMissing(flag));
  return secret;
}

/** What a command says when the sandbox that `flag` names has no secret in the environment. */
export function sandboxSecretMissing(flag: string): string {
  return `${flag}: ${SANDBOX_SECRET_ENV} is not set, and the sandbox's control API needs its secret: set it to the "controlSecret" of that sandbox's ready line (the first line \`wfs sandbox\` prints; new at each start)`;
}
