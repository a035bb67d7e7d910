// Which sandbox signs for `wfs mcp`, and whether WFS_BASE_URL is the Sandbox (nothing billed). WFS_BASE_URL counts as
// the Sandbox only when it proves to be a `wfs sandbox` on this machine holding the control secret in
// WFS_SANDBOX_SECRET (core/sandbox/sandboxClaim.ts): the terminal where the user pasted the `export` line that
// `wfs sandbox` prints. That sandbox then also signs, so the app trusts the user's own sandbox. Anything less stays
// billed, with the reason said at start and in the refusal of a Sandbox start.
import { isLoopbackHost } from '../core/http';
import { SANDBOX_SECRET_ENV } from '../core/sandbox';
import { proveSandboxClaim } from '../core/sandbox';
import type { KeptState } from '../cli/sandboxKeptState';
import { runningSandbox, startEmbeddedSandbox, type SigningSandbox } from './signingSandbox';

export interface SandboxChoiceInput {
  env: NodeJS.ProcessEnv;
  /** --sandbox-url, with its secret. */
  sandboxUrl?: string;
  secret?: string;
  /** --sandbox-port or --workflow-duration was given: the user asked for a sandbox started here. */
  startHere: boolean;
  sandboxPort: number;
  workflowMs?: number;
  keep: () => KeptState;
}

export interface SandboxChoice {
  sandbox: SigningSandbox;
  /** WFS_BASE_URL proved to be a sandbox of this machine whose secret is held; false when it did not (or is unset). */
  baseUrlIsSandbox: boolean;
  /** Why WFS_BASE_URL is not taken for the Sandbox, when it is set: for the start line and the refusals. */
  billedBecause?: string;
}

export async function chooseSigningSandbox(o: SandboxChoiceInput): Promise<SandboxChoice> {
  const baseUrl = o.env.WFS_BASE_URL?.trim();
  const claim = baseUrl ? await claimOf(baseUrl, o.secret) : undefined;
  const baseUrlIsSandbox = claim?.proven === true;
  const billedBecause = claim && !claim.proven ? claim.why : undefined;
  if (o.sandboxUrl) return { sandbox: await runningSandbox(o.sandboxUrl, o.secret!), baseUrlIsSandbox, billedBecause };
  if (baseUrlIsSandbox && !o.startHere)
    return { sandbox: await runningSandbox(baseUrl!, o.secret!), baseUrlIsSandbox, billedBecause };
  const sandbox = await startEmbeddedSandbox(o.sandboxPort, o.workflowMs, o.keep());
  return { sandbox, baseUrlIsSandbox, billedBecause };
}

async function claimOf(baseUrl: string, secret: string | undefined) {
  if (!secret) return { proven: false as const, why: `${SANDBOX_SECRET_ENV} is not set` };
  return proveSandboxClaim(baseUrl, secret);
}

/** Said when WFS_BASE_URL is not the Sandbox: why, and the two ways to use the user's sandbox instead. */
export function billedWords(baseUrl: string, why: string): string {
  return `WFS_BASE_URL ${baseUrl} is taken for a billed service, not the Sandbox: it is not a \`wfs sandbox\` on this machine whose controlSecret ${SANDBOX_SECRET_ENV} holds (${why}). To start workflows on your sandbox for free, restart wfs mcp from a terminal where you pasted the \`export\` line \`wfs sandbox\` prints (it sets WFS_BASE_URL and ${SANDBOX_SECRET_ENV}), or with --sandbox-url URL and ${SANDBOX_SECRET_ENV} set, without WFS_BASE_URL`;
}

/** A start line's warning when WFS_BASE_URL names this machine but is not taken for the Sandbox: the user most likely
 * meant their `wfs sandbox`. A real service's address gets none. */
export function billedSandboxWarning(env: NodeJS.ProcessEnv, choice: SandboxChoice): string | undefined {
  const baseUrl = env.WFS_BASE_URL?.trim();
  if (!baseUrl || !choice.billedBecause) return undefined;
  try {
    if (!isLoopbackHost(new URL(baseUrl).hostname)) return undefined;
  } catch {
    return undefined;
  }
  return billedWords(baseUrl, choice.billedBecause);
}
