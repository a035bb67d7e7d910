// The receiver reads its settings when it starts, and the delivery history reads its own when the window starts. A
// change made while they run is said, with the one action that applies it, rather than waiting silently (a new
// forwardTo unused, historyStorage "memory" leaving the file being written).
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { changedReceiverSettings, settingsChangeNotice } from './receiverSettingsNotice';
import { COMMANDS } from '../commandIds';
import { SETTINGS } from '../settingKeys';
import { onDidChangeSettings, setting, settingLayers, updateUserSetting } from '../settings';
import type { SettingName } from '../settingValues';

export class ReceiverSettingsWatch extends Disposable {
  /** Settings our own commands are writing, which say what to do themselves (Choose Public Address Source…). */
  private readonly expected = new Set<string>();

  /** Restarts through the commands, so a restart says what it did (or why it failed) as the palette's would. */
  static restartingThroughCommands(isRunning: () => boolean): ReceiverSettingsWatch {
    return new ReceiverSettingsWatch(isRunning, () =>
      Promise.resolve(vscode.commands.executeCommand(COMMANDS.stopReceiver)).then(() =>
        vscode.commands.executeCommand(COMMANDS.startReceiver),
      ),
    );
  }

  constructor(isRunning: () => boolean, restart: () => Thenable<unknown>) {
    super();
    this.register(
      onDidChangeSettings((affects) => {
        const changed = changedReceiverSettings((key) => affects(key) && !this.expected.delete(key));
        const historyInMemory = setting('receiverHistoryStorage') === 'memory';
        const notice = settingsChangeNotice(changed, isRunning(), historyInMemory);
        if (!notice) return;
        const reload = notice.action === 'Reload Window';
        const label = reload ? vscode.l10n.t('Reload Window') : vscode.l10n.t('Restart Receiver');
        void vscode.window.showInformationMessage(notice.text, label).then((a) => {
          if (a === undefined) return;
          if (reload) void vscode.commands.executeCommand('workbench.action.reloadWindow');
          else void restart();
        });
      }),
    );
  }

  /** Writes a receiver setting (user settings) without the notice: the caller says what to do itself. */
  async update(name: SettingName, value: unknown): Promise<void> {
    if (settingLayers(name).user === value) return; // no change, so no event to expect
    // The change event consumes the expectation (VS Code sends it before the update resolves).
    const key = SETTINGS[name];
    this.expected.add(key);
    try {
      await updateUserSetting(name, value);
    } catch (err) {
      this.expected.delete(key);
      throw err;
    }
  }
}
