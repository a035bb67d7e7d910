// Start / stop the webhook receiver, and copy its addresses.
import * as vscode from 'vscode';
import type { ReceiverInfo } from '../receiver/receiverHost';
import { showError } from '../errors/showError';
import type { Services } from '../services';

export function registerReceiverCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('wfs.startReceiver', () => startReceiver(s)),
    vscode.commands.registerCommand('wfs.stopReceiver', () => s.receiver.stop()),
    vscode.commands.registerCommand('wfs.copyReceiverUrl', async (which?: 'local' | 'public') => {
      const info = s.receiver.info;
      if (!info) return void vscode.window.showInformationMessage('The webhook receiver is not running.', 'Start Receiver').then((a) => a && startReceiver(s));
      const url = which === 'local' || !info.publicUrl ? info.localUrl : info.publicUrl;
      await vscode.env.clipboard.writeText(url);
      vscode.window.setStatusBarMessage(`Copied ${url}`, 3000);
      return url;
    }),
  ];
}

async function startReceiver(s: Services): Promise<ReceiverInfo | undefined> {
  try {
    const info = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting the webhook receiver…' }, () => s.receiver.start());
    const buttons = info.publicUrl ? ['Copy Public URL', 'Copy Local URL'] : ['Copy Local URL'];
    void vscode.window
      .showInformationMessage(`Webhook receiver at ${info.localUrl}${info.publicUrl ? ` — public ${info.publicUrl}` : ' (loopback only; the sandbox reaches it directly)'}`, ...buttons)
      .then((a) => a && vscode.commands.executeCommand('wfs.copyReceiverUrl', a === 'Copy Local URL' ? 'local' : 'public'));
    return info;
  } catch (err) {
    void showError(s.log, 'Start receiver', err);
    return s.receiver.info;
  }
}
