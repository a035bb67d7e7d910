// The "Webhook Receiver" view: its addresses, the tunnel, and the latest deliveries (refused ones too), newest
// first. While the receiver is stopped the view is empty and its welcome view offers to start it; the context
// key wfs.receiverState ("running" | "stopped") drives that and the view's title actions.
import * as vscode from 'vscode';
import { tunnelStateWords } from './tunnelStateWords';
import { hopWords, pathDetailWords } from './pathDetailWords';
import { Disposable } from '../disposable';
import { terminalSafe } from '../../core/presentation';
import type { Clock, TimerHandle } from '../../core/time';
import { deliveryTreeItem } from './deliveryTreeItem';
import type { ReceiverHost } from './receiverHost';
import { COMMANDS } from '../commandIds';

export type ReceiverNode =
  | { kind: 'local' }
  | { kind: 'tunnel' }
  | { kind: 'selfTest' }
  | { kind: 'deliveries' }
  | { kind: 'delivery'; deliveryId: string };

/** Rows in the view; the webhook panel has the whole history. */
const RECEIVER_VIEW_DELIVERIES = 50;
/** A burst of deliveries redraws the view once per this many ms, not once per delivery. */
const REDRAW_MS = 250;

export class ReceiverTree extends Disposable implements vscode.TreeDataProvider<ReceiverNode> {
  private readonly changed = this.register(new vscode.EventEmitter<ReceiverNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private redraw?: TimerHandle;

  constructor(
    private readonly receiver: ReceiverHost,
    private readonly clock: Clock,
  ) {
    super();
    this.registerAll(
      receiver.onDidChange(() => this.refreshNow()),
      receiver.onDidReceive(() => (this.redraw ??= this.clock.setTimeout(() => this.refreshNow(), REDRAW_MS))),
    );
    this.setContext();
  }

  private refreshNow(): void {
    this.clock.clearTimeout(this.redraw);
    this.redraw = undefined;
    this.setContext();
    this.changed.fire(undefined);
  }

  private setContext(): void {
    void vscode.commands.executeCommand('setContext', 'wfs.receiverState', this.receiver.info ? 'running' : 'stopped');
  }

  getChildren(node?: ReceiverNode): ReceiverNode[] {
    if (!this.receiver.info) return [];
    if (!node)
      return [
        { kind: 'local' },
        { kind: 'tunnel' },
        ...(this.receiver.info.selfTest ? [{ kind: 'selfTest' } as const] : []),
        { kind: 'deliveries' },
      ];
    if (node.kind !== 'deliveries') return [];
    const all = this.receiver.deliveries.all();
    const out: ReceiverNode[] = [];
    for (let i = all.length - 1; i >= 0 && out.length < RECEIVER_VIEW_DELIVERIES; i--)
      out.push({ kind: 'delivery', deliveryId: all[i]!.id });
    return out;
  }

  getTreeItem(node: ReceiverNode): vscode.TreeItem {
    const info = this.receiver.info;
    switch (node.kind) {
      case 'local': {
        const item = new vscode.TreeItem(vscode.l10n.t('Local'), vscode.TreeItemCollapsibleState.None);
        item.id = 'receiver/local';
        item.description = info?.localUrl ?? vscode.l10n.t('stopped');
        item.iconPath = new vscode.ThemeIcon('plug');
        item.tooltip = vscode.l10n.t('{0}\nLoopback only (127.0.0.1). Click to copy.', info?.localUrl ?? '');
        item.accessibilityInformation = {
          label: info
            ? vscode.l10n.t('Local address {0}, running', info.localUrl)
            : vscode.l10n.t('Local address, stopped'),
        };
        item.command = {
          command: COMMANDS.copyReceiverUrl,
          title: vscode.l10n.t('Copy Local URL'),
          arguments: ['local'],
        };
        return item;
      }
      case 'tunnel':
        return this.publicItem(info);
      case 'selfTest': {
        const t = info?.selfTest;
        const item = new vscode.TreeItem(vscode.l10n.t('Self-test'), vscode.TreeItemCollapsibleState.None);
        item.id = 'receiver/selfTest';
        // The self-test's detail may quote what a tunnel or proxy answered: its controls are shown as escapes.
        item.description = t
          ? t.ok
            ? vscode.l10n.t('arrived · {0} ms', t.roundTripMs ?? '')
            : vscode.l10n.t('failed: {0}', hopWords(t.failedHop))
          : '';
        item.iconPath = new vscode.ThemeIcon(t?.ok ? 'pass' : 'error');
        item.accessibilityInformation = {
          label: !t
            ? vscode.l10n.t('Self-test, not run yet')
            : t.ok
              ? vscode.l10n.t('Self-test passed: the delivery arrived in {0} ms', t.roundTripMs ?? '')
              : vscode.l10n.t('Self-test failed at {0}', hopWords(t.failedHop)),
        };
        item.tooltip = t
          ? vscode.l10n.t('{0}: {1}.\nClick to test again.', t.testedAt, terminalSafe(pathDetailWords(t)))
          : '';
        item.command = { command: COMMANDS.testPublicAddress, title: vscode.l10n.t('Test Public Address') };
        return item;
      }
      case 'deliveries': {
        const count = this.receiver.deliveries.size;
        const item = new vscode.TreeItem(vscode.l10n.t('Deliveries'), vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'receiver/deliveries';
        item.description =
          count > RECEIVER_VIEW_DELIVERIES
            ? vscode.l10n.t('latest {0} of {1}', RECEIVER_VIEW_DELIVERIES, count)
            : `${count}`;
        item.iconPath = new vscode.ThemeIcon('inbox');
        item.accessibilityInformation = { label: vscode.l10n.t('Deliveries, {0} received', count) };
        item.tooltip = vscode.l10n.t(
          'Every request the receiver answered, refused ones too. The webhook panel shows each in full.',
        );
        item.command = { command: COMMANDS.openWebhookPanel, title: vscode.l10n.t('Open Webhook Panel') };
        return item;
      }
      case 'delivery': {
        const r = this.receiver.deliveries.find(node.deliveryId);
        return r
          ? deliveryTreeItem(r, `receiver/delivery/${r.id}`)
          : new vscode.TreeItem(vscode.l10n.t('(no longer in the history)'));
      }
    }
  }

  /** The public address: its URL to copy, or why deliveries cannot reach the receiver through it now. */
  private publicItem(info: ReceiverHost['info']): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Public'), vscode.TreeItemCollapsibleState.None);
    item.id = 'receiver/tunnel';
    item.contextValue = 'wfs.receiverPublic';
    const source = info?.publicSource ?? 'vscode';
    if (source === 'localtunnel' && info?.tunnelState && info.tunnelState !== 'closed' && info.tunnelState !== 'open') {
      // While the tunnel is down its URL reaches nothing: say so rather than show a dead address.
      const state = tunnelStateWords(info.tunnelState);
      item.description = vscode.l10n.t('tunnel {0}', state);
      item.iconPath = new vscode.ThemeIcon('sync~spin');
      item.accessibilityInformation = {
        label: vscode.l10n.t('Public address: tunnel {0}, deliveries cannot reach the receiver', state),
      };
      item.tooltip = info.publicUrl
        ? vscode.l10n.t(
            'Tunnel {0} ({1}): deliveries cannot reach the receiver until it is open again.',
            state,
            info.publicUrl,
          )
        : vscode.l10n.t('Tunnel {0}: deliveries cannot reach the receiver until it is open again.', state);
      return item;
    }
    const url = info?.publicUrl;
    item.accessibilityInformation = {
      label: url ? vscode.l10n.t('Public address {0}', url) : vscode.l10n.t('Public address: none, loopback only'),
    };
    item.description = url ?? (source === 'localtunnel' ? vscode.l10n.t('no tunnel') : vscode.l10n.t('none'));
    item.iconPath = new vscode.ThemeIcon(url ? 'globe' : 'circle-slash');
    // Lines, each a whole message or a value: the address, its source, why (a note), what a click does.
    item.tooltip = [
      url,
      vscode.l10n.t('Source: {0} (wfs.receiver.publicAddress).', source),
      info?.publicNote ? vscode.l10n.t('{0}.', info.publicNote) : undefined,
      url ? vscode.l10n.t('Click to copy; "Test Public Address" sends a signed delivery through it.') : undefined,
    ]
      .filter((line) => line !== undefined)
      .join('\n');
    item.command = url
      ? { command: COMMANDS.copyReceiverUrl, title: vscode.l10n.t('Copy Public URL'), arguments: ['public'] }
      : { command: COMMANDS.choosePublicAddress, title: vscode.l10n.t('Choose Public Address Source') };
    return item;
  }

  override dispose(): void {
    this.clock.clearTimeout(this.redraw);
    super.dispose();
  }
}
