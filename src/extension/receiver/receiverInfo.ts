// What the receiver's views show of it, and how its session's events reach the log and the views.
import * as vscode from 'vscode';
import { pathDetailWords } from './pathDetailWords';
import type { PublicAddressTestResult, PublicPathState, TunnelState } from '../../core/tunnel';
import type { DeliveryRecord } from '../../core/webhooks';
import type { PublicAddressSource } from './publicAddressSettings';
import type { ReceiverSession } from '../../core/receiver';
import { linkDerivedDelivery } from '../fixtures/derivedFrom';
import type { ExtensionLog } from '../log/extensionLog';
import { inUserWords } from '../coreWords';

export interface ReceiverInfo {
  localUrl: string;
  publicUrl?: string;
  /** Where the public address comes from (wfs.receiver.publicAddress). */
  publicSource: PublicAddressSource;
  /** Why there is no public address, or what to know about it (e.g. Codespaces ports are private). */
  publicNote?: string;
  tunnelState: TunnelState;
  /** Whether the public address carries deliveries, as its end-to-end checks say (undefined: not watched). */
  publicPath?: PublicPathState;
  /** The last "Test Public Address" result, while the address is the same. */
  selfTest?: PublicAddressTestResult;
  /** The public address of the previous start, when this start's differs: registered with the service, it is stale. */
  publicChangedFrom?: string;
  /** Forwarded deliveries are answered with the apps' status. */
  passThrough?: boolean;
  /** How many forward rules are in use. */
  forwardRules?: number;
}

/** One delivery, as the output channel says it. */
function deliveryLogLine(r: DeliveryRecord): string {
  // Only a verified delivery is a duplicate (the receiver verifies before it deduplicates).
  const outcome = r.verified
    ? r.duplicate
      ? vscode.l10n.t('verified (duplicate)')
      : vscode.l10n.t('verified')
    : r.status >= 500
      ? vscode.l10n.t('not verified yet (the service sends it again)')
      : vscode.l10n.t('refused');
  if (r.topic)
    return vscode.l10n.t('Webhook {0} {1} → {2} {3} topic {4}', r.method, r.path, r.status, outcome, r.topic);
  if (r.unsigned?.topic)
    return vscode.l10n.t(
      'Webhook {0} {1} → {2} {3} topic {4} (unsigned)',
      r.method,
      r.path,
      r.status,
      outcome,
      r.unsigned.topic,
    );
  return vscode.l10n.t('Webhook {0} {1} → {2} {3}', r.method, r.path, r.status, outcome);
}

/** The session's events, said in the log and passed to the views. */
export function renderReceiverEvents(
  session: ReceiverSession,
  output: ExtensionLog,
  to: { delivered(r: DeliveryRecord): void; verified(r: DeliveryRecord): void; changed(): void },
): void {
  session.on('delivery', (r) => {
    linkDerivedDelivery(r);
    output.info(deliveryLogLine(r));
    to.delivered(r);
  });
  session.on('verified-event', (r) => to.verified(r));
  session.on('failure', (r) =>
    output.error(
      vscode.l10n.t(
        'Webhook {0} {1} answered 500: {2}',
        r.method,
        r.path,
        r.noteSaid ? inUserWords(r.noteSaid) : (r.note ?? ''),
      ),
    ),
  );
  session.on('started', ({ url }) => output.info(vscode.l10n.t('Receiver listening at {0}', url)));
  session.on('tunnel', () => to.changed());
  // After PublicAddressSelfTest kept the result (its listener is older): a rerun after a reconnection shows too.
  session.on('self-test', () => to.changed());
  session.on('public-path', (c) => {
    if (c.state === 'not-reaching')
      output.warn(
        vscode.l10n.t('Public address {0} not reaching the receiver: {1}', c.publicUrl, pathDetailWords(c.result)),
      );
    else if (c.state === 'reaching')
      output.info(
        vscode.l10n.t('Public address {0} reaches the receiver: {1}', c.publicUrl, pathDetailWords(c.result)),
      );
    else
      output.info(
        vscode.l10n.t('The machine woke after {0} s: checking the public address now', Math.round(c.sleptMs / 1000)),
      );
    to.changed();
  });
  session.on('public-address-changed', (c) => output.warn(vscode.l10n.t('Public address: {0}', inUserWords(c.said))));
  session.on('endpoint-warning', (m, s) => output.warn(s ? inUserWords(s) : m));
  session.on('warning', (m, s) => output.warn(s ? inUserWords(s) : m));
}

/** The running receiver as the views show it; undefined while it is stopped. */
export function receiverInfo(
  session: ReceiverSession,
  address: { source: PublicAddressSource; note?: string; changedFrom?: string },
  selfTest: PublicAddressTestResult | undefined,
): ReceiverInfo | undefined {
  if (!session.url) return undefined;
  return {
    localUrl: session.url,
    publicUrl: session.publicUrl,
    publicSource: address.source,
    publicNote: address.note,
    tunnelState: session.tunnelState,
    publicPath: session.publicPathState,
    selfTest,
    publicChangedFrom: address.changedFrom,
    passThrough: session.forwarder?.passThrough,
    forwardRules: session.forwarder?.options.rules.length,
  };
}
