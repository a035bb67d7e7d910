// The sandbox's fault words (the mark a delivery carries, the fault setting) are core's Saids: English for the CLI,
// the test kit and `wfs listen --json`, worded through the bundle in the extension's panel and notifications.
import assert from 'node:assert/strict';
import { english, worded } from '../../../src/core/presentation/said';
import { deliveryFaultsSaid, deliveryFaultsText } from '../../../src/core/sandbox/deliveryFaultsText';
import { faultMarkSaid, faultMarkText } from '../../../src/core/webhooks/sandboxFaultMark';
import { withDeliveryFault } from '../../../src/core/sandbox/deliveryFaults';
import { SaidError } from '../../../src/core/presentation/said';
import { englishLeft } from '../helpers/pseudoWording';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { deliveryRow } from '../../../src/extension/panel/deliveryView';
import { pseudoWording, pseudoWords, withoutValues } from '../helpers/pseudoWording';
import { plainLetters } from '../l10n/pseudoLocale';

const MARK = { duplicateOf: 'w-1', freshToken: true as const, reordered: true as const, delayedMs: 2100 };
const FULL_MARK = { ...MARK, retry: { attempt: 2, of: 5 }, burst: { n: 3, of: 4 } };

describe("l10n: the sandbox's fault words", () => {
  it('the mark in the pseudo-locale has no English of ours; its English is unchanged', () => {
    const shown = worded(faultMarkSaid(FULL_MARK)!, pseudoWording());
    assert.equal(plainLetters(withoutValues(shown, 'w-1')), '', shown);
    assert.equal(
      faultMarkText(FULL_MARK),
      'duplicate of w-1 (fresh token), reordered, delayed 2.1 s, retry 2 of 5, burst 3 of 4',
    );
    assert.equal(faultMarkText({ duplicateOf: 'w-1' }), 'duplicate of w-1 (same token)');
    assert.equal(faultMarkSaid({}), undefined);
    assert.equal(faultMarkText({}), '');
  });

  it("the panel's row words the sandbox's note with the l10n it is given", () => {
    const r = {
      id: 'd1',
      receivedAt: 'x',
      status: 200,
      headers: {},
      checks: [],
      sandboxFault: MARK,
    } as unknown as DeliveryRecord;
    const note = deliveryRow(r, pseudoWords()).sandboxNote!;
    assert.equal(plainLetters(withoutValues(note, 'w-1')), '', note);
    assert.equal(deliveryRow(r).sandboxNote, 'duplicate of w-1 (fresh token), reordered, delayed 2.1 s');
  });

  it('the fault setting in the pseudo-locale has no English of ours; its English is unchanged', () => {
    const setting = {
      seed: 42,
      to: 'workflow' as const,
      duplicate: { copies: 1, freshToken: false },
      reorder: true as const,
      delay: { minMs: 500, maxMs: 2000 },
      retryStorm: { factor: 10 },
      burst: { count: 5 },
    };
    const shown = worded(deliveryFaultsSaid(setting), pseudoWording());
    assert.equal(plainLetters(shown), '', shown);
    assert.equal(
      deliveryFaultsText(setting),
      'duplicate ×1 (original token), reorder, delay 0.5–2 s, retry-storm ÷10, burst ×5; seed 42; to workflow events',
    );
    assert.equal(
      english(deliveryFaultsSaid({ seed: 7, to: 'all', delay: { minMs: 1000, maxMs: 1000 } })),
      'delay 1 s; seed 7; to all deliveries',
    );
  });

  it("a fault request the sandbox refuses names the option in the user's words; its English is unchanged", () => {
    const requests = [
      { fault: 'duplicate' as const, seed: -1 },
      { fault: 'duplicate' as const, to: 'nobody' },
      { fault: 'duplicate' as const, freshToken: 'yes' },
      { fault: 'reorder' as const, freshToken: true },
      { fault: 'reorder' as const, count: 2 },
      { fault: 'delay' as const },
    ];
    for (const r of requests) {
      let caught: unknown;
      try {
        withDeliveryFault(undefined, r);
      } catch (err) {
        caught = err;
      }
      assert.ok(caught instanceof SaidError, String(caught));
      assert.equal((caught as Error).name, 'RangeError');
      assert.equal(englishLeft(caught.said), '', caught.message);
    }
    assert.throws(
      () => withDeliveryFault(undefined, { fault: 'duplicate', seed: -1 }),
      /^RangeError: seed must be an integer from 0 to \d+$/,
    );
  });
});
