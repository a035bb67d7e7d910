// What the status bar says about the environment and sign-in, in words for a screen reader too; pure but for
// vscode.l10n.t, so it is unit-tested in plain Node (with a stand-in l10n).
import * as vscode from 'vscode';
import type { TokenState } from '../../core/auth';
import type { Environment } from '../../core/environments';

export interface StatusBarModel {
  text: string;
  tooltip: string;
  /** The state in words, for a screen reader: the text's icon says it only to the eye. */
  ariaLabel: string;
  warning: boolean;
  /** The tooltip already says what a click does (sign in): nothing is added to it. */
  saysClick?: true;
}

/** "1h 05m", "59m", "<1m" */
export function formatRemaining(ms: number): string {
  if (ms < 60_000) return vscode.l10n.t('<1m');
  const m = Math.floor(ms / 60_000);
  const h = Math.floor(m / 60);
  return h > 0 ? vscode.l10n.t('{0}h {1}m', h, String(m % 60).padStart(2, '0')) : vscode.l10n.t('{0}m', m);
}

/** The tooltip names the service's origin: the name alone does not say where a start would go. */
export function statusBarModel(
  env: Pick<Environment, 'name' | 'baseUrl'>,
  state: TokenState,
  now: number,
  session?: { username: string; userAlias?: string; accessExpiresAt: number; refreshExpiresAt: number },
): StatusBarModel {
  const environment = env.name;
  const heading = vscode.l10n.t('Workflow Service — {0} ({1})', environment, new URL(env.baseUrl).origin);
  if (!session || state === 'signed-out')
    return {
      text: vscode.l10n.t('$(account) {0}: signed out', environment),
      tooltip: vscode.l10n.t('{0}\nNot signed in. Click to sign in.', heading),
      ariaLabel: vscode.l10n.t('Workflow Service: {0}, signed out', environment),
      warning: false,
      saysClick: true,
    };
  const who = session.userAlias ? vscode.l10n.t('{0} as {1}', session.username, session.userAlias) : session.username;
  const lapse = new Date(session.refreshExpiresAt).toISOString().replace('.000Z', 'Z');
  if (state === 'expired')
    return {
      text: vscode.l10n.t('$(warning) {0}: sign-in lapsed', environment),
      tooltip: vscode.l10n.t('{0}\n{1}: the sign-in lapsed at {2}. Click to sign in again.', heading, who, lapse),
      ariaLabel: vscode.l10n.t('Workflow Service: {0}, sign-in of {1} lapsed', environment, who),
      warning: true,
      saysClick: true,
    };
  const icon = state === 'refreshing' ? '$(sync~spin)' : state === 'lapsing-soon' ? '$(warning)' : '$(account)';
  const left = formatRemaining(Math.max(0, session.accessExpiresAt - now));
  const tooltip = [
    heading,
    vscode.l10n.t('Signed in as {0}', who),
    vscode.l10n.t('Access token expires in {0} (refreshed automatically one minute before)', left),
    state === 'lapsing-soon'
      ? vscode.l10n.t('Sign-in lapses at {0} (midnight US Eastern) — soon: sign in again to stay signed in', lapse)
      : vscode.l10n.t('Sign-in lapses at {0} (midnight US Eastern)', lapse),
  ].join('\n');
  const stateWords =
    state === 'refreshing'
      ? vscode.l10n.t('refreshing the token')
      : state === 'lapsing-soon'
        ? vscode.l10n.t('sign-in lapses soon')
        : vscode.l10n.t('token valid for {0}', left);
  return {
    text: vscode.l10n.t('{0} {1}: {2} · token {3}', icon, environment, who, left),
    tooltip,
    ariaLabel: vscode.l10n.t('Workflow Service: {0}, signed in as {1}, {2}', environment, who, stateWords),
    warning: state === 'lapsing-soon',
  };
}
