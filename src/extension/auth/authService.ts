// Sign-in per environment value: one TokenManager each, over SecretStorage (tokens, and the password only when the
// user opted in to silent re-sign-in). Other windows follow through secrets.onDidChange (TokenManager.load).
import * as vscode from 'vscode';
import { errorInUserWords } from '../coreWords';
import { Disposable } from '../disposable';
import {
  type Credentials,
  passwordKeyFor,
  secretKeyFor,
  type SecretStorageFailure,
  TokenManager,
  type TokenStateEvent,
} from '../../core/auth';
import { type Environment, EnvironmentChanged, SANDBOX_ENVIRONMENT } from '../../core/environments';
import { RateGate } from '../../core/http';
import type { Clock } from '../../core/time';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { EnvironmentFollower } from '../environments/environmentSync';
import { showError } from '../errors/showError';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';
import { SecretStorageStore } from '../secretStorageStore';
import { restrictedModeRefusal, WaitsForTrust } from '../trust/restrictedMode';
import { COMMANDS } from '../commandIds';
import { SETTINGS } from '../settingKeys';
import { setting } from '../settings';

export interface SignInArgs {
  environment?: string;
  username?: string;
  password?: string;
  userAlias?: string;
}

export class AuthService extends Disposable implements EnvironmentFollower {
  /** One TokenManager per environment value: a value whose origins changed is a new key, with no secret stored.
   * `loaded` settles once its stored sign-in was read: before that it reads as signed out. */
  private readonly managers = new Map<Environment, { manager: TokenManager; loaded: Promise<unknown> }>();
  private readonly changed = this.register(new vscode.EventEmitter<string>());
  /** Fires with the name (envName) of an environment whose sign-in changed, or whose value was let go. */
  readonly onDidChange = this.changed.event;
  private readonly warnedLapse = new Set<string>();
  private readonly warnedStorage = new Set<string>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly environments: EnvironmentRegistry,
    private readonly sandbox: SandboxHost,
    private readonly output: ExtensionLog,
    private readonly clock: Clock,
  ) {
    super();
    void this.forgetUnboundSecrets();
  }

  /** Secrets stored before they were bound to an origin (keyed by name only) cannot be trusted to go anywhere. */
  private async forgetUnboundSecrets(): Promise<void> {
    try {
      for (const name of new Set([SANDBOX_ENVIRONMENT, ...this.environments.names()])) {
        await this.secrets.delete(`wfs.tokens.${name}`);
        await this.secrets.delete(`wfs.password.${name}`);
      }
    } catch (err) {
      this.output.warn(
        vscode.l10n.t(
          "VS Code's secret storage could not remove sign-ins stored before they were bound to an address ({0}); they are never used.",
          errorInUserWords(err),
        ),
      );
    }
  }

  /** Lets go of the sign-ins of values that no longer resolve. A configured environment's secrets stay with its
   * old origins (pointing the setting back finds them); the built-in sandbox's origin never comes back, so its
   * secrets are deleted. */
  async retain(current: readonly Environment[]): Promise<void> {
    const keep = new Set(current);
    for (const [env, { manager }] of [...this.managers]) {
      if (keep.has(env)) continue;
      manager.dispose();
      this.managers.delete(env);
      const now = current.find((c) => c.name === env.name);
      if (env.builtIn) {
        // The sandbox's origin never comes back: what is left of it is unusable, so a failure is only logged.
        await Promise.all([
          this.secrets.delete(secretKeyFor(env.key)),
          this.secrets.delete(passwordKeyFor(env.key)),
        ]).catch((err: Error) =>
          this.output.warn(
            vscode.l10n.t(
              "VS Code's secret storage could not remove the stopped sandbox's sign-in ({0}); it is never used again.",
              errorInUserWords(err),
            ),
          ),
        );
      } else if (now && now.key !== env.key)
        this.output.warn(
          vscode.l10n.t(
            '{0}: its address changed ({1}); its sign-in stays with the old address, so sign in again.',
            env.name,
            now.key,
          ),
        );
      this.changed.fire(env.name);
    }
  }

  /** The value's TokenManager, created (and loaded from SecretStorage) on first use; undefined for a value that no
   * longer resolves (a manager made for it now would never be let go). */
  async manager(env: Environment): Promise<TokenManager | undefined> {
    const known = this.managers.get(env);
    if (known) {
      await known.loaded;
      return known.manager;
    }
    if (!this.environments.isCurrent(env)) return undefined;
    const manager = new TokenManager({
      secretScope: env.key,
      baseUrl: env.baseUrl,
      store: new SecretStorageStore(this.secrets),
      clock: this.clock,
      aliasPlacement: env.aliasPlacement,
      silentCredentials: () => this.rememberedCredentials(env),
      // One throttle per environment, shared by sign-in, refresh and every workflow and test-webhook call.
      gate: new RateGate(this.clock),
    });
    manager.on('state', (e: TokenStateEvent) => this.onState(env, e));
    manager.on('storage-error', (f: SecretStorageFailure) => this.onStorageFailure(env, f));
    // Every caller waits for the same read: one that came second must not see "signed out" while it runs.
    const loaded = manager.load();
    this.managers.set(env, { manager, loaded });
    await loaded;
    return manager;
  }

  /** Synchronous view for renderers: undefined until manager() created it. */
  peek(env: Environment): TokenManager | undefined {
    return this.managers.get(env)?.manager;
  }

  /** The value's signed-in manager. Throws EnvironmentChanged when the value no longer resolves (nothing may be
   * sent for it), or a SignInRequired the UI turns into a "Sign In" button. Every use of a real environment's
   * sign-in comes through here, so Restricted Mode stops them all here: WaitsForTrust, before the token is read. */
  async require(env: Environment): Promise<TokenManager> {
    if (!env.builtIn && !vscode.workspace.isTrusted)
      throw new WaitsForTrust(vscode.l10n.t('Using your sign-in to {0}', env.name));
    const manager = await this.manager(env);
    if (!manager || !this.environments.isCurrent(env))
      throw new EnvironmentChanged(env, this.environments.get(env.name));
    if (manager.state === 'signed-out' || manager.state === 'expired') await manager.getAccessToken(); // throws the right SignInRequired
    return manager;
  }

  /** The password remembered for this environment's origins, when the user opted in. */
  private async rememberedCredentials(env: Environment): Promise<Credentials | undefined> {
    if (!setting('authRememberPasswordForSilentSignIn')) return undefined;
    // Unreadable storage: no silent re-sign-in, so the user is asked (the read failure itself is not a sign-in error).
    const raw = await Promise.resolve(this.secrets.get(passwordKeyFor(env.key))).catch(() => undefined);
    try {
      return raw ? (JSON.parse(raw) as Credentials) : undefined;
    } catch {
      return undefined;
    }
  }

  /** VS Code's secret storage failed (on Linux, most often a keyring that is locked or missing). The sign-in goes
   * on in memory: the user is told once per environment and operation what that means. */
  private onStorageFailure(env: Environment, f: SecretStorageFailure): void {
    const what = {
      read: vscode.l10n.t(
        'could not read your stored sign-in to {0}: sign in again (the sign-in then lasts until this window closes if the storage still fails)',
        env.name,
      ),
      write: vscode.l10n.t(
        'did not keep your sign-in to {0}: you stay signed in until this window closes, and the next window asks you to sign in again',
        env.name,
      ),
      remove: vscode.l10n.t('could not remove your stored sign-in to {0}', env.name),
    }[f.operation];
    const text = vscode.l10n.t("VS Code's secret storage {0} ({1}).", what, errorInUserWords(f.error));
    this.output.warn(text);
    const key = `${env.name}:${f.operation}`;
    if (this.warnedStorage.has(key)) return;
    this.warnedStorage.add(key);
    void vscode.window.showWarningMessage(text, vscode.l10n.t('Show Log')).then((a) => a && this.output.show());
  }

  private onState(env: Environment, e: TokenStateEvent): void {
    const name = env.name;
    this.output.info(
      e.error
        ? vscode.l10n.t('{0}: sign-in state {1} ({2})', name, tokenStateWords(e.state), errorInUserWords(e.error))
        : vscode.l10n.t('{0}: sign-in state {1}', name, tokenStateWords(e.state)),
    );
    this.changed.fire(name);
    if (e.state === 'lapsing-soon' && e.refreshExpiresAt && !this.warnedLapse.has(`${name}:${e.refreshExpiresAt}`)) {
      this.warnedLapse.add(`${name}:${e.refreshExpiresAt}`);
      void this.rememberedCredentials(env).then((silent) => {
        if (silent) {
          return this.output.info(
            vscode.l10n.t(
              '{0}: the sign-in lapses at {1}; silent re-sign-in is on',
              name,
              new Date(e.refreshExpiresAt!).toISOString(),
            ),
          );
        }
        const when = new Date(e.refreshExpiresAt!).toLocaleTimeString();
        void vscode.window
          .showWarningMessage(
            vscode.l10n.t(
              'Your sign-in to {0} lapses at {1} (midnight US Eastern). Sign in again to stay signed in.',
              name,
              when,
            ),
            vscode.l10n.t('Sign In'),
          )
          .then((a) => a && vscode.commands.executeCommand(COMMANDS.signIn, { environment: name }));
      });
    }
    if (e.state === 'expired')
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t('Your sign-in to {0} has lapsed (midnight US Eastern). Sign in again to go on.', name),
          vscode.l10n.t('Sign In'),
        )
        .then((a) => a && vscode.commands.executeCommand(COMMANDS.signIn, { environment: name }));
  }

  async signIn(args: SignInArgs = {}): Promise<boolean> {
    const name = args.environment ?? this.environments.currentName;
    const isSandbox = name === SANDBOX_ENVIRONMENT;
    const refusal = restrictedModeRefusal('sign-in', name, vscode.workspace.isTrusted);
    if (refusal) {
      void vscode.window
        .showWarningMessage(refusal, vscode.l10n.t('Manage Workspace Trust'))
        .then((a) => a && vscode.commands.executeCommand('workbench.trust.manage'));
      return false;
    }
    if (isSandbox && !this.sandbox.info && !(await this.sandbox.startWithUi())) return false;
    const env = this.environments.get(name);
    const manager = env && (await this.manager(env));
    if (!manager || !env) {
      void vscode.window
        .showErrorMessage(
          vscode.l10n.t('There is no environment "{0}": add it to the wfs.environments setting.', name),
          vscode.l10n.t('Open Settings'),
        )
        .then((a) => {
          if (a) void vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS.environments);
        });
      return false;
    }
    const info = this.sandbox.info;
    const steps = isSandbox ? 2 : 3;
    const username =
      args.username ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Sign in to {0} (1/{1})', name, steps),
        prompt: isSandbox ? vscode.l10n.t('Username (the sandbox user is "demo")') : vscode.l10n.t('Username'),
        value: isSandbox ? info?.username : manager.current?.username,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A username is required')),
      }));
    if (!username) return false;
    const password =
      args.password ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Sign in to {0} (2/{1})', name, steps),
        prompt: isSandbox
          ? vscode.l10n.t('Password (the sandbox password is "{0}")', info?.password ?? '')
          : vscode.l10n.t('Password for {0}', username),
        password: true,
        ignoreFocusOut: true,
      }));
    if (!password) return false;
    let userAlias = args.userAlias ?? (isSandbox || args.username ? undefined : env.userAlias);
    if (!isSandbox && args.username === undefined) {
      const alias = await vscode.window.showInputBox({
        title: vscode.l10n.t('Sign in to {0} (3/3)', name),
        prompt: vscode.l10n.t('User alias (optional: act on behalf of another user; leave empty for none)'),
        value: env.userAlias ?? '',
        ignoreFocusOut: true,
      });
      if (alias === undefined) return false;
      userAlias = alias.trim() || undefined;
    }
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Signing in to {0}…', name) },
        () => manager.signIn({ username: username.trim(), password, userAlias }),
      );
    } catch (err) {
      void showError(this.output, vscode.l10n.t('Sign-in to {0}', name), err);
      return false;
    }
    this.output.info(
      userAlias
        ? vscode.l10n.t('Signed in to {0} as {1} (alias {2})', name, username.trim(), userAlias)
        : vscode.l10n.t('Signed in to {0} as {1}', name, username.trim()),
    );
    await this.rememberPassword(env, name, { username: username.trim(), password, userAlias });
    return true;
  }

  /** The sign-in succeeded: a password the storage cannot keep only means no silent re-sign-in. */
  private async rememberPassword(
    env: Environment,
    name: string,
    login: { username: string; password: string; userAlias?: string },
  ): Promise<void> {
    if (setting('authRememberPasswordForSilentSignIn'))
      await this.secrets.store(passwordKeyFor(env.key), JSON.stringify(login)).then(undefined, (err: Error) => {
        const text = vscode.l10n.t(
          "Signed in to {0}, but VS Code's secret storage did not keep the password for silent re-sign-in ({1}): you will be asked to sign in when the sign-in lapses.",
          name,
          errorInUserWords(err),
        );
        this.output.warn(text);
        void vscode.window.showWarningMessage(text);
      });
  }

  /** Signed out in this window whatever the storage does; what it could not remove is said, to try again. */
  async signOut(envName?: string): Promise<void> {
    const name = envName ?? this.environments.currentName;
    const env = this.environments.get(name);
    const manager = env && (await this.manager(env));
    const failures: string[] = [];
    await manager?.signOut().catch((err: Error) => failures.push(errorInUserWords(err)));
    if (env)
      await Promise.resolve(this.secrets.delete(passwordKeyFor(env.key))).catch((err: Error) =>
        failures.push(vscode.l10n.t('the remembered password was not removed ({0})', errorInUserWords(err))),
      );
    this.changed.fire(name);
    if (failures.length === 0) return this.output.info(vscode.l10n.t('Signed out of {0}', name));
    const text = vscode.l10n.t('Signed out of {0}: {1}.', name, failures.join('; '));
    this.output.error(text);
    void vscode.window
      .showErrorMessage(text, vscode.l10n.t('Sign Out Again'))
      .then((a) => a && vscode.commands.executeCommand(COMMANDS.signOut, name));
  }

  override dispose(): void {
    for (const { manager } of this.managers.values()) manager.dispose();
    this.managers.clear();
    super.dispose();
  }
}

/** A sign-in state (core's TokenState, a code) in the user's words, for the log. */
function tokenStateWords(state: TokenStateEvent['state']): string {
  switch (state) {
    case 'signed-out':
      return vscode.l10n.t('signed out');
    case 'signed-in':
      return vscode.l10n.t('signed in');
    case 'refreshing':
      return vscode.l10n.t('refreshing');
    case 'lapsing-soon':
      return vscode.l10n.t('lapsing soon');
    case 'expired':
      return vscode.l10n.t('lapsed');
  }
}
