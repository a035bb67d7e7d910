// A status bar item while the receiver runs: its state and the tunnel's; a click copies the address.
import * as vscode from 'vscode';
import type { ReceiverHost } from '../receiver/receiverHost';

export class ReceiverStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly receiver: ReceiverHost) {
    this.item = vscode.window.createStatusBarItem('wfs.receiver', vscode.StatusBarAlignment.Left, 49);
    this.item.name = 'Workflow Service Receiver';
    this.item.command = 'wfs.copyReceiverUrl';
    this.subscription = receiver.onDidChange(() => this.render());
    this.render();
  }

  render(): void {
    const info = this.receiver.info;
    if (!info) return this.item.hide();
    const tunnel =
      info.tunnelState === 'closed'
        ? ''
        : info.tunnelState === 'open'
          ? ' · tunnel open'
          : ` · tunnel ${info.tunnelState}`;
    this.item.text = `${info.tunnelState === 'reconnecting' ? '$(debug-disconnect)' : '$(radio-tower)'} Receiver${tunnel}`;
    this.item.tooltip = `Webhook receiver\nLocal: ${info.localUrl}${info.publicUrl ? `\nPublic: ${info.publicUrl}` : ''}\nTunnel: ${info.tunnelState}\nClick to copy the ${info.publicUrl ? 'public' : 'local'} URL.`;
    this.item.backgroundColor =
      info.tunnelState === 'reconnecting' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
