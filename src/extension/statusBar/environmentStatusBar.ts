// The status bar item: environment, signed-in user, token state and time left; a click opens the
// environment menu (switch environment, sign in, sign out).
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';
import type { Clock } from '../../core/time';
import type { AuthService } from '../auth/authService';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import { statusBarModel } from './statusBarText';
import { COMMANDS } from '../commandIds';

export class EnvironmentStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly environments: EnvironmentRegistry,
    private readonly auth: AuthService,
    private readonly clock: Clock,
  ) {
    super();
    this.item = this.register(vscode.window.createStatusBarItem('wfs.status', vscode.StatusBarAlignment.Left, 50));
    this.item.name = vscode.l10n.t('Workflow Service');
    this.item.command = COMMANDS.switchEnvironment;
    // The time left changes by the minute: re-render twice a minute (a cheap string format, no I/O).
    this.ticker = setInterval(() => this.render(), 30_000);
    this.ticker.unref?.();
    this.registerAll(
      environments.onDidChange(() => void this.refresh()),
      auth.onDidChange(() => this.render()),
    );
    void this.refresh();
  }

  /** Makes sure the current environment's TokenManager exists (loading a stored sign-in), then renders. */
  async refresh(): Promise<void> {
    const env = this.environments.current;
    if (env) await this.auth.manager(env);
    this.render();
  }

  render(): void {
    const name = this.environments.currentName;
    const env = this.environments.current;
    if (!env) {
      this.item.text =
        name === SANDBOX_ENVIRONMENT
          ? vscode.l10n.t('$(beaker) Sandbox: not started')
          : vscode.l10n.t('$(warning) {0}: not configured', name);
      this.item.tooltip =
        name === SANDBOX_ENVIRONMENT
          ? vscode.l10n.t('Workflow Service — the built-in sandbox is not running. Click for the environment menu.')
          : vscode.l10n.t('Workflow Service — "{0}" is not in settings.', name);
      this.item.accessibilityInformation = {
        label:
          name === SANDBOX_ENVIRONMENT
            ? vscode.l10n.t('Workflow Service: Sandbox, not started')
            : vscode.l10n.t('Workflow Service: {0}, not configured', name),
      };
      this.item.backgroundColor = undefined;
    } else {
      const tm = this.auth.peek(env);
      const m = statusBarModel(env, tm?.state ?? 'signed-out', this.clock.now(), tm?.current);
      this.item.text = m.text;
      this.item.tooltip = m.saysClick
        ? m.tooltip
        : vscode.l10n.t('{0}\nClick to switch environment or sign out.', m.tooltip);
      this.item.accessibilityInformation = { label: m.ariaLabel };
      this.item.backgroundColor = m.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    }
    this.item.show();
  }

  override dispose(): void {
    clearInterval(this.ticker);
    super.dispose();
  }
}
