// Applies the proxy settings (proxySettings.ts) to every request the extension makes, and again when they change.
// Our dispatcher is our own: other extensions in the host are not affected.
import * as vscode from 'vscode';
import { errorInUserWords } from './coreWords';
import { Disposable } from './disposable';
import { checkProxySettings, proxyDispatcher, setDefaultDispatcher } from '../core/http';
import { extensionProxySettings } from './proxySettings';
import type { ExtensionLog } from './log/extensionLog';
import type { Dispatcher } from 'undici';

export class ProxyRouting extends Disposable {
  private current?: Dispatcher;
  private stopped = false;
  /** Changes applied in order: a dispatcher is made asynchronously, and a later change must not be overtaken. */
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly output: ExtensionLog) {
    super();
    this.apply();
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (
          ['http.proxy', 'http.noProxy', 'http.proxySupport', 'http.proxyAuthorization'].some((k) =>
            e.affectsConfiguration(k),
          )
        )
          this.apply();
      }),
    );
  }

  private apply(): void {
    this.applying = this.applying.then(() => this.applyNow());
  }

  private async applyNow(): Promise<void> {
    if (this.stopped) return;
    const settings = extensionProxySettings(vscode.workspace.getConfiguration('http'), process.env);
    let next: Dispatcher | undefined;
    try {
      checkProxySettings(settings, 'http.proxy');
      next = await proxyDispatcher(settings);
    } catch (err) {
      this.output.error(vscode.l10n.t('{0}; requests go without a proxy', errorInUserWords(err)));
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Workflow Service: {0}. Requests go without a proxy until it is fixed.', errorInUserWords(err)),
      );
    }
    setDefaultDispatcher(next);
    void this.current?.close();
    this.current = next;
    this.output.info(
      next
        ? settings.noProxy
          ? vscode.l10n.t(
              'requests go through the proxy {0} (loopback direct; not for {1})',
              redactProxy(settings.httpsProxy ?? settings.httpProxy),
              settings.noProxy,
            )
          : vscode.l10n.t(
              'requests go through the proxy {0} (loopback direct)',
              redactProxy(settings.httpsProxy ?? settings.httpProxy),
            )
        : vscode.l10n.t('requests go without a proxy'),
    );
  }

  override dispose(): void {
    this.stopped = true;
    super.dispose();
    setDefaultDispatcher(undefined);
    void this.current?.close();
  }
}

/** A proxy URL fit for the log: its credentials never are. */
function redactProxy(url: string | undefined): string {
  try {
    const u = new URL(url ?? '');
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(unreadable)';
  }
}
