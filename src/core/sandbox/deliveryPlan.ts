// The plan of a group of events (one workflow run's events, or one test webhook) under delivery faults: which
// delivery goes when, in what order, how often, and the mark each carries. A pure function of the events' ids, the
// setting and the group's ordinal: the same seed gives the same plan (test/unit/sandbox/deliveryPlan.test.ts). The
// sandbox and the test kit's scenario() both run it.
import type { SandboxFaultMark } from '../webhooks/sandboxFaultMark';
import type { DeliveryFaults } from './deliveryFaults';
import { groupSeed, SeededRandom } from './seededRandom';

export interface PlannedDelivery {
  /** Index of the event in the group. */
  event: number;
  /** Wait before sending it, after the delivery before it was answered. */
  delayMs: number;
  /** Sent at the same moment as the delivery before it (a burst), not after its answer. */
  together: boolean;
  /** A token of its own rather than the first delivery's of its event. */
  freshToken: boolean;
  mark: SandboxFaultMark;
}

interface Step {
  event: number;
  copy: boolean;
}

/** The order of the events: their own, or (reorder) a seeded permutation that always differs from it. */
function order(count: number, f: DeliveryFaults, rng: SeededRandom): number[] {
  const out = Array.from({ length: count }, (_, i) => i);
  if (!f.reorder || count < 2) return out;
  for (let i = count - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  if (out.every((e, i) => e === i)) out.push(out.shift()!);
  return out;
}

/** Copies inserted each at a seeded place after the delivery it repeats. */
function withCopies(steps: Step[], count: number, f: DeliveryFaults, rng: SeededRandom): Step[] {
  const out = [...steps];
  for (let c = 0; c < (f.duplicate?.copies ?? 0); c++) {
    const event = rng.below(count);
    const first = out.findIndex((s) => s.event === event);
    out.splice(rng.between(first + 1, out.length), 0, { event, copy: true });
  }
  return out;
}

export function planDeliveries(
  events: readonly { webhookId: string }[],
  f: DeliveryFaults,
  ordinal: number,
): PlannedDelivery[] {
  const rng = new SeededRandom(groupSeed(f.seed, ordinal));
  const ordered = order(events.length, f, rng);
  const steps = withCopies(
    ordered.map((event) => ({ event, copy: false })),
    events.length,
    f,
    rng,
  );
  const burst = f.burst?.count ?? 1;
  const out: PlannedDelivery[] = [];
  for (const s of steps) {
    const delayMs = f.delay ? rng.between(f.delay.minMs, f.delay.maxMs) : 0;
    const mark: SandboxFaultMark = {};
    if (s.copy) mark.duplicateOf = events[s.event]!.webhookId;
    if (s.copy && f.duplicate?.freshToken) mark.freshToken = true;
    if (!s.copy && ordered.indexOf(s.event) !== s.event) mark.reordered = true;
    if (f.delay) mark.delayedMs = delayMs;
    for (let n = 1; n <= burst; n++)
      out.push({
        event: s.event,
        delayMs: n === 1 ? delayMs : 0,
        together: n > 1,
        freshToken: s.copy && f.duplicate?.freshToken === true,
        mark: burst > 1 ? { ...mark, burst: { n, of: burst } } : mark,
      });
  }
  return out;
}
