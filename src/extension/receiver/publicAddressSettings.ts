// Where the receiver's public address comes from (wfs.receiver.publicAddress), and the migration from the old
// wfs.receiver.tunnel setting (auto/always/never), which only knew localtunnel.
import * as vscode from 'vscode';
import type { ExtensionLog } from '../log/extensionLog';
import { setting, settingLayers, updateUserSetting } from '../settings';
import { PUBLIC_ADDRESS_SOURCES, sourceForOldTunnelSetting, type PublicAddressSource } from './publicAddressSource';

export { PUBLIC_ADDRESS_SOURCES, type PublicAddressSource };

export function publicAddressSource(): PublicAddressSource {
  return setting('receiverPublicAddress');
}

/** Moves a user's wfs.receiver.tunnel to wfs.receiver.publicAddress, once (the old key is then removed). */
export async function migrateTunnelSetting(output: ExtensionLog): Promise<void> {
  const old = settingLayers('receiverTunnel').user;
  if (old === undefined) return;
  const source = sourceForOldTunnelSetting(old);
  if (source && settingLayers('receiverPublicAddress').user === undefined) {
    await updateUserSetting('receiverPublicAddress', source);
    output.info(
      source === 'localtunnel'
        ? vscode.l10n.t(
            'Settings: wfs.receiver.tunnel "{0}" is now wfs.receiver.publicAddress "{1}" (it asks before opening for each real environment).',
            String(old),
            source,
          )
        : vscode.l10n.t(
            'Settings: wfs.receiver.tunnel "{0}" is now wfs.receiver.publicAddress "{1}".',
            String(old),
            source,
          ),
    );
  }
  await updateUserSetting('receiverTunnel', undefined);
}
