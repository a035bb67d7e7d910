// A status bar item while the receiver runs: its state and the tunnel's; a click copies the address. When the
// public address stops carrying deliveries (its end-to-end checks fail), it turns to a warning that says so.
import * as vscode from 'vscode';
import { tunnelStateWords } from '../receiver/tunnelStateWords';
import { Disposable } from '../disposable';
import type { ReceiverHost, ReceiverInfo } from '../receiver/receiverHost';
import { COMMANDS } from '../commandIds';

export class ReceiverStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(private readonly receiver: ReceiverHost) {
    super();
    this.item = this.register(vscode.window.createStatusBarItem('wfs.receiver', vscode.StatusBarAlignment.Left, 49));
    this.item.name = vscode.l10n.t('Workflow Service Receiver');
    this.item.command = COMMANDS.copyReceiverUrl;
    this.register(receiver.onDidChange(() => this.render()));
    this.render();
  }

  render(): void {
    const info = this.receiver.info;
    if (!info) return this.item.hide();
    if (info.publicPath === 'not-reaching') return this.renderNotReaching(info);
    // Whole messages, one per combination of the tunnel's state and the public address.
    const icon = info.tunnelState === 'reconnecting' ? '$(debug-disconnect)' : '$(radio-tower)';
    const tunnel = tunnelStateWords(info.tunnelState);
    this.item.text =
      info.tunnelState === 'closed'
        ? vscode.l10n.t('{0} Receiver', icon)
        : info.tunnelState === 'open'
          ? vscode.l10n.t('{0} Receiver · tunnel open', icon)
          : vscode.l10n.t('{0} Receiver · tunnel {1}', icon, tunnel);
    this.item.tooltip = info.publicUrl
      ? vscode.l10n.t(
          'Webhook receiver\nLocal: {0}\nPublic: {1}\nTunnel: {2}\nClick to copy the public URL.',
          info.localUrl,
          info.publicUrl,
          tunnel,
        )
      : vscode.l10n.t('Webhook receiver\nLocal: {0}\nTunnel: {1}\nClick to copy the local URL.', info.localUrl, tunnel);
    const at = info.publicUrl ?? info.localUrl;
    this.item.accessibilityInformation = {
      label:
        info.tunnelState === 'closed'
          ? vscode.l10n.t('Webhook receiver running at {0}', at)
          : vscode.l10n.t('Webhook receiver running at {0}, tunnel {1}', at, tunnel),
    };
    this.item.backgroundColor =
      info.tunnelState === 'reconnecting' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  /** The words, and what to do: the service resends only what it got a 5xx for (spec: Events 3). */
  private renderNotReaching(info: ReceiverInfo): void {
    this.item.text = vscode.l10n.t('$(warning) Public address not reaching the receiver');
    this.item.accessibilityInformation = {
      label: vscode.l10n.t(
        'Webhook receiver running, but its public address {0} is not reaching it',
        info.publicUrl ?? '',
      ),
    };
    this.item.tooltip = [
      vscode.l10n.t('Deliveries sent to {0} do not reach the receiver at {1}.', info.publicUrl ?? '', info.localUrl),
      vscode.l10n.t(
        'Check your tunnel or proxy (a localtunnel is reopened by itself). This is checked every few minutes, and says so when it is back.',
      ),
      vscode.l10n.t(
        'Meanwhile the service resends only deliveries answered with a status of 500 or more; count the others as lost: send test webhooks again, and refresh the workflows started meanwhile.',
      ),
      vscode.l10n.t('Click to copy the public URL.'),
    ].join('\n');
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.item.show();
  }
}
