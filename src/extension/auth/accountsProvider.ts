// The Workflow Service in VS Code's Accounts menu (vscode.AuthenticationProvider, as the authentication-provider
// sample does). One session per signed-in environment; its scope is the environment's name. Signing in and out
// still go through AuthService, so the status bar, the explorer and the Accounts menu always agree. Another
// extension that asks for a session gets VS Code's own consent prompt first. Accounts are keyed by envName (a session
// id and scope are text); each call resolves the name's value now.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { AuthService } from './authService';

const AUTH_PROVIDER_ID = 'wfs';

const sessionId = (envName: string) => `wfs:${envName}`;

export class AccountsProvider extends Disposable implements vscode.AuthenticationProvider {
  private readonly changed = this.register(
    new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>(),
  );
  readonly onDidChangeSessions = this.changed.event;
  /** The account each environment was last announced with (for added / removed / changed events). */
  private readonly announced = new Map<string, string>();

  constructor(
    private readonly auth: AuthService,
    private readonly environments: EnvironmentRegistry,
  ) {
    super();
    this.registerAll(
      auth.onDidChange((envName) => void this.announce(envName)),
      vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, vscode.l10n.t('Workflow Service'), this, {
        supportsMultipleAccounts: true,
      }),
    );
  }

  /** Signed-in environments, each with a current access token (refreshed first if it is due). */
  async getSessions(scopes?: readonly string[]): Promise<vscode.AuthenticationSession[]> {
    const sessions: vscode.AuthenticationSession[] = [];
    for (const envName of this.environments.names()) {
      if (scopes && scopes.length > 0 && !scopes.includes(envName)) continue;
      const s = await this.session(envName);
      if (s) sessions.push(s);
    }
    return sessions;
  }

  /** "Sign in" from the Accounts menu, or another extension asking with createIfNone: the usual sign-in flow. */
  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const envName = scopes[0] ?? this.environments.currentName;
    if (!this.environments.names().includes(envName))
      throw new Error(vscode.l10n.t('There is no Workflow Service environment named "{0}".', envName));
    if (!(await this.auth.signIn({ environment: envName })))
      throw new Error(vscode.l10n.t('Signing in to {0} did not complete.', envName));
    const s = await this.session(envName);
    if (!s) throw new Error(vscode.l10n.t('Signed in to {0}, but no access token is available.', envName));
    return s;
  }

  /** "Sign Out" from the Accounts menu. */
  async removeSession(id: string): Promise<void> {
    const envName = this.environments.names().find((e) => sessionId(e) === id);
    if (envName) await this.auth.signOut(envName);
  }

  private account(envName: string): string | undefined {
    const env = this.environments.get(envName);
    const tm = env && this.auth.peek(env);
    const user = tm?.current?.username;
    return tm && user && tm.state !== 'signed-out' && tm.state !== 'expired' ? user : undefined;
  }

  private async session(envName: string): Promise<vscode.AuthenticationSession | undefined> {
    const env = this.environments.get(envName);
    const tm = env && (await this.auth.manager(env));
    const user = this.account(envName);
    if (!tm || !user) return undefined;
    let accessToken: string;
    try {
      accessToken = await tm.getAccessToken();
    } catch {
      return undefined; // the refresh failed: the environment shows "signed out" or "expired" on its own
    }
    return {
      id: sessionId(envName),
      accessToken,
      account: { id: `${envName}/${user}`, label: `${user} · ${envName}` },
      scopes: [envName],
    };
  }

  private async announce(envName: string): Promise<void> {
    const env = this.environments.get(envName);
    if (env) await this.auth.manager(env);
    const before = this.announced.get(envName);
    const now = this.account(envName);
    if (before === now) return;
    if (now) this.announced.set(envName, now);
    else this.announced.delete(envName);
    const s = (user: string): vscode.AuthenticationSession => ({
      id: sessionId(envName),
      accessToken: '',
      account: { id: `${envName}/${user}`, label: `${user} · ${envName}` },
      scopes: [envName],
    });
    this.changed.fire({
      added: !before && now ? [s(now)] : [],
      removed: before && !now ? [s(before)] : [],
      changed: before && now ? [s(now)] : [],
    });
  }
}
