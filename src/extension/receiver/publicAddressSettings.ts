// Where the receiver's public address comes from (wfs.receiver.publicAddress), and the migration from the old
// wfs.receiver.tunnel setting (auto/always/never), which only knew localtunnel.
import * as vscode from 'vscode';
import type { ExtensionLog } from '../log/extensionLog';

import { PUBLIC_ADDRESS_SOURCES, sourceForOldTunnelSetting, type PublicAddressSource } from './publicAddressSource';

export { PUBLIC_ADDRESS_SOURCES, type PublicAddressSource };

export function publicAddressSource(): PublicAddressSource {
  const v = vscode.workspace.getConfiguration('wfs').get<string>('receiver.publicAddress');
  return (PUBLIC_ADDRESS_SOURCES as readonly string[]).includes(v ?? '') ? (v as PublicAddressSource) : 'vscode';
}

/** Moves a user's wfs.receiver.tunnel to wfs.receiver.publicAddress, once (the old key is then removed). */
export async function migrateTunnelSetting(output: ExtensionLog): Promise<void> {
  const config = vscode.workspace.getConfiguration('wfs');
  const old = config.inspect<string>('receiver.tunnel')?.globalValue;
  if (old === undefined) return;
  const source = sourceForOldTunnelSetting(old);
  if (source && config.inspect<string>('receiver.publicAddress')?.globalValue === undefined) {
    await config.update('receiver.publicAddress', source, vscode.ConfigurationTarget.Global);
    output.info(
      `Settings: wfs.receiver.tunnel "${old}" is now wfs.receiver.publicAddress "${source}"${source === 'localtunnel' ? ' (it asks before opening for each real environment)' : ''}.`,
    );
  }
  await config.update('receiver.tunnel', undefined, vscode.ConfigurationTarget.Global);
}
