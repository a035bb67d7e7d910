// The delivery-fault planner: the same seed gives the same plan, every event is delivered at least once, copies keep
// their event's webhookId, a reorder always changes the order, delays stay in their range, and a burst sends its
// copies together. The mark each delivery carries reads back from its header as it was planned.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { planDeliveries } from '../../../src/core/sandbox/deliveryPlan';
import {
  deliveryFaultsFromJson,
  withDeliveryFault,
  type DeliveryFaults,
} from '../../../src/core/sandbox/deliveryFaults';
import { SeededRandom } from '../../../src/core/sandbox/seededRandom';
import { faultMarkHeader, faultMarkText, parseFaultMark } from '../../../src/core/webhooks/sandboxFaultMark';

const RUNS = { numRuns: 200, seed: 1 };

const faults: fc.Arbitrary<DeliveryFaults> = fc.record({
  seed: fc.nat({ max: 0xffff_ffff }),
  to: fc.constant('all' as const),
  duplicate: fc.option(fc.record({ copies: fc.integer({ min: 1, max: 10 }), freshToken: fc.boolean() }), {
    nil: undefined,
  }),
  reorder: fc.option(fc.constant(true), { nil: undefined }),
  delay: fc.option(
    fc.tuple(fc.nat({ max: 60_000 }), fc.nat({ max: 60_000 })).map(([a, b]) => ({
      minMs: Math.min(a, b),
      maxMs: Math.max(a, b),
    })),
    { nil: undefined },
  ),
  burst: fc.option(fc.record({ count: fc.integer({ min: 2, max: 6 }) }), { nil: undefined }),
});

const events = fc
  .integer({ min: 1, max: 6 })
  .map((n) => Array.from({ length: n }, (_, i) => ({ webhookId: `wh-${i}` })));

describe('delivery-fault planner', () => {
  it('the same seed, events and ordinal give the same plan', () => {
    fc.assert(
      fc.property(events, faults, fc.nat({ max: 1000 }), (evs, f, ordinal) => {
        assert.deepEqual(planDeliveries(evs, f, ordinal), planDeliveries(evs, f, ordinal));
      }),
      RUNS,
    );
  });

  it('every event is delivered at least once; copies keep their webhookId; counts add up', () => {
    fc.assert(
      fc.property(events, faults, fc.nat({ max: 1000 }), (evs, f, ordinal) => {
        const plan = planDeliveries(evs, f, ordinal);
        for (let e = 0; e < evs.length; e++) assert.ok(plan.some((p) => p.event === e && !p.mark.duplicateOf));
        for (const p of plan) if (p.mark.duplicateOf) assert.equal(p.mark.duplicateOf, evs[p.event]!.webhookId);
        const copies = f.duplicate?.copies ?? 0;
        assert.equal(plan.length, (evs.length + copies) * (f.burst?.count ?? 1));
        // A copy comes after the first delivery of its event.
        for (const [i, p] of plan.entries())
          if (p.mark.duplicateOf) assert.ok(plan.findIndex((q) => q.event === p.event) < i);
      }),
      RUNS,
    );
  });

  it('reorder always sends a group of two or more in another order, and marks the events that moved', () => {
    fc.assert(
      fc.property(events, faults, (evs, f) => {
        const plan = planDeliveries(evs, { ...f, reorder: true, burst: undefined, duplicate: undefined }, 0);
        const order = plan.map((p) => p.event);
        if (evs.length >= 2)
          assert.notDeepEqual(
            order,
            order.slice().sort((a, b) => a - b),
          );
        for (const [i, p] of plan.entries()) assert.equal(p.mark.reordered === true, p.event !== i);
      }),
      RUNS,
    );
  });

  it('delays stay within their range and are marked; burst copies go together, marked n of N', () => {
    fc.assert(
      fc.property(events, faults, (evs, f) => {
        for (const p of planDeliveries(evs, f, 3)) {
          if (f.delay && !p.together) {
            assert.ok(p.delayMs >= f.delay.minMs && p.delayMs <= f.delay.maxMs);
            assert.equal(p.mark.delayedMs, p.delayMs);
          } else if (!f.delay) assert.equal(p.delayMs, 0);
          if (f.burst) assert.equal(p.together, p.mark.burst!.n > 1);
          else assert.equal(p.together, false);
        }
      }),
      RUNS,
    );
  });

  it('a copy with a fresh token says so; without, it keeps the original token', () => {
    const evs = [{ webhookId: 'a' }, { webhookId: 'b' }];
    for (const freshToken of [true, false]) {
      const plan = planDeliveries(evs, { seed: 5, to: 'all', duplicate: { copies: 2, freshToken } }, 0);
      const copies = plan.filter((p) => p.mark.duplicateOf);
      assert.equal(copies.length, 2);
      for (const c of copies) assert.equal(c.freshToken, freshToken);
      for (const p of plan.filter((q) => !q.mark.duplicateOf)) assert.equal(p.freshToken, false);
    }
  });

  it('a seed gives a known sequence on every machine', () => {
    const r = new SeededRandom(42);
    assert.deepEqual([r.below(100), r.below(100), r.below(100)], [60, 44, 85]);
  });
});

describe('the sandbox fault mark', () => {
  it('reads back from its header as it was planned, for every plan', () => {
    fc.assert(
      fc.property(events, faults, (evs, f) => {
        for (const p of planDeliveries(evs, f, 0)) {
          const header = faultMarkHeader(p.mark);
          assert.deepEqual(header === undefined ? undefined : parseFaultMark(header), header ? p.mark : undefined);
        }
      }),
      RUNS,
    );
  });

  it('says in words what was done; unknown parts and oversized values are not read', () => {
    const mark = parseFaultMark('duplicate-of=5edd; reordered; delayed-ms=2100; retry=2/5; burst=3/5; later=x');
    assert.equal(
      faultMarkText(mark!),
      'duplicate of 5edd (same token), reordered, delayed 2.1 s, retry 2 of 5, burst 3 of 5',
    );
    assert.equal(parseFaultMark('duplicate-of=<script>'), undefined);
    // An id that is not plain never reaches the header as it is (no part, no line break can be slipped in).
    assert.equal(faultMarkHeader({ duplicateOf: 'x; reordered\r\nx-evil: 1' }), 'duplicate-of=unnamed');
    assert.equal(parseFaultMark('reordered; ' + 'x'.repeat(600)), undefined);
    assert.equal(parseFaultMark('\u001b[31mreordered'), undefined);
  });
});

describe('delivery fault settings', () => {
  it('each kind laid over the last; a bad option is named; a profile entry reads the same way', () => {
    let f = withDeliveryFault(undefined, { fault: 'duplicate', count: 2, seed: 7 });
    f = withDeliveryFault(f, { fault: 'delay', delayMs: 100, maxDelayMs: 300 });
    assert.deepEqual(f, {
      seed: 7,
      to: 'all',
      duplicate: { copies: 2, freshToken: false },
      delay: { minMs: 100, maxMs: 300 },
    });
    assert.throws(() => withDeliveryFault(f, { fault: 'burst', count: 1 }), /count must be an integer from 2 to 50/);
    assert.throws(() => withDeliveryFault(f, { fault: 'reorder', count: 3 }), /count applies only to duplicate/);
    assert.throws(() => withDeliveryFault(f, { fault: 'delay' }), /delay needs delayMs/);
    assert.throws(() => withDeliveryFault(f, { fault: 'reorder', to: 'elsewhere' }), /to must be one of all/);
    assert.deepEqual(
      deliveryFaultsFromJson({ seed: 7, duplicate: { count: 2 }, delay: { delayMs: 100, maxDelayMs: 300 } }),
      f,
    );
    assert.throws(() => deliveryFaultsFromJson({ seed: 7, dupliate: true }), /"dupliate" is not a delivery fault/);
    assert.throws(() => deliveryFaultsFromJson({ seed: 7 }), /names no fault/);
  });
});
