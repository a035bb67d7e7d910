// Sign-in per environment: one TokenManager each, over SecretStorage (tokens, and the password only when the
// user opted in to silent re-sign-in). Other windows follow through secrets.onDidChange (TokenManager.load).
import * as vscode from 'vscode';
import { SignInRequired } from '../../core/auth/authErrors';
import { TokenManager, secretKeyFor, type Credentials, type TokenStateEvent } from '../../core/auth/TokenManager';
import { passwordKeyFor, secretScope } from '../../core/auth/secretScope';
import { SANDBOX_ENVIRONMENT, type EnvironmentConfig } from '../../core/environments/environmentConfig';
import { RateGate } from '../../core/http/rateGate';
import type { Clock } from '../../core/time/clock';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import { showError } from '../errors/showError';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';
import { SecretStorageStore } from '../secretStorageStore';
import { restrictedModeRefusal } from '../trust/restrictedMode';

export interface SignInArgs {
  environment?: string;
  username?: string;
  password?: string;
  userAlias?: string;
}

const REMEMBER_SETTING = 'auth.rememberPasswordForSilentSignIn';

interface Entry {
  manager: TokenManager;
  /** Name and origins the manager's secrets are bound to (secretScope). */
  scope: string;
  placement: string;
}

export class AuthService implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<string>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly warnedLapse = new Set<string>();
  private readonly lapseWarned = new vscode.EventEmitter<{ environment: string; kind: 'lapsing-soon' | 'lapsed' | 'silent' }>();
  /** Fires when the user is warned of a lapsing or lapsed sign-in (or it was left to silent re-sign-in). */
  readonly onDidWarnLapse = this.lapseWarned.event;
  /** Sandbox rebuilds run one after another: two at once would leave a TokenManager behind. */
  private sandboxReady: Promise<void> = Promise.resolve();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly environments: EnvironmentRegistry,
    private readonly sandbox: SandboxHost,
    private readonly log: ExtensionLog,
    private readonly clock: Clock,
  ) {
    this.disposables.push(
      sandbox.onDidChange(() => {
        this.sandboxReady = this.sandboxReady.then(() => this.onSandboxChanged()).catch((e: Error) => this.log.error(`Sandbox sign-in setup failed: ${e.message}`));
      }),
      environments.onDidChange(() => this.dropStale()),
    );
    void this.forgetUnboundSecrets();
  }

  /** Secrets stored before they were bound to an origin (keyed by name only) cannot be trusted to go anywhere. */
  private async forgetUnboundSecrets(): Promise<void> {
    for (const name of new Set([SANDBOX_ENVIRONMENT, ...this.environments.names()])) {
      await this.secrets.delete(`wfs.tokens.${name}`);
      await this.secrets.delete(`wfs.password.${name}`);
    }
  }

  /** The sandbox gets a new address at each start: its tokens belong to that run only. */
  private async onSandboxChanged(): Promise<void> {
    const old = this.entries.get(SANDBOX_ENVIRONMENT);
    this.drop(SANDBOX_ENVIRONMENT);
    if (old) await this.secrets.delete(secretKeyFor(old.scope));
    this.changed.fire(SANDBOX_ENVIRONMENT);
  }

  /** An environment whose origins changed gets a new TokenManager, bound to the new origins: it finds no secret
   * there, so the user is asked to sign in and the old token goes nowhere. */
  private dropStale(): void {
    for (const [name, e] of this.entries) {
      if (name === SANDBOX_ENVIRONMENT) continue;
      const c = this.environments.config(name);
      if (!c || secretScope(c) !== e.scope || c.aliasPlacement !== e.placement) {
        if (c && secretScope(c) !== e.scope) this.log.warn(`${name}: its address changed (${secretScope(c)}); its sign-in stays with the old address, so sign in again.`);
        this.drop(name);
      }
    }
    this.changed.fire(this.environments.currentName);
  }

  private drop(name: string): void {
    this.entries.get(name)?.manager.dispose();
    this.entries.delete(name);
  }

  /** Waits for pending sandbox rebuilds (tests, and sign-in right after a sandbox start). */
  settled(): Promise<void> {
    return this.sandboxReady;
  }

  /** The environment's TokenManager, created (and loaded from SecretStorage) on first use. */
  async manager(name: string): Promise<TokenManager | undefined> {
    await this.sandboxReady;
    const existing = this.entries.get(name);
    if (existing) return existing.manager;
    const config = this.environments.config(name);
    if (!config) return undefined;
    const scope = secretScope(config);
    const manager = new TokenManager({
      environment: scope,
      baseUrl: config.baseUrl,
      store: new SecretStorageStore(this.secrets),
      clock: this.clock,
      aliasPlacement: config.aliasPlacement,
      silentCredentials: () => this.rememberedCredentials(scope),
      // One throttle per environment, shared by sign-in, refresh and every workflow and test-webhook call.
      gate: new RateGate(this.clock),
    });
    manager.on('state', (e: TokenStateEvent) => this.onState(name, e));
    this.entries.set(name, { manager, scope, placement: config.aliasPlacement });
    await manager.load();
    return manager;
  }

  /** Synchronous view for renderers: undefined until manager() created it. */
  peek(name: string): TokenManager | undefined {
    return this.entries.get(name)?.manager;
  }

  /** A signed-in manager, or a SignInRequired the UI turns into a "Sign In" button. */
  async require(name: string): Promise<{ manager: TokenManager; config: EnvironmentConfig }> {
    const config = this.environments.config(name);
    if (!config) {
      if (name === SANDBOX_ENVIRONMENT) throw new SignInRequired('signed-out', 'The sandbox is not running: start it and sign in.');
      throw new SignInRequired('signed-out', `There is no environment "${name}" in settings.`);
    }
    const manager = (await this.manager(name))!;
    if (manager.state === 'signed-out' || manager.state === 'expired') await manager.getAccessToken(); // throws the right SignInRequired
    return { manager, config };
  }

  /** The password remembered for these origins (scope), when the user opted in. */
  private async rememberedCredentials(scope: string): Promise<Credentials | undefined> {
    if (!vscode.workspace.getConfiguration('wfs').get<boolean>(REMEMBER_SETTING)) return undefined;
    const raw = await this.secrets.get(passwordKeyFor(scope));
    try {
      return raw ? (JSON.parse(raw) as Credentials) : undefined;
    } catch {
      return undefined;
    }
  }

  private onState(name: string, e: TokenStateEvent): void {
    this.log.info(`${name}: sign-in state ${e.state}${e.error ? ` (${e.error.message})` : ''}`);
    this.changed.fire(name);
    if (e.state === 'lapsing-soon' && e.refreshExpiresAt && !this.warnedLapse.has(`${name}:${e.refreshExpiresAt}`)) {
      this.warnedLapse.add(`${name}:${e.refreshExpiresAt}`);
      const scope = this.entries.get(name)?.scope;
      void (scope ? this.rememberedCredentials(scope) : Promise.resolve(undefined)).then((silent) => {
        if (silent) {
          this.lapseWarned.fire({ environment: name, kind: 'silent' });
          return this.log.info(`${name}: the sign-in lapses at ${new Date(e.refreshExpiresAt!).toISOString()}; silent re-sign-in is on`);
        }
        this.lapseWarned.fire({ environment: name, kind: 'lapsing-soon' });
        const when = new Date(e.refreshExpiresAt!).toLocaleTimeString();
        void vscode.window
          .showWarningMessage(`Your sign-in to ${name} lapses at ${when} (midnight US Eastern). Sign in again to stay signed in.`, 'Sign In')
          .then((a) => a && vscode.commands.executeCommand('wfs.signIn', { environment: name }));
      });
    }
    if (e.state === 'expired') this.lapseWarned.fire({ environment: name, kind: 'lapsed' });
    if (e.state === 'expired')
      void vscode.window
        .showWarningMessage(`Your sign-in to ${name} has lapsed (midnight US Eastern). Sign in again to go on.`, 'Sign In')
        .then((a) => a && vscode.commands.executeCommand('wfs.signIn', { environment: name }));
  }

  async signIn(args: SignInArgs = {}): Promise<boolean> {
    const name = args.environment ?? this.environments.currentName;
    const isSandbox = name === SANDBOX_ENVIRONMENT;
    const refusal = restrictedModeRefusal('sign-in', name, vscode.workspace.isTrusted);
    if (refusal) {
      void vscode.window.showWarningMessage(refusal, 'Manage Workspace Trust').then((a) => a && vscode.commands.executeCommand('workbench.trust.manage'));
      return false;
    }
    if (isSandbox && !this.sandbox.info && !(await this.sandbox.startWithUi())) return false;
    const manager = await this.manager(name);
    const config = this.environments.config(name);
    if (!manager || !config) {
      void vscode.window.showErrorMessage(`There is no environment "${name}": add it to the wfs.environments setting.`, 'Open Settings').then((a) => {
        if (a) void vscode.commands.executeCommand('workbench.action.openSettings', 'wfs.environments');
      });
      return false;
    }
    const info = this.sandbox.info;
    const steps = isSandbox ? 2 : 3;
    const username =
      args.username ??
      (await vscode.window.showInputBox({
        title: `Sign in to ${name} (1/${steps})`,
        prompt: isSandbox ? 'Username (the sandbox user is "demo")' : 'Username',
        value: isSandbox ? info?.username : manager.current?.username,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'A username is required'),
      }));
    if (!username) return false;
    const password =
      args.password ??
      (await vscode.window.showInputBox({
        title: `Sign in to ${name} (2/${steps})`,
        prompt: isSandbox ? `Password (the sandbox password is "${info?.password}")` : `Password for ${username}`,
        password: true,
        ignoreFocusOut: true,
      }));
    if (!password) return false;
    let userAlias = args.userAlias ?? (isSandbox || args.username ? undefined : config.userAlias);
    if (!isSandbox && args.username === undefined) {
      const alias = await vscode.window.showInputBox({
        title: `Sign in to ${name} (3/3)`,
        prompt: 'User alias (optional: act on behalf of another user; leave empty for none)',
        value: config.userAlias ?? '',
        ignoreFocusOut: true,
      });
      if (alias === undefined) return false;
      userAlias = alias.trim() || undefined;
    }
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Signing in to ${name}…` }, () =>
        manager.signIn({ username: username.trim(), password, userAlias }),
      );
      if (vscode.workspace.getConfiguration('wfs').get<boolean>(REMEMBER_SETTING))
        await this.secrets.store(passwordKeyFor(secretScope(config)), JSON.stringify({ username: username.trim(), password, userAlias }));
      this.log.info(`Signed in to ${name} as ${username.trim()}${userAlias ? ` (alias ${userAlias})` : ''}`);
      return true;
    } catch (err) {
      void showError(this.log, `Sign-in to ${name}`, err);
      return false;
    }
  }

  async signOut(environment?: string): Promise<void> {
    const name = environment ?? this.environments.currentName;
    const manager = await this.manager(name);
    await manager?.signOut();
    const scope = this.entries.get(name)?.scope;
    if (scope) await this.secrets.delete(passwordKeyFor(scope));
    this.log.info(`Signed out of ${name}`);
    this.changed.fire(name);
  }

  dispose(): void {
    for (const e of this.entries.values()) e.manager.dispose();
    this.entries.clear();
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
    this.lapseWarned.dispose();
  }
}
