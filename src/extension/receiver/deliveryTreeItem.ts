// One delivery as a tree row, the same in the explorer (a workflow's deliveries) and the receiver view.
import * as vscode from 'vscode';
import { forwardFailed, forwardsOf, type DeliveryRecord } from '../../core/webhooks';
import { terminalSafe } from '../../core/presentation';
import { SIGNED_HERE_TEXT } from '../panel/deliveryView';
import { COMMANDS } from '../commandIds';

/** @param id the row's id, unique within its tree. */
export function deliveryTreeItem(r: DeliveryRecord, id: string): vscode.TreeItem {
  const failed = r.verified ? undefined : r.checks.find((c) => !c.ok && c.step < 7);
  // A topic from the X-Svc-Topic header is outside the signature: shown, marked so.
  // Every value below may be a stranger's bytes: no control or bidi control of theirs reaches the row (terminalSafe).
  const rawTopic = r.topic ?? (r.unsigned?.topic !== undefined ? `${r.unsigned.topic} (unsigned)` : undefined);
  const topic = rawTopic === undefined ? undefined : terminalSafe(rawTopic);
  const item = new vscode.TreeItem(topic ?? vscode.l10n.t('webhook'), vscode.TreeItemCollapsibleState.None);
  item.id = id;
  const outcome = r.verified ? '' : failed ? ` refused at step ${failed.step}` : ' refused';
  // A forward that failed (refused, timed out, 5xx) is seen at a glance, even when the service was answered 200.
  const forwardsFailed = forwardsOf(r).filter(forwardFailed);
  const forwardNote = forwardsFailed.length > 0 ? ` · forward failed (${forwardsFailed.length})` : '';
  const signedHere = r.signedHere ? ` · ${SIGNED_HERE_TEXT}` : '';
  item.description = `${r.status}${outcome}${r.duplicate ? ' duplicate' : ''}${signedHere}${forwardNote} · ${r.receivedAt.slice(11, 19)}`;
  item.iconPath = new vscode.ThemeIcon(
    forwardsFailed.length > 0 ? 'error' : 'mail',
    new vscode.ThemeColor(
      forwardsFailed.length > 0
        ? 'list.errorForeground'
        : r.verified && r.status < 300
          ? 'testing.iconPassed'
          : 'list.warningForeground',
    ),
  );
  const refusal = failed ? ` Refused at step ${failed.step} (${failed.name}): ${terminalSafe(failed.detail)}.` : '';
  const forwardText = forwardsFailed
    .map(
      (f) =>
        ` Forward to ${f.target} failed: ${f.status !== undefined ? `answered ${f.status}` : terminalSafe(String(f.error))}.`,
    )
    .join('');
  item.tooltip = vscode.l10n.t(
    'Webhook {0} received {1}, answered {2}{3}.{4}{5} Click to open it in the webhook panel.',
    topic ?? '',
    r.receivedAt,
    r.status,
    r.duplicate ? vscode.l10n.t(' (duplicate)') : '',
    refusal,
    forwardText,
  );
  item.contextValue = 'delivery';
  item.command = {
    command: COMMANDS.openWebhookPanel,
    title: vscode.l10n.t('Open in Webhook Panel'),
    arguments: [r.id],
  };
  item.accessibilityInformation = {
    label: vscode.l10n.t(
      'Webhook {0}, {1}, answered {2}',
      topic ?? '',
      r.verified ? vscode.l10n.t('verified') : vscode.l10n.t('refused'),
      r.status,
    ),
  };
  return item;
}
