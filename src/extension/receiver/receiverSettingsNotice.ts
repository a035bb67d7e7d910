// What to say when a receiver setting changes while the receiver or the history runs (see receiverSettingsWatch.ts).
import * as vscode from 'vscode';
import { SETTINGS } from '../settingKeys';
import type { SettingKey } from '../settingValues';

/** Read by the receiver when it starts. */
const RESTART_KEYS = [
  SETTINGS.receiverPort,
  SETTINGS.receiverPublicAddress,
  SETTINGS.receiverPublicUrl,
  SETTINGS.receiverTunnelHost,
  SETTINGS.receiverTunnelSubdomain,
  SETTINGS.receiverForwardTo,
  SETTINGS.receiverForward,
  SETTINGS.receiverForwardPassThrough,
];
/** Read by the delivery history when the window starts. */
const RELOAD_KEYS = [
  SETTINGS.receiverHistoryStorage,
  SETTINGS.receiverHistoryMemoryMiB,
  SETTINGS.receiverHistoryDiskMiB,
];

/** The receiver settings a change touched: those a restart of the receiver applies, and those a reload applies. */
export function changedReceiverSettings(affects: (key: SettingKey) => boolean): {
  restart: string[];
  reload: string[];
} {
  return { restart: RESTART_KEYS.filter(affects), reload: RELOAD_KEYS.filter(affects) };
}

/** "a", "a and b", "a, b and c". */
function listed(keys: readonly string[]): string {
  return keys.length < 2 ? keys.join('') : vscode.l10n.t('{0} and {1}', keys.slice(0, -1).join(', '), keys.at(-1)!);
}

/** What to say about a change, or undefined when nothing needs saying (the receiver is stopped: it reads its
 * settings when it starts). */
export function settingsChangeNotice(
  changed: { restart: string[]; reload: string[] },
  receiverRunning: boolean,
  historyInMemory: boolean,
): { text: string; action: 'Reload Window' | 'Restart Receiver' } | undefined {
  if (changed.reload.length > 0) {
    const reload = vscode.l10n.t(
      '{0} changed: the delivery history uses the new value once the window reloads.',
      listed(changed.reload),
    );
    return {
      text:
        changed.reload.includes(SETTINGS.receiverHistoryStorage) && historyInMemory
          ? vscode.l10n.t('{0} {1}', reload, vscode.l10n.t('The history file is then erased.'))
          : reload,
      action: 'Reload Window',
    };
  }
  if (changed.restart.length > 0 && receiverRunning)
    return {
      text: vscode.l10n.t(
        '{0} changed: the running webhook receiver uses the new value once restarted.',
        listed(changed.restart),
      ),
      action: 'Restart Receiver',
    };
  return undefined;
}
