// Sign-in to the built-in Sandbox environment: a TokenManager over SecretStorage, a status bar item,
// and the sign-in / sign-out commands.
import * as vscode from 'vscode';
import { SignInRequired } from '../core/auth/authErrors';
import { TokenManager, type TokenStateEvent } from '../core/auth/TokenManager';
import { SystemClock } from '../core/time/clock';
import type { SandboxHost } from './sandboxHost';
import { SecretStorageStore } from './secretStorageStore';
import { statusBarModel } from './statusBarText';

export const SANDBOX_ENVIRONMENT = 'Sandbox';

export interface SignInArgs {
  username?: string;
  password?: string;
  userAlias?: string;
}

export class SandboxAuth implements vscode.Disposable {
  private tokens?: TokenManager;
  private readonly item: vscode.StatusBarItem;
  private readonly clock = new SystemClock();
  private readonly ticker: NodeJS.Timeout;
  private readonly disposables: vscode.Disposable[] = [];
  /** Rebuilds run one after another: two at once would leave a TokenManager behind. */
  private ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly sandbox: SandboxHost,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.item = vscode.window.createStatusBarItem('wfs.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Workflow Service';
    this.item.command = 'wfs.signIn';
    this.ticker = setInterval(() => this.render(), 30_000);
    this.disposables.push(this.sandbox.onDidChange(() => void this.onSandboxChanged()));
  }

  private onSandboxChanged(): Promise<void> {
    this.ready = this.ready.then(() => this.rebuild()).catch((err: Error) => this.log.error(`Sandbox sign-in setup failed: ${err.message}`));
    return this.ready;
  }

  get manager(): TokenManager | undefined {
    return this.tokens;
  }

  /** The sandbox gets a new address at each start, so its tokens belong to that run only. */
  private async rebuild(): Promise<void> {
    this.tokens?.dispose();
    this.tokens = undefined;
    await this.secrets.delete(`wfs.tokens.${SANDBOX_ENVIRONMENT}`);
    const info = this.sandbox.info;
    if (info) {
      const tm = new TokenManager({ environment: SANDBOX_ENVIRONMENT, baseUrl: info.baseUrl, store: new SecretStorageStore(this.secrets), clock: this.clock });
      tm.on('state', (e: TokenStateEvent) => {
        this.log.info(`Sandbox sign-in state: ${e.state}${e.error ? ` (${e.error.message})` : ''}`);
        this.render();
      });
      this.tokens = tm;
      this.item.show();
    } else this.item.hide();
    this.render();
  }

  async signIn(args: SignInArgs = {}): Promise<boolean> {
    const info = this.sandbox.info ?? (await this.sandbox.startWithUi());
    if (!info) return false;
    await this.ready;
    if (!this.tokens) await this.onSandboxChanged();
    const username =
      args.username ??
      (await vscode.window.showInputBox({ title: 'Sign in to the Sandbox (1/2)', prompt: 'Username (the sandbox user is "demo")', value: info.username, ignoreFocusOut: true }));
    if (!username) return false;
    const password =
      args.password ??
      (await vscode.window.showInputBox({ title: 'Sign in to the Sandbox (2/2)', prompt: `Password (the sandbox password is "${info.password}")`, password: true, ignoreFocusOut: true }));
    if (!password) return false;
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Signing in to the Sandbox…' }, () =>
        this.tokens!.signIn({ username, password, userAlias: args.userAlias }),
      );
      this.log.info(`Signed in to the Sandbox as ${username}`);
      return true;
    } catch (err) {
      const msg = err instanceof SignInRequired ? err.advice : `Sign-in failed: ${(err as Error).message}`;
      this.log.error(msg);
      void vscode.window.showErrorMessage(msg, 'Show Log').then((a) => a && this.log.show());
      return false;
    }
  }

  async signOut(): Promise<void> {
    await this.tokens?.signOut();
    this.log.info('Signed out of the Sandbox');
  }

  private render(): void {
    const tm = this.tokens;
    if (!tm) return;
    const m = statusBarModel(SANDBOX_ENVIRONMENT, tm.state, this.clock.now(), tm.current);
    this.item.text = m.text;
    this.item.tooltip = m.tooltip;
    this.item.backgroundColor = m.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.command = tm.state === 'signed-in' || tm.state === 'refreshing' ? 'wfs.signOut' : 'wfs.signIn';
  }

  dispose(): void {
    clearInterval(this.ticker);
    this.tokens?.dispose();
    this.item.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
