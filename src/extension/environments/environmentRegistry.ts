// The environments: the built-in Sandbox (the default, usable once the embedded sandbox runs) and those of the
// wfs.environments setting; which one is current is remembered per user (globalState).
import * as vscode from 'vscode';
import { parseEnvironments, sandboxEnvironment, SANDBOX_ENVIRONMENT, type EnvironmentConfig } from '../../core/environments/environmentConfig';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';

const CURRENT_KEY = 'wfs.currentEnvironment';

export class EnvironmentRegistry implements vscode.Disposable {
  private configured: EnvironmentConfig[] = [];
  private lastProblems = '';
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly state: vscode.Memento,
    private readonly sandbox: SandboxHost,
    private readonly log: ExtensionLog,
  ) {
    this.read();
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('wfs.environments')) return;
        this.read();
        this.changed.fire();
      }),
      sandbox.onDidChange(() => this.changed.fire()),
    );
  }

  private read(): void {
    const { environments, problems } = parseEnvironments(vscode.workspace.getConfiguration('wfs').get('environments'));
    this.configured = environments;
    const text = problems.join(' ');
    if (text && text !== this.lastProblems) {
      this.log.warn(`Settings: ${text}`);
      void vscode.window.showWarningMessage(`Some Workflow Service environments were skipped: ${text}`, 'Open Settings').then((a) => {
        if (a) void vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'wfs.environments' } });
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

  /** The environment's addresses; the Sandbox has them only while it runs. */
  config(name: string): EnvironmentConfig | undefined {
    if (name === SANDBOX_ENVIRONMENT) {
      const info = this.sandbox.info;
      return info ? sandboxEnvironment(info) : undefined;
    }
    return this.configured.find((e) => e.name === name);
  }

  get current(): EnvironmentConfig | undefined {
    return this.config(this.currentName);
  }

  /** Every trusted issuer of every environment: the receiver accepts deliveries from any of them. */
  trustedIssuers(): EnvironmentConfig['trustedIssuers'] {
    return this.names().flatMap((n) => this.config(n)?.trustedIssuers ?? []);
  }

  async select(name: string): Promise<void> {
    if (!this.names().includes(name)) throw new Error(`There is no environment "${name}".`);
    await this.state.update(CURRENT_KEY, name);
    this.log.info(`Environment: ${name}`);
    this.changed.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}
