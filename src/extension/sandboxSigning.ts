// The sandbox's key as the editor uses it to sign what it sends (Edit and Resend, fixtures, Replay, the audit).
// Sent to this window's receiver, each token it sent is trusted once, whatever environment is in use; nothing
// else the sandbox's key signs is, outside the Sandbox (anything on this machine may have the sandbox sign). Sent to
// your app outside the Sandbox, the app must trust the sandbox's key: said once per window, and again as a likely
// cause when the app answers 401 or 403.
import * as vscode from 'vscode';
import { Disposable } from './disposable';
import { SANDBOX_ENVIRONMENT } from '../core/environments';
import { isLoopbackHost } from '../core/http';
import { type DeliveryRecord, forwardsOf, type TrustedIssuer } from '../core/webhooks';
import type { EnvironmentRegistry } from './environments/environmentRegistry';
import type { ExtensionLog } from './log/extensionLog';
import type { ReceiverHost } from './receiver/receiverHost';
import type { SandboxHost } from './sandboxHost';

/** The button label, in the display language (read when shown: the bundle is loaded by then). */
const copyLabel = (): string => vscode.l10n.t('Copy JWKS URL');

export class SandboxSigning extends Disposable {
  /** The notice before the first sandbox-signed send to an app was shown in this window. */
  private appNoticeShown = false;

  constructor(
    private readonly sandbox: SandboxHost,
    private readonly receiver: ReceiverHost,
    private readonly environments: EnvironmentRegistry,
    private readonly output: ExtensionLog,
  ) {
    super();
    // A delivery signed here and forwarded by the receiver reached the apps with the sandbox's token.
    this.register(
      receiver.onDidReceive((r: DeliveryRecord) => {
        if (!r.signedHere) return;
        for (const f of forwardsOf(r)) this.answered(f.target, f.status);
      }),
    );
  }

  /** The sandbox's trust entry while it runs. */
  private sandboxIssuers(): TrustedIssuer[] {
    const info = this.sandbox.info;
    if (!info) throw new Error(vscode.l10n.t('the sandbox stopped: it signs the delivery'));
    return [{ issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl }];
  }

  /** True when `url` is this window's running receiver: its loopback address (by any loopback name) or its public
   * one. */
  isOwnReceiver(url: string): boolean {
    const info = this.receiver.info;
    if (!info) return false;
    let t: URL;
    try {
      t = new URL(url);
    } catch {
      return false;
    }
    const local = new URL(info.localUrl);
    if (
      isLoopbackHost(t.hostname) &&
      isLoopbackHost(local.hostname) &&
      t.port === local.port &&
      t.pathname === local.pathname
    )
      return true;
    if (!info.publicUrl) return false;
    const pub = new URL(info.publicUrl);
    return pub.origin === t.origin && pub.pathname === t.pathname;
  }

  /** A sandbox token for these bytes, sent to `url`: trusted once by this window's receiver when `url` is it; for any
   * other target (your app), the notice of what it must trust. `done()` after the answer withdraws a token not
   * spent. */
  async signFor(url: string, body: Buffer): Promise<{ token: string; done: () => void }> {
    const issuers = this.sandboxIssuers();
    const token = await this.sandbox.signWebhookBody(body);
    if (!token) throw new Error(vscode.l10n.t('the sandbox stopped: it signs the delivery'));
    if (!this.isOwnReceiver(url)) {
      this.beforeAppSend();
      return { token, done: () => undefined };
    }
    // Forwarded, it reaches the apps with this token: they must trust the sandbox's key as well.
    const info = this.receiver.info;
    if ((info?.forwardRules ?? 0) > 0) this.beforeAppSend();
    return { token, done: this.receiver.trustSignedHere(token, issuers) };
  }

  /** For an audit of `target`: when it is this window's receiver, each token the audit sends (genuine or forged) is
   * trusted once, so the receiver judges it by the sandbox's key set whatever environment is in use, as it would
   * on the Sandbox; a forged one still fails on its merits. `done()` withdraws those not spent. */
  forAudit(target: string): { beforeSend?: (authorization: string | undefined) => void; done: () => void } {
    if (!this.isOwnReceiver(target)) return { done: () => undefined };
    const issuers = this.sandboxIssuers();
    const withdraw: (() => void)[] = [];
    return {
      beforeSend: (authorization) => {
        if (authorization?.startsWith('Bearer ') && authorization.length > 7)
          withdraw.push(this.receiver.trustSignedHere(authorization.slice(7), issuers));
      },
      done: () => withdraw.splice(0).forEach((w) => w()),
    };
  }

  /** Outside the Sandbox, once per window: your app must trust the sandbox's key to accept what the editor signs. */
  private beforeAppSend(): void {
    const env = this.environments.currentName;
    if (env === SANDBOX_ENVIRONMENT || this.appNoticeShown) return;
    const info = this.sandbox.info;
    if (!info) return;
    this.appNoticeShown = true;
    const text = vscode.l10n.t(
      "What the editor sends to your app is signed with the sandbox's key, not {0}'s. For development, your app must trust issuer {1} with key set {2} (audience {3}), served while the sandbox runs in this window.",
      env,
      info.issuer,
      info.jwksUrl,
      info.audience,
    );
    this.output.info(text);
    void Promise.resolve(vscode.window.showInformationMessage(text, copyLabel())).then((a) =>
      a !== undefined ? this.copyJwksUrl() : undefined,
    );
  }

  /** Your app's answer to a sandbox-signed delivery: outside the Sandbox, a 401 or 403 may be the key. */
  answered(url: string, status: number | undefined): void {
    const env = this.environments.currentName;
    if (env === SANDBOX_ENVIRONMENT || (status !== 401 && status !== 403) || this.isOwnReceiver(url)) return;
    const info = this.sandbox.info;
    if (!info) return;
    const text = vscode.l10n.t(
      "{0} answered {1}. The delivery was signed with the sandbox's key (issuer {2}, key set {3}), not {4}'s: if your app trusts only {5}'s issuers, that may be why.",
      url,
      status,
      info.issuer,
      info.jwksUrl,
      env,
      env,
    );
    this.output.warn(text);
    void Promise.resolve(vscode.window.showWarningMessage(text, copyLabel())).then((a) =>
      a !== undefined ? this.copyJwksUrl() : undefined,
    );
  }

  private async copyJwksUrl(): Promise<void> {
    const url = this.sandbox.info?.jwksUrl;
    if (!url) return;
    await vscode.env.clipboard.writeText(url);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', url), 4000);
  }
}
