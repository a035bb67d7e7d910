// The receiver's delivery history as this window owns it: where the settings keep it (in memory only, or in the
// global storage's file, which one window keeps at a time), loaded when the window starts, loaded again before a start
// when that failed, erased when the user keeps deliveries in memory only, and said when it cannot be written. The
// history itself is the receiver session's.
import * as vscode from 'vscode';
import { inUserWords } from '../coreWords';
import { Disposable } from '../disposable';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { byteSize } from '../../core';
import {
  type DeliveryHistory,
  type DeliveryHistoryOptions,
  eraseHistoryFile,
  historyHolderSaid,
  HistoryInUse,
} from '../../core/webhooks';
import type { ReceiverSession } from '../../core/receiver';
import type { ExtensionLog } from '../log/extensionLog';
import { SettingError } from './addressSetting';
import { HistoryWriteNotice } from './historyWriteNotice';
import { COMMANDS } from '../commandIds';
import { SETTINGS } from '../settingKeys';
import { setting } from '../settings';

/** Where the settings keep the history, read once when the window starts. */
export function historySettings(
  storageDir: string,
): DeliveryHistoryOptions & { diskFile: string; memoryOnly: boolean } {
  const MiB = 1024 * 1024;
  // Deliveries from real environments may carry customer data: the user may keep them in memory only.
  const diskFile = join(storageDir, 'deliveries.jsonl');
  const memoryOnly = setting('receiverHistoryStorage') === 'memory';
  return {
    file: memoryOnly ? undefined : diskFile,
    memoryBudgetBytes: setting('receiverHistoryMemoryMiB') * MiB,
    diskBudgetBytes: setting('receiverHistoryDiskMiB') * MiB,
    holderName: vscode.l10n.t('a {0} window', vscode.env.appName),
    diskFile,
    memoryOnly,
  };
}

export class ReceiverHistory extends Disposable {
  readonly history: DeliveryHistory;
  private loaded: Promise<unknown>;
  /** Why the history file could not be loaded when the window started (not because another window keeps it). */
  private loadFailed?: Error;
  private readonly writeNotice: HistoryWriteNotice;
  private readonly cleared = this.register(new vscode.EventEmitter<void>());
  /** The history was emptied: whatever lists its deliveries lists none now. */
  readonly onDidClear = this.cleared.event;

  constructor(
    session: ReceiverSession,
    storageDir: string,
    settings: ReturnType<typeof historySettings>,
    private readonly output: ExtensionLog,
  ) {
    super();
    this.history = session.history;
    const { diskFile, memoryOnly, holderName } = settings;
    this.writeNotice = new HistoryWriteNotice(
      (text) =>
        void Promise.resolve(
          vscode.window.showWarningMessage(text, vscode.l10n.t('Open Webhook Panel'), vscode.l10n.t('Show Log')),
        ).then((a) =>
          a
            ? vscode.commands.executeCommand(
                a === vscode.l10n.t('Show Log') ? COMMANDS.showLog : COMMANDS.openWebhookPanel,
              )
            : undefined,
        ),
    );
    session.on('history-write-failed', (e) => {
      this.output.warn(
        vscode.l10n.t(
          'The delivery history could not be written ({0}); verified deliveries are answered 503 until it can.',
          e.message,
        ),
      );
      this.writeNotice.failed(e);
    });
    session.on('history-written-again', () => {
      this.output.info(vscode.l10n.t('The delivery history is written again.'));
      this.writeNotice.written();
    });
    session.on('history-warning', (text) =>
      this.output.warn(vscode.l10n.t('Delivery history: {0}', inUserWords(text))),
    );
    this.loaded = mkdir(storageDir, { recursive: true })
      .then((): Promise<unknown> =>
        memoryOnly ? this.eraseEarlierHistory(diskFile, holderName!) : this.history.load(),
      )
      .catch((e: Error) => {
        if (this.inUseElsewhere(e)) return;
        // A full disk, a file another user owns: tried again when the receiver starts, which says why it cannot.
        this.loadFailed = e;
        this.output.warn(
          vscode.l10n.t(
            'The delivery history file {0} could not be opened ({1}): it is tried again when the receiver starts.',
            diskFile,
            e.message,
          ),
        );
      });
  }

  /** Where the history is kept on disk; undefined when it lives in memory only (chosen, or the file is another
   * window's: see inUse). */
  get file(): string | undefined {
    return this.history.file;
  }

  /** Set when another process (most often another window) holds the history file: this window's history is in
   * memory only. */
  get inUse(): HistoryInUse | undefined {
    return this.history.fileInUse;
  }

  /** Resolves once the stored history is read (the panel waits for it). */
  ready(): Promise<unknown> {
    return this.loaded;
  }

  /** Before the receiver starts: a history that could not be loaded is loaded now, or the start says why not.
   * Started without it, the receiver would append to a file it never read, and a compaction would drop the
   * records it holds. */
  async loadedForStart(): Promise<void> {
    await this.loaded;
    if (!this.loadFailed || !this.history.file) return;
    const file = this.history.file;
    try {
      await (this.loaded = this.history.load());
      this.loadFailed = undefined;
      this.output.info(vscode.l10n.t('The delivery history file {0} is open now.', file));
    } catch (e) {
      this.loaded = Promise.resolve();
      if (this.inUseElsewhere(e as Error)) return;
      throw new SettingError(
        SETTINGS.receiverHistoryStorage,
        vscode.l10n.t(
          'its delivery history file {0} could not be opened ({1}): free space on its disk or fix its access, or set wfs.receiver.historyStorage to memory',
          file,
          (e as Error).message,
        ),
      );
    }
  }

  /** Empties the history and erases its file; the views that list deliveries redraw at once. */
  async clear(): Promise<void> {
    await this.history.clear();
    this.cleared.fire();
  }

  /** Deactivation: the history written out and its file closed. */
  async close(): Promise<void> {
    await this.loaded;
    await this.history.close();
  }

  /** Every window shares the global storage; the first to load the file keeps it, and the others say so. */
  private inUseElsewhere(e: Error): boolean {
    if (!(e instanceof HistoryInUse)) return false;
    this.output.warn(
      vscode.l10n.t(
        'The delivery history file {0} is kept by {1}: this window keeps its deliveries in memory only, until it is reloaded after that one closes.',
        e.file,
        inUserWords(historyHolderSaid(e)),
      ),
    );
    return true;
  }

  /** In memory only: the file kept before the setting changed is erased, so no earlier delivery stays on disk. */
  private async eraseEarlierHistory(file: string, holderName: string): Promise<void> {
    const outcome = await eraseHistoryFile(file, holderName);
    if ('heldBy' in outcome)
      this.output.warn(
        vscode.l10n.t(
          'wfs.receiver.historyStorage is memory, but the earlier delivery history file {0} is still kept by {1}: it is erased when a window starts after that one closes.',
          file,
          inUserWords(historyHolderSaid(outcome.heldBy)),
        ),
      );
    else if (outcome.erased > 0)
      this.output.info(
        vscode.l10n.t(
          'wfs.receiver.historyStorage is memory: the earlier delivery history file {0} ({1}) was erased.',
          file,
          byteSize(outcome.erased),
        ),
      );
  }
}
