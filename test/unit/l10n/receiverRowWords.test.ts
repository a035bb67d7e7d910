// The Deliveries row (label for a screen reader, tooltip) and the receiver's status bar item are whole messages, one
// per combination of their optional parts: in English they read as before, and through the pseudo-locale bundle no
// English of ours is left once the values (topic, addresses, time, status) are taken out, in every combination.
import { wordWith, type StandInStatusBarItem } from '../helpers/vscodeL10n';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { said } from '../../../src/core/presentation/said';
import { refusedChecks, StepFailed } from '../../../src/core/webhooks/verificationSteps';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import type { ReceiverHost, ReceiverInfo } from '../../../src/extension/receiver/receiverHost';
import { deliveryTreeItem } from '../../../src/extension/receiver/deliveryTreeItem';
import { ReceiverStatusBar } from '../../../src/extension/statusBar/receiverStatusBar';
import { plainLetters, pseudoLocalize } from './pseudoLocale';

const ROOT = join(__dirname, '../../../..');
const TOPIC = 'workflow/completed';
const AT = '2026-11-22T10:00:01.000Z';
const APP = 'http://127.0.0.1:3000/hooks';

function record(over: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: 'd1',
    receivedAt: AT,
    method: 'POST',
    path: '/webhooks',
    headers: {},
    body: { size: 2, sha256: 'ab'.repeat(32), kept: 2, utf8: true },
    checks: [1, 2, 3, 4, 5, 6, 7].map((step) => ({ step, name: `s${step}`, ok: true, detail: 'ok' })),
    verified: true,
    status: 200,
    durationMs: 1,
    duplicate: false,
    topic: TOPIC,
    ...over,
  };
}

const failedForward = { target: APP, status: 502, latencyMs: 3, rules: ['r1'] };
const refused = {
  verified: false,
  status: 401,
  checks: refusedChecks(new StepFailed(1, said('no Authorization header'))),
};

/** Each combination of the row's optional parts: duplicate, forward failed, refused, no topic. */
const ROWS: Record<string, Partial<DeliveryRecord>> = {
  plain: {},
  duplicate: { duplicate: true },
  'forward failed': { forwards: [failedForward] },
  'duplicate, forward failed': { duplicate: true, forwards: [failedForward] },
  refused,
  'refused, forward failed, no topic': { ...refused, topic: undefined, forwards: [failedForward] },
};

function row(over: Partial<DeliveryRecord>): { label: string; tooltip: string; description: string } {
  const item = deliveryTreeItem(record(over), 'x');
  return {
    label: item.accessibilityInformation!.label,
    tooltip: String(item.tooltip),
    description: String(item.description),
  };
}

function statusBar(info: Partial<ReceiverInfo>): StandInStatusBarItem {
  const host = {
    info: { localUrl: 'http://127.0.0.1:4000', publicSource: 'localtunnel', tunnelState: 'closed', ...info },
    onDidChange: () => ({ dispose: () => undefined }),
  } as unknown as ReceiverHost;
  const bar = new ReceiverStatusBar(host);
  const item = (bar as unknown as { item: StandInStatusBarItem }).item;
  bar.dispose();
  return item;
}

const BARS: Record<string, Partial<ReceiverInfo>> = {
  'loopback only': {},
  'tunnel open': { publicUrl: 'https://quiet-fox.loca.lt', tunnelState: 'open' },
  'tunnel reconnecting': { publicUrl: 'https://quiet-fox.loca.lt', tunnelState: 'reconnecting' },
};

/** What is left of ours once the values shown are taken out: empty when every word came from the bundle. */
function oursLeft(shown: string, values: string[]): string {
  let rest = shown;
  for (const v of [...values].sort((a, b) => b.length - a.length)) rest = rest.split(v).join(' ');
  return plainLetters(rest);
}

const VALUES = [TOPIC, AT, APP, 'https://quiet-fox.loca.lt', 'http://127.0.0.1:4000', '$(radio-tower)'];

describe('l10n: the Deliveries row and the receiver status bar are whole messages', () => {
  afterEach(() => wordWith(undefined));

  it('in English, each combination reads as before', () => {
    assert.deepEqual(Object.fromEntries(Object.entries(ROWS).map(([k, over]) => [k, row(over).label])), {
      plain: `Webhook ${TOPIC}, verified, answered 200`,
      duplicate: `Webhook ${TOPIC}, verified, answered 200, duplicate`,
      'forward failed': `Webhook ${TOPIC}, verified, answered 200, forward failed (1)`,
      'duplicate, forward failed': `Webhook ${TOPIC}, verified, answered 200, duplicate, forward failed (1)`,
      refused: `Webhook ${TOPIC}, refused at step 1: bearer token, answered 401`,
      'refused, forward failed, no topic':
        'Webhook without a topic, refused at step 1: bearer token, answered 401, forward failed (1)',
    });
    assert.equal(
      row(ROWS['duplicate, forward failed']!).tooltip,
      `Webhook ${TOPIC} received ${AT}, answered 200 (duplicate). Forward to ${APP} failed: answered 502. Click to open it in the webhook panel.`,
    );
    assert.equal(
      row(ROWS['refused, forward failed, no topic']!).tooltip,
      `Webhook received ${AT}, answered 401. Refused at step 1 (bearer token): no Authorization header. Forward to ${APP} failed: answered 502. Click to open it in the webhook panel.`,
    );
    assert.equal(
      row(refused).tooltip,
      `Webhook ${TOPIC} received ${AT}, answered 401. Refused at step 1 (bearer token): no Authorization header. Click to open it in the webhook panel.`,
    );
    const open = statusBar(BARS['tunnel open']!);
    assert.equal(open.text, '$(radio-tower) Receiver · tunnel open');
    assert.equal(
      open.tooltip,
      'Webhook receiver\nLocal: http://127.0.0.1:4000\nPublic: https://quiet-fox.loca.lt\nTunnel: open\nClick to copy the public URL.',
    );
    assert.equal(
      open.accessibilityInformation!.label,
      'Webhook receiver running at https://quiet-fox.loca.lt, tunnel open',
    );
    const loopback = statusBar(BARS['loopback only']!);
    assert.equal(loopback.text, '$(radio-tower) Receiver');
    assert.equal(
      loopback.tooltip,
      'Webhook receiver\nLocal: http://127.0.0.1:4000\nTunnel: closed\nClick to copy the local URL.',
    );
    assert.equal(loopback.accessibilityInformation!.label, 'Webhook receiver running at http://127.0.0.1:4000');
    assert.equal(statusBar(BARS['tunnel reconnecting']!).text, '$(debug-disconnect) Receiver · tunnel reconnecting');
  });

  it('through the pseudo-locale bundle, no English of ours is left in any combination', () => {
    const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, string>;
    wordWith(Object.fromEntries(Object.keys(bundle).map((k) => [k, pseudoLocalize(k)])));
    for (const [combination, over] of Object.entries(ROWS)) {
      const shown = row(over);
      for (const [what, text] of Object.entries(shown)) {
        assert.equal(oursLeft(text, [...VALUES, AT.slice(11, 19)]), '', `${combination} ${what}: ${text}`);
        assert.ok(text.startsWith('[') || what === 'description', `${combination} ${what} is worded: ${text}`);
      }
    }
    for (const [combination, info] of Object.entries(BARS)) {
      const item = statusBar(info);
      for (const [what, text] of [
        ['text', item.text],
        ['tooltip', String(item.tooltip)],
        ['label', item.accessibilityInformation!.label],
      ] as const) {
        assert.equal(oursLeft(text, VALUES), '', `${combination} ${what}: ${text}`);
        assert.ok(text.startsWith('['), `${combination} ${what} is worded: ${text}`);
      }
    }
  });
});
