// RateGate: the one throttle every request to a service waits on (spec: Limits, "Rate throttle" counts every
// endpoint; docs/design.md). Driven by a ManualClock: nothing here waits on wall time.
import assert from 'node:assert/strict';
import { RateGate } from '../../../src/core/http/rateGate';
import { ManualClock } from '../helpers/manualClock';

const policy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 8000 };

function settledFlag(p: Promise<unknown>): () => boolean {
  let done = false;
  void p.then(() => (done = true));
  return () => done;
}

describe('RateGate', () => {
  let clock: ManualClock;
  let gate: RateGate;
  beforeEach(() => {
    clock = new ManualClock();
    gate = new RateGate(clock, policy, () => 0.5);
  });

  it('is open until a 429: wait() resolves without a timer', async () => {
    assert.equal(gate.remainingMs, 0);
    await gate.wait();
    assert.equal(clock.pendingCount, 0);
  });

  it('a 429 closes it for the jittered base delay; waiters are released exactly when it passes', async () => {
    assert.equal(gate.throttled(clock.now()), 750);
    const released = settledFlag(gate.wait());
    await clock.advanceAsync(749);
    assert.equal(released(), false, 'still closed 1 ms before');
    await clock.advanceAsync(1);
    assert.equal(released(), true);
    assert.equal(gate.remainingMs, 0);
  });

  it('each new 429 episode doubles the delay, up to the cap; an answer that is not 429 starts again from the base', () => {
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      delays.push(gate.throttled(clock.now()));
      clock.advance(delays[i]);
    }
    assert.deepEqual(delays, [750, 1500, 3000, 6000, 6000, 6000]);
    gate.passed();
    assert.equal(gate.throttled(clock.now()), 750);
  });

  it('429s to requests already in flight when the backoff began join it without lengthening it', () => {
    const sentEarlier = clock.now();
    clock.advance(10);
    assert.equal(gate.throttled(clock.now()), 750);
    clock.advance(5);
    assert.equal(gate.throttled(sentEarlier), 745, 'the same episode: the remaining wait, not a doubled one');
    clock.advance(745);
    assert.equal(
      gate.throttled(clock.now()),
      1500,
      'a request sent after the backoff began and refused again is a new episode',
    );
  });
});
