// The environments: the built-in Sandbox (the default, usable once the embedded sandbox runs) and those of the
// wfs.environments setting, each resolved to one Environment value; which one is current is remembered per user
// (globalState). What follows a change (sign-ins, pollers, the receiver's trust) is ordered in environmentSync.ts.
import * as vscode from 'vscode';
import { inUserWords } from '../coreWords';
import { Disposable } from '../disposable';
import { SignInRequired } from '../../core/auth';
import {
  type Environment,
  type EnvironmentConfig,
  EnvironmentValues,
  parseEnvironments,
  SANDBOX_ENVIRONMENT,
  sandboxEnvironment,
} from '../../core/environments';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';
import { SETTINGS } from '../settingKeys';
import { setting } from '../settings';

const CURRENT_KEY = 'wfs.currentEnvironment';

export class EnvironmentRegistry extends Disposable {
  private configured: EnvironmentConfig[] = [];
  private lastProblems = '';
  private readonly values = new EnvironmentValues();
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires once everything that follows a change of environments has followed it (environmentSync.ts). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly sandbox: SandboxHost,
    private readonly output: ExtensionLog,
  ) {
    super();
    this.read();
  }

  /** Re-reads wfs.environments (environmentSync.ts calls it when the setting changed). */
  read(): void {
    const { environments, problemsSaid } = parseEnvironments(setting('environments'));
    this.configured = environments;
    const text = problemsSaid.map(inUserWords).join(' ');
    if (text && text !== this.lastProblems) {
      this.output.warn(vscode.l10n.t('Settings: {0}', text));
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t('Some Workflow Service environments were skipped: {0}', text),
          vscode.l10n.t('Open Settings'),
        )
        .then((a) => {
          if (a)
            void vscode.commands.executeCommand('workbench.action.openSettingsJson', {
              revealSetting: { key: SETTINGS.environments },
            });
        });
    }
    this.lastProblems = text;
  }

  /** Every environment name, the Sandbox first. */
  names(): string[] {
    return [SANDBOX_ENVIRONMENT, ...this.configured.map((e) => e.name)];
  }

  get currentName(): string {
    const name = this.state.get<string>(CURRENT_KEY) ?? SANDBOX_ENVIRONMENT;
    return this.names().includes(name) ? name : SANDBOX_ENVIRONMENT;
  }

  /** The environment as it resolves now; the Sandbox resolves only while it runs. The same value comes back
   * while nothing about the environment changed. */
  get(name: string): Environment | undefined {
    let config: EnvironmentConfig | undefined;
    if (name === SANDBOX_ENVIRONMENT) {
      const info = this.sandbox.info;
      config = info ? sandboxEnvironment(info) : undefined;
    } else config = this.configured.find((e) => e.name === name);
    return config && this.values.intern(config);
  }

  /** Every environment that resolves now, the Sandbox first. */
  all(): Environment[] {
    return this.names().flatMap((n) => this.get(n) ?? []);
  }

  get current(): Environment | undefined {
    return this.get(this.currentName);
  }

  /** The name resolved once, where a command or a tree node starts: from there the value is passed, never the name
   * looked up again. Throws a SignInRequired (the UI offers "Sign In") when it resolves to nothing. */
  resolve(envName: string): Environment {
    const env = this.get(envName);
    if (env) return env;
    if (envName === SANDBOX_ENVIRONMENT)
      throw new SignInRequired('signed-out', vscode.l10n.t('The sandbox is not running: start it and sign in.'));
    throw new SignInRequired('signed-out', vscode.l10n.t('There is no environment "{0}" in settings.', envName));
  }

  /** True while the name still resolves to this very value (nothing about it changed since it was read). */
  isCurrent(env: Environment): boolean {
    return this.get(env.name) === env;
  }

  /** Every trusted issuer of every environment: the receiver accepts deliveries from any of them. */
  trustedIssuers(): Environment['trustedIssuers'] {
    return this.all().flatMap((e) => e.trustedIssuers);
  }

  async select(name: string): Promise<void> {
    if (!this.names().includes(name)) throw new Error(vscode.l10n.t('There is no environment "{0}".', name));
    await this.state.update(CURRENT_KEY, name);
    this.output.info(vscode.l10n.t('Environment: {0}', name));
    this.changed.fire();
  }

  /** Tells views the environments changed, once their followers have caught up (environmentSync.ts). */
  announce(): void {
    this.changed.fire();
  }
}
