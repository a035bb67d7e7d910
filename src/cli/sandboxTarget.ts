// Which running sandbox a command acts on, by one rule for every command: the one its flag names (--sandbox-url,
// --trust-sandbox), else the environment's: WFS_BASE_URL with WFS_SANDBOX_SECRET, as in the `export` line that
// `wfs sandbox` prints. WFS_BASE_URL alone may be a real service, so the environment names a sandbox only with the
// secret. Whatever is missing is named at once, with the line that fixes it.
import { SANDBOX_SECRET_ENV } from '../core/sandbox';
import type { TransportError } from '../core/http';
import { errnoInWords } from './errnoWords';
import { UsageError } from './flags';
import { httpUrlValue } from './httpUrlValue';
import { sandboxSecretMissing } from './sandboxSecret';
import { transportErrorEvent } from './transportErrorEvent';

const SANDBOX_URL_ENV = 'WFS_BASE_URL';

export interface SandboxTarget {
  baseUrl: string;
  secret: string;
  /** How the user named it, for messages: "--sandbox-url http://…" or "WFS_BASE_URL http://…". */
  named: string;
}

/** Not named in full: the variables missing, and the message that says so and how to fix it. */
export interface NoSandbox {
  missing: string[];
  problem: string;
}

/** The sandbox the flag names, or else the environment; what is missing when neither names one in full. An address
 * that is not an http(s) URL is a usage error at once. */
export function findSandbox(
  env: NodeJS.ProcessEnv,
  flag: string,
  flagValue: string | undefined,
): SandboxTarget | NoSandbox {
  const secret = env[SANDBOX_SECRET_ENV]?.trim();
  if (flagValue !== undefined) {
    const baseUrl = httpUrlValue(flag, flagValue, "the sandbox's http(s) baseUrl");
    const named = `${flag} ${flagValue}`;
    if (!secret) return { missing: [SANDBOX_SECRET_ENV], problem: sandboxSecretMissing(named) };
    return { baseUrl, secret, named };
  }
  const url = env[SANDBOX_URL_ENV]?.trim();
  const missing = [...(url ? [] : [SANDBOX_URL_ENV]), ...(secret ? [] : [SANDBOX_SECRET_ENV])];
  if (missing.length) return { missing, problem: noSandboxMessage(flag, missing) };
  return {
    baseUrl: httpUrlValue(SANDBOX_URL_ENV, url!, "the sandbox's http(s) baseUrl"),
    secret: secret!,
    named: `${SANDBOX_URL_ENV} ${url}`,
  };
}

/** What is missing, and how to name the sandbox: the environment first, as `wfs sandbox` prints it, or the flag. */
function noSandboxMessage(flag: string, missing: readonly string[]): string {
  const not = `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set`;
  return `no sandbox named: ${flag} is not given and ${not}. Paste the \`export\` line that \`wfs sandbox\` prints (it sets ${SANDBOX_URL_ENV} and ${SANDBOX_SECRET_ENV}), or give ${flag} URL with ${SANDBOX_SECRET_ENV} set`;
}

/** The sandbox a command acts on; a usage error naming everything missing (and `alsoWrong`, what else the command
 * found wrong), before anything is sent. */
export function sandboxTarget(
  env: NodeJS.ProcessEnv,
  flag: string,
  flagValue: string | undefined,
  alsoWrong: readonly string[] = [],
): SandboxTarget {
  const found = findSandbox(env, flag, flagValue);
  const problems = [...alsoWrong, ...('problem' in found ? [found.problem] : [])];
  if (problems.length) throw new UsageError(problems.join('; and '));
  return found as SandboxTarget;
}

/** The help rows of the variables, for a command whose `flag` names another sandbox. */
export function sandboxTargetHelp(flag: string): [string, string][] {
  return [
    [
      SANDBOX_URL_ENV,
      `the sandbox, unless ${flag} names another: its baseUrl (the \`export\` line \`wfs sandbox\` prints)`,
    ],
    [SANDBOX_SECRET_ENV, 'that sandbox\'s "controlSecret" (the same `export` line; new at each start)'],
  ];
}

/** Nothing answered at the running sandbox a command acts on. Every command says it in the same words and ends
 * with the same exit code (EXIT.failed, as for a service that cannot be reached): runCommand reports it. */
export class SandboxUnreachable extends Error {
  /**
   * @param baseUrl the sandbox's address as given
   * @param namedBy what gave it: a flag ("--trust-sandbox") or the variable (WFS_BASE_URL)
   */
  constructor(
    readonly transport: TransportError,
    baseUrl: string,
    namedBy: string,
  ) {
    const origin = URL.canParse(baseUrl) ? new URL(baseUrl).origin : baseUrl;
    super(
      `${errnoInWords(transport.code, origin) ?? `could not reach ${origin} (${transport.code ?? transport.reason})`}: is \`wfs sandbox\` running there? Its ready line gives its baseUrl (${namedBy} names it here).`,
    );
    this.name = 'SandboxUnreachable';
  }
}

/** The sandbox a target names could not be reached: the error to throw. */
export function sandboxUnreachable(err: TransportError, target: SandboxTarget): SandboxUnreachable {
  return new SandboxUnreachable(err, target.baseUrl, target.named.split(' ')[0]!);
}

/** Its error line: the transport's shape, as for every request that got no answer. */
export function sandboxUnreachableEvent(err: SandboxUnreachable): Record<string, unknown> {
  return transportErrorEvent(err.transport, err.message);
}
