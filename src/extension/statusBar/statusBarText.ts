// What the status bar says about the environment and sign-in; pure, so it is unit-tested in plain Node.
import type { TokenState } from '../../core/auth';
import type { Environment } from '../../core/environments';

export interface StatusBarModel {
  text: string;
  tooltip: string;
  warning: boolean;
}

/** "1h 05m", "59m", "<1m" */
export function formatRemaining(ms: number): string {
  if (ms < 60_000) return '<1m';
  const m = Math.floor(ms / 60_000);
  const h = Math.floor(m / 60);
  return h > 0 ? `${h}h ${String(m % 60).padStart(2, '0')}m` : `${m}m`;
}

/** The tooltip names the service's origin: the name alone does not say where a start would go. */
export function statusBarModel(
  env: Pick<Environment, 'name' | 'baseUrl'>,
  state: TokenState,
  now: number,
  session?: { username: string; userAlias?: string; accessExpiresAt: number; refreshExpiresAt: number },
): StatusBarModel {
  const environment = env.name;
  const heading = `Workflow Service — ${environment} (${new URL(env.baseUrl).origin})`;
  if (!session || state === 'signed-out')
    return {
      text: `$(account) ${environment}: signed out`,
      tooltip: `${heading}\nNot signed in. Click to sign in.`,
      warning: false,
    };
  const who = session.userAlias ? `${session.username} as ${session.userAlias}` : session.username;
  const lapse = new Date(session.refreshExpiresAt).toISOString().replace('.000Z', 'Z');
  if (state === 'expired')
    return {
      text: `$(warning) ${environment}: sign-in lapsed`,
      tooltip: `${heading}\n${who}: the sign-in lapsed at ${lapse}. Click to sign in again.`,
      warning: true,
    };
  const icon = state === 'refreshing' ? '$(sync~spin)' : state === 'lapsing-soon' ? '$(warning)' : '$(account)';
  const token = `token ${formatRemaining(Math.max(0, session.accessExpiresAt - now))}`;
  const tooltip = [
    heading,
    `Signed in as ${who}`,
    `Access token expires in ${formatRemaining(Math.max(0, session.accessExpiresAt - now))} (refreshed automatically one minute before)`,
    `Sign-in lapses at ${lapse} (midnight US Eastern)${state === 'lapsing-soon' ? ' — soon: sign in again to stay signed in' : ''}`,
  ].join('\n');
  return { text: `${icon} ${environment}: ${who} · ${token}`, tooltip, warning: state === 'lapsing-soon' };
}
