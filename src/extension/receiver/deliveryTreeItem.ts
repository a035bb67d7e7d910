// One delivery as a tree row, the same in the explorer (a workflow's deliveries) and the receiver view.
import * as vscode from 'vscode';
import { checkWorded, forwardFailed, forwardsOf, type DeliveryRecord } from '../../core/webhooks';
import { isSaid, terminalSafe } from '../../core/presentation';
import { COMMANDS } from '../commandIds';
import { inUserWords, userWording } from '../coreWords';

/** @param id the row's id, unique within its tree. */
export function deliveryTreeItem(r: DeliveryRecord, id: string): vscode.TreeItem {
  const failed = r.verified ? undefined : r.checks.find((c) => !c.ok && c.step < 7);
  // A topic from the X-Svc-Topic header is outside the signature: shown, marked so.
  // Every value below may be a stranger's bytes: no control or bidi control of theirs reaches the row (terminalSafe).
  const rawTopic =
    r.topic ?? (r.unsigned?.topic !== undefined ? vscode.l10n.t('{0} (unsigned)', r.unsigned.topic) : undefined);
  const topic = rawTopic === undefined ? undefined : terminalSafe(rawTopic);
  const item = new vscode.TreeItem(topic ?? vscode.l10n.t('webhook'), vscode.TreeItemCollapsibleState.None);
  item.id = id;
  // Whole phrases, joined by " · ": each reads in its own words in any language.
  const head = r.verified
    ? r.duplicate
      ? vscode.l10n.t('{0} duplicate', r.status)
      : String(r.status)
    : failed
      ? vscode.l10n.t('{0} refused at step {1}', r.status, failed.step)
      : vscode.l10n.t('{0} refused', r.status);
  // A forward that failed (refused, timed out, 5xx) is seen at a glance, even when the service was answered 200.
  const forwardsFailed = forwardsOf(r).filter(forwardFailed);
  item.description = [
    head,
    // A delivery verified with a token signed here is marked, so nobody takes it for the service's.
    r.signedHere ? vscode.l10n.t('signed here (sandbox key)') : undefined,
    forwardsFailed.length > 0 ? vscode.l10n.t('forward failed ({0})', forwardsFailed.length) : undefined,
    r.receivedAt.slice(11, 19),
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
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
  item.tooltip = tooltipOf(r, topic, failed, forwardsFailed);
  item.contextValue = 'delivery';
  item.command = {
    command: COMMANDS.openWebhookPanel,
    title: vscode.l10n.t('Open in Webhook Panel'),
    arguments: [r.id],
  };
  item.accessibilityInformation = { label: accessibleLabel(r, topic, failed, forwardsFailed.length) };
  return item;
}

/** Whole sentences, each its own message, joined by a template a translator may word without the space. */
function tooltipOf(
  r: DeliveryRecord,
  topic: string | undefined,
  failed: DeliveryRecord['checks'][number] | undefined,
  forwardsFailed: ReturnType<typeof forwardsOf>,
): string {
  const failedWords = failed && checkWorded(failed, userWording);
  const received =
    topic === undefined
      ? r.duplicate
        ? vscode.l10n.t('Webhook received {0}, answered {1} (duplicate).', r.receivedAt, r.status)
        : vscode.l10n.t('Webhook received {0}, answered {1}.', r.receivedAt, r.status)
      : r.duplicate
        ? vscode.l10n.t('Webhook {0} received {1}, answered {2} (duplicate).', topic, r.receivedAt, r.status)
        : vscode.l10n.t('Webhook {0} received {1}, answered {2}.', topic, r.receivedAt, r.status);
  const sentences = [
    received,
    ...(failed
      ? [
          vscode.l10n.t(
            'Refused at step {0} ({1}): {2}.',
            failed.step,
            failedWords!.name,
            terminalSafe(failedWords!.detail),
          ),
        ]
      : []),
    ...forwardsFailed.map((f) =>
      vscode.l10n.t(
        'Forward to {0} failed: {1}.',
        f.target,
        f.status !== undefined
          ? vscode.l10n.t('answered {0}', f.status)
          : terminalSafe(isSaid(f.errorSaid) ? inUserWords(f.errorSaid) : String(f.error)),
      ),
    ),
    vscode.l10n.t('Click to open it in the webhook panel.'),
  ];
  return sentences.reduce((text, next) => vscode.l10n.t('{0} {1}', text, next));
}

/** The icon's colour says verified or refused only to the eye: a screen reader hears it in words. */
function accessibleLabel(
  r: DeliveryRecord,
  topic: string | undefined,
  failed: DeliveryRecord['checks'][number] | undefined,
  forwardsFailed: number,
): string {
  const verdict = r.verified
    ? vscode.l10n.t('verified')
    : failed
      ? vscode.l10n.t('refused at step {0}: {1}', failed.step, checkWorded(failed, userWording).name)
      : vscode.l10n.t('refused');
  const about = topic ?? vscode.l10n.t('without a topic');
  // A message per combination: a translator words each whole.
  if (r.duplicate && forwardsFailed > 0)
    return vscode.l10n.t(
      'Webhook {0}, {1}, answered {2}, duplicate, forward failed ({3})',
      about,
      verdict,
      r.status,
      forwardsFailed,
    );
  if (r.duplicate) return vscode.l10n.t('Webhook {0}, {1}, answered {2}, duplicate', about, verdict, r.status);
  if (forwardsFailed > 0)
    return vscode.l10n.t(
      'Webhook {0}, {1}, answered {2}, forward failed ({3})',
      about,
      verdict,
      r.status,
      forwardsFailed,
    );
  return vscode.l10n.t('Webhook {0}, {1}, answered {2}', about, verdict, r.status);
}
