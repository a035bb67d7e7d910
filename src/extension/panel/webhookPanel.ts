// The webhook debugging panel (a webview): every delivery live, filterable, with its detail and actions.
// One panel at a time; restored after a window reload by a serializer (its filter and selection ride in the
// webview state). The extension side does filtering and detail; the webview only renders text.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { TargetTls } from '../../core/http';
import { type DeliveryRecord, forwardsOf, historyHolderSaid } from '../../core/webhooks';
import { homedir } from 'node:os';
import { writeInNewTempFolder } from '../newTempFolder';
import { cmdCurlCommand, powerShellCommand } from '../../core/presentation';
import {
  curlCommand,
  deliveryDetail,
  shellRequest,
  deliveryRow,
  exportJsonChunks,
  filterRows,
  matchesFilter,
  rowsWithoutText,
  topicFilterProblem,
  type DeliveryFilter,
} from './deliveryView';
import { newNonce, panelHtml } from './panelHtml';
import { parsePanelRequest, type PanelAction, type PanelRequest, type PanelUpdate } from './panelProtocol';
import type { Services } from '../services';
import { historyStorageNote } from './historyStorage';
import { writeExport } from './exportFile';
import { COMMANDS } from '../commandIds';
import { errorInUserWords, inUserWords } from '../coreWords';
import { panelActionLabel } from './panelActionLabel';
import { recordedBody, replayDelivery, type ReplayResult } from './panelReplay';

const WEBHOOK_PANEL_VIEW_TYPE = 'wfs.webhookPanel';

const gone = (): string => vscode.l10n.t('That delivery is no longer in the history.');

/** An action that needs the receiver running: its error offers to start it. */
class ReceiverStopped extends Error {}

interface PanelState {
  filter?: DeliveryFilter;
  selectedId?: string | null;
  paused?: boolean;
}

export class WebhookPanel extends Disposable {
  private panel?: vscode.WebviewPanel;
  private filter: DeliveryFilter = {};
  private paused = false;
  private pending = 0;
  private selectedId?: string;
  private panelDisposables: vscode.Disposable[] = [];
  private readyWaiters: (() => void)[] = [];
  private isReady = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly s: Services,
  ) {
    super();
    this.registerAll(
      vscode.window.registerWebviewPanelSerializer(WEBHOOK_PANEL_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: PanelState | undefined) => this.attach(panel, state ?? {}),
      }),
      s.receiver.onDidReceive((r) => this.onDelivery(r)),
      s.receiver.onDidChange(() => this.isReady && this.sendReceiverLine()),
      // Whoever cleared it (this panel's button, the palette), an open panel shows the empty history at once.
      s.receiver.onDidClearHistory(() => this.showCleared()),
    );
  }

  /** Opens (or reveals) the panel, optionally on one delivery. */
  async show(selectId?: string): Promise<void> {
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(
        WEBHOOK_PANEL_VIEW_TYPE,
        vscode.l10n.t('Webhook Deliveries'),
        vscode.ViewColumn.Active,
        this.webviewOptions(),
      );
      this.attach(panel, {});
    } else this.panel.reveal();
    await this.whenReady();
    if (selectId) await this.select(selectId);
  }

  private webviewOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media', 'panel')],
      retainContextWhenHidden: false,
      enableFindWidget: true,
    };
  }

  private attach(panel: vscode.WebviewPanel, state: PanelState): void {
    this.panel = panel;
    this.isReady = false;
    this.filter = state.filter ?? {};
    this.paused = !!state.paused;
    this.selectedId = state.selectedId ?? undefined;
    panel.webview.options = this.webviewOptions();
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'wfs.svg');
    const media = (f: string) =>
      panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'panel', f)).toString();
    panel.webview.html = panelHtml({
      cspSource: panel.webview.cspSource,
      nonce: newNonce(),
      domUri: media('dom.js'),
      typeAheadUri: media('typeAhead.js'),
      scriptUri: media('panel.js'),
      styleUri: media('panel.css'),
      l10n: vscode.l10n,
      lang: vscode.env.language,
    });
    this.panelDisposables = [
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const m = parsePanelRequest(raw);
        if ('invalid' in m) return this.s.output.warn(vscode.l10n.t('Webhook panel: ignored {0}', m.invalid));
        this.onMessage(m).catch((err: Error) =>
          this.s.output.warn(vscode.l10n.t('Webhook panel: "{0}" failed: {1}', m.type, errorInUserWords(err))),
        );
      }),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.isReady = false;
        for (const d of this.panelDisposables) d.dispose();
        this.panelDisposables = [];
      }),
    ];
  }

  private whenReady(): Promise<void> {
    return this.isReady ? Promise.resolve() : new Promise((r) => this.readyWaiters.push(r));
  }

  private post(message: PanelUpdate): void {
    void this.panel?.webview.postMessage(message);
  }

  private readonly readBody = (id: string) => this.s.receiver.deliveries.body(id);

  /** Where the history is kept and how to erase it, shown with the count. */
  private storage(): string {
    const deliveries = this.s.receiver.deliveries;
    const held = this.s.receiver.historyInUse;
    return historyStorageNote(
      this.s.receiver.historyFile,
      deliveries.bytesInMemory,
      deliveries.bytesOnDisk,
      held && { file: held.file, holder: inUserWords(historyHolderSaid(held)) },
      vscode.l10n,
    );
  }

  private sendReceiverLine(): void {
    const info = this.s.receiver.info;
    this.post({
      type: 'receiver',
      receiver: info
        ? {
            running: true,
            localUrl: info.localUrl,
            publicUrl: info.publicUrl,
            publicNote: info.publicNote,
            passThrough: info.passThrough,
          }
        : { running: false },
    });
  }

  private sendRows(): void {
    this.pending = 0;
    const filter = this.filter;
    const records = this.s.receiver.deliveries.all();
    // Without text nothing is read, and the rows go at once, in order with every other message.
    if (!filter.text?.trim())
      return this.post({
        type: 'rows',
        rows: rowsWithoutText(records, filter, vscode.l10n),
        total: records.length,
        storage: this.storage(),
        ...this.filterProblem(filter),
      });
    // A newer filter asked for while bodies are read stops this scan: only the latest one is shown.
    void filterRows(records, filter, this.readBody, () => filter === this.filter, vscode.l10n).then((rows) => {
      if (rows && filter === this.filter)
        this.post({
          type: 'rows',
          rows,
          total: this.s.receiver.deliveries.size,
          storage: this.storage(),
          ...this.filterProblem(filter),
        });
    });
  }

  /** A topic pattern the matcher refuses is said in the panel, in place of "no delivery matches". */
  private filterProblem(filter: DeliveryFilter): { filterProblem?: string } {
    const problem = topicFilterProblem(filter, vscode.l10n);
    return problem ? { filterProblem: vscode.l10n.t('The topic filter {0}.', problem) } : {};
  }

  private onDelivery(r: DeliveryRecord): void {
    if (!this.panel || !this.isReady) return;
    if (this.paused) {
      this.pending++;
      return this.post({ type: 'paused-count', count: this.pending });
    }
    const row = deliveryRow(r, vscode.l10n);
    const filter = this.filter;
    if (!filter.text?.trim()) {
      if (rowsWithoutText([r], filter).length)
        this.post({ type: 'append', row, total: this.s.receiver.deliveries.size });
      return;
    }
    void matchesFilter(row, r, filter, this.readBody).then(
      (yes) =>
        yes && filter === this.filter && this.post({ type: 'append', row, total: this.s.receiver.deliveries.size }),
    );
  }

  private find(id: string | undefined): DeliveryRecord | undefined {
    return id ? this.s.receiver.deliveries.find(id) : undefined;
  }

  private async select(id: string): Promise<void> {
    this.selectedId = id;
    const r = this.find(id);
    const body = r ? await this.s.receiver.deliveries.body(r.id) : undefined;
    this.post({ type: 'detail', detail: r && body ? deliveryDetail(r, body, vscode.l10n) : null });
  }

  private async onMessage(m: PanelRequest): Promise<unknown> {
    switch (m.type) {
      case 'ready':
        await this.s.receiver.ready();
        this.filter = m.filter ?? this.filter;
        this.paused = !!m.paused;
        this.sendRows();
        this.post({ type: 'override', status: this.s.receiver.responseOverride ?? null });
        this.sendReceiverLine();
        if (typeof m.selectedId === 'string') await this.select(m.selectedId);
        else if (this.selectedId) await this.select(this.selectedId);
        this.isReady = true;
        for (const w of this.readyWaiters.splice(0)) w();
        return;
      case 'filter':
        this.filter = m.filter;
        return this.sendRows();
      case 'pause':
        this.paused = m.paused;
        if (!this.paused) this.sendRows();
        return;
      case 'select':
        return this.select(m.id);
      case 'clear':
        return this.clearHistory();
      case 'override':
        this.s.receiver.setResponseOverride(m.status ?? undefined);
        return;
      case 'start-receiver':
        // Through the command, so a failure is shown as the palette's would be (the port in use, the public address).
        return vscode.commands.executeCommand(COMMANDS.startReceiver);
      case 'action':
        // Export All as the palette's Export Webhook History…: an empty history says so rather than saving an empty
        // file.
        return m.action === 'export-all' ? this.exportHistory() : this.runAction(m.action, m.id);
    }
  }

  /** Empties the history and erases its file, once the user confirmed (the panel's Clear button and the palette's
   * Clear Webhook History…). An open panel shows the empty list whichever asked. True when cleared. */
  async clearHistory(): Promise<boolean> {
    await this.s.receiver.ready();
    const n = this.s.receiver.deliveries.size;
    if (n === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The webhook history is empty: nothing to clear.'));
      return false;
    }
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t('Clear all {0} deliveries from the history?', n),
      { modal: true, detail: this.storage() },
      vscode.l10n.t('Clear'),
    );
    if (ok !== vscode.l10n.t('Clear')) return false;
    await this.s.receiver.clearHistory();
    return true;
  }

  private showCleared(): void {
    this.selectedId = undefined;
    if (!this.isReady) return;
    this.post({ type: 'detail', detail: null });
    this.sendRows();
  }

  /** Saves the whole history as JSON (the panel's Export All…, and the palette's Export Webhook History…). */
  async exportHistory(exportTo?: vscode.Uri): Promise<string | undefined> {
    await this.s.receiver.ready();
    if (this.s.receiver.deliveries.size === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The webhook history is empty: nothing to export.'));
      return undefined;
    }
    return (await this.runAction('export-all', undefined, exportTo)) as string | undefined;
  }

  /** The actions of the detail view and the toolbar; also callable from tests and commands. */
  async runAction(action: PanelAction, id?: string, exportTo?: vscode.Uri): Promise<unknown> {
    try {
      if (action === 'export-all')
        return await this.exportRecords(
          [...this.s.receiver.deliveries.all()],
          `deliveries-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
          exportTo,
        );
      // Every other action is on one delivery, which may have left the history (cleared, or evicted by the budget)
      // since the webview showed it.
      const r = this.find(id);
      if (!r) throw new Error(gone());
      switch (action) {
        case 'replay-local': {
          const url = this.s.receiver.info?.localUrl;
          if (!url) throw new ReceiverStopped(vscode.l10n.t('The receiver is not running: start it, then replay.'));
          return await this.replay(r, url);
        }
        case 'replay-forward': {
          const url = forwardsOf(r)[0]?.target ?? this.s.receiver.forwardTo;
          if (!url) throw new Error(vscode.l10n.t('No forward target is set ({0}).', 'wfs.receiver.forwardTo'));
          // The forward rule's `ca` or `insecure` for that target, from the rules in use only.
          return await this.replay(r, url, false, this.s.receiver.forwardConsent.tlsFor(url).tls);
        }
        case 'replay-fresh': {
          const to = this.freshTarget(r);
          // To the app: its forward rule's `ca` or `insecure`, as Replay to Forward Target.
          const tls = to === forwardsOf(r)[0]?.target ? this.s.receiver.forwardConsent.tlsFor(to).tls : undefined;
          return await this.replay(r, to, true, tls);
        }
        case 'copy-curl': {
          const url =
            this.s.receiver.info?.publicUrl ?? this.s.receiver.info?.localUrl ?? `http://127.0.0.1:PORT${r.path}`;
          const cmd = curlCommand(r, url, await this.bodyOf(r));
          await vscode.env.clipboard.writeText(cmd);
          vscode.window.setStatusBarMessage(
            vscode.l10n.t('Copied the delivery as a curl command (set {0} first)', 'WFS_WEBHOOK_TOKEN'),
            4000,
          );
          return cmd;
        }
        case 'copy-powershell':
        case 'copy-cmd':
          return await this.copyForShell(action, r);
        case 'edit-resend':
          return await vscode.commands.executeCommand(COMMANDS.editAndResend, r.id);
        case 'send-changes':
          return await vscode.commands.executeCommand(COMMANDS.sendDeliveryWithChanges, r.id);
        case 'save-fixture':
          return await vscode.commands.executeCommand(COMMANDS.saveAsFixture, r.id);
        case 'export-one':
          return await this.exportRecords([r], `delivery-${r.id}.json`, exportTo);
        case 'jump': {
          const runId = deliveryRow(r).runId;
          if (!runId) return undefined;
          return await vscode.commands.executeCommand(COMMANDS.revealWorkflowByRunId, runId);
        }
      }
    } catch (err) {
      const text = vscode.l10n.t('{0}: {1}', panelActionLabel(action), errorInUserWords(err));
      if (id) this.post({ type: 'result', result: { id, text } });
      if (err instanceof ReceiverStopped)
        void vscode.window
          .showErrorMessage(text, vscode.l10n.t('Start Receiver'))
          .then((a) => a && vscode.commands.executeCommand(COMMANDS.startReceiver));
      else void vscode.window.showErrorMessage(text, vscode.l10n.t('Show Log')).then((a) => a && this.s.output.show());
    }
    return undefined;
  }

  /** PowerShell or cmd.exe: the request (a curl config file and the body) is written to a new folder in the temp
   * folder, which the command enters; a delivery no command can carry is refused with the reason. */
  private async copyForShell(action: 'copy-powershell' | 'copy-cmd', r: DeliveryRecord): Promise<string> {
    const url = this.s.receiver.info?.publicUrl ?? this.s.receiver.info?.localUrl ?? `http://127.0.0.1:PORT${r.path}`;
    const req = shellRequest(r, url, await this.bodyOf(r));
    // Created new in a new folder, 0600, never through a link (none can be there yet; the helper makes it sure).
    const { dir, value: cmd } = await writeInNewTempFolder('wfs-delivery-', (folder) => {
      const made = action === 'copy-powershell' ? powerShellCommand(req, folder) : cmdCurlCommand(req, folder);
      return { files: made.files, value: made };
    });
    await vscode.env.clipboard.writeText(cmd.command);
    const powerShell = action === 'copy-powershell';
    const token = powerShell ? '$env:WFS_WEBHOOK_TOKEN' : '%WFS_WEBHOOK_TOKEN%';
    const copied = powerShell
      ? vscode.l10n.t('Copied the delivery as a PowerShell command: set {0} first.', token)
      : vscode.l10n.t('Copied the delivery as a cmd.exe command: set {0} first.', token);
    void vscode.window.showInformationMessage(
      cmd.bodyInFile
        ? vscode.l10n.t('{0} {1}', copied, vscode.l10n.t('The request is in {0} ({1}).', dir, cmd.bodyInFile))
        : copied,
    );
    return cmd.command;
  }

  private async exportRecords(
    records: DeliveryRecord[],
    name: string,
    exportTo?: vscode.Uri,
  ): Promise<string | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
    const target =
      exportTo ??
      (await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.joinPath(folder, name),
        filters: { JSON: ['json'] },
      }));
    if (!target) return undefined;
    await writeExport(target, exportJsonChunks(records, this.readBody));
    void vscode.window.showInformationMessage(
      records.length === 1
        ? vscode.l10n.t('Exported 1 delivery to {0}', target.fsPath)
        : vscode.l10n.t('Exported {0} deliveries to {1}', records.length, target.fsPath),
    );
    return target.fsPath;
  }

  /** Replay with New Id goes where the delivery went on to: its app (the first forward target), else the receiver. */
  private freshTarget(r: DeliveryRecord): string {
    const app = forwardsOf(r)[0]?.target;
    if (app) return app;
    const url = this.s.receiver.info?.localUrl;
    if (!url) throw new ReceiverStopped(vscode.l10n.t('The receiver is not running: start it, then replay.'));
    return url;
  }

  /** A replay, then its result in words on the panel's status line (with the offer of a new id when it may have been
   * taken for a duplicate). */
  private async replay(r: DeliveryRecord, url: string, fresh = false, tls?: TargetTls): Promise<ReplayResult> {
    const { result, text } = await replayDelivery(this.s, r, url, { fresh, tls });
    this.post({ type: 'result', result: { id: r.id, text, ...(result.mayBeDuplicate ? { offerFresh: true } : {}) } });
    return result;
  }

  private bodyOf(r: DeliveryRecord): Promise<Buffer> {
    return recordedBody(this.s, r);
  }

  override dispose(): void {
    this.panel?.dispose();
    super.dispose();
  }
}
