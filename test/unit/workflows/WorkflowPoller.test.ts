import assert from 'node:assert/strict';
import { NotFound } from '../../../src/core/http/serviceErrors';
import { ManualClock } from '../helpers/manualClock';
import { WorkflowPoller, type PollOutcome } from '../../../src/core/workflows/WorkflowPoller';
import { pollTimes } from '../helpers/pollTimes';
import type { WorkflowEnvelope } from '../../../src/core/workflows/workflowTypes';

function env(id: string, status: string): WorkflowEnvelope {
  return {
    workflow: {
      workflowId: id,
      runId: 'r',
      status,
      sessionId: 's',
      product: { service: 'A', model: 'B' },
      productType: 'A',
      productName: 'A',
    },
  };
}

describe('WorkflowPoller', () => {
  let clock: ManualClock;
  let readsAt: { id: string; t: number }[];
  let outcomes: { id: string; o: PollOutcome }[];
  let statusOf: Map<string, string>;
  let failWith: Map<string, Error>;
  let poller: WorkflowPoller;
  let t0: number;

  beforeEach(() => {
    clock = new ManualClock();
    t0 = clock.now();
    readsAt = [];
    outcomes = [];
    statusOf = new Map();
    failWith = new Map();
    poller = new WorkflowPoller({
      clock,
      deadlineMs: 10 * 60_000,
      read: async (id) => {
        readsAt.push({ id, t: clock.now() - t0 });
        const e = failWith.get(id);
        if (e) throw e;
        return env(id, statusOf.get(id) ?? 'processing');
      },
      onOutcome: (id, o) => outcomes.push({ id, o }),
    });
  });
  afterEach(() => poller.dispose());

  it('reads one workflow exactly at the schedule until the deadline, then says so', async () => {
    poller.follow('w1', t0);
    await clock.advanceAsync(10 * 60_000 + 1);
    assert.deepEqual(
      readsAt.map((r) => r.t),
      pollTimes(10 * 60_000),
    );
    assert.deepEqual(outcomes.at(-1), { id: 'w1', o: { kind: 'stopped', reason: 'deadline' } });
    assert.deepEqual(poller.followedIds, []);
  });

  it('stops at a terminal status', async () => {
    poller.follow('w1', t0);
    await clock.advanceAsync(2000);
    statusOf.set('w1', 'complete');
    await clock.advanceAsync(2000);
    await clock.advanceAsync(60_000);
    assert.deepEqual(
      readsAt.map((r) => r.t),
      [2000, 4000],
    );
    assert.deepEqual(outcomes.at(-1)!.o, { kind: 'stopped', reason: 'terminal' });
  });

  it('pausing stops reads; resuming reads what fell due, then keeps the schedule', async () => {
    poller.follow('w1', t0);
    await clock.advanceAsync(2000);
    poller.pause();
    await clock.advanceAsync(30_000);
    assert.equal(readsAt.length, 1, 'no reads while paused');
    poller.resume();
    await clock.advanceAsync(0);
    assert.deepEqual(
      readsAt.map((r) => r.t),
      [2000, 32_000],
    );
    await clock.advanceAsync(5000);
    assert.deepEqual(
      readsAt.map((r) => r.t),
      [2000, 32_000, 37_000],
      'the third check comes 5 s after the second',
    );
  });

  it('a remembered workflow joins the schedule where elapsed time puts it', async () => {
    await clock.advanceAsync(60_000);
    poller.follow('old', t0);
    await clock.advanceAsync(10_000);
    assert.deepEqual(
      readsAt.map((r) => r.t),
      [69_000],
      'checks at 2,4,9,19,…,59,69 s: the next one is at 69 s',
    );
  });

  it('a not-found read stops polling that workflow; a dropped connection does not', async () => {
    poller.follow('gone', t0);
    poller.follow('flaky', t0);
    failWith.set('gone', new NotFound('not-found', 'gone'));
    failWith.set('flaky', Object.assign(new Error('socket hang up'), { kind: 'transport' }));
    await clock.advanceAsync(4000);
    assert.deepEqual(
      readsAt.map((r) => r.id),
      ['gone', 'flaky', 'flaky'],
    );
    const gone = outcomes.filter((o) => o.id === 'gone').map((o) => o.o);
    // A final read error is its own outcome: never announced as transient ("polling goes on") before the stop.
    assert.deepEqual(
      gone.map((o) => o.kind),
      ['stopped'],
    );
    assert.equal(gone[0]!.kind === 'stopped' && gone[0]!.reason, 'error');
    assert.equal(outcomes.filter((o) => o.id === 'flaky')[0]!.o.kind, 'transient-error');
    assert.deepEqual(poller.followedIds, ['flaky']);
  });

  it('reads one workflow at a time, however many are due', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let reads = 0;
    const p = new WorkflowPoller({
      clock,
      read: async (id) => {
        reads++;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return env(id, 'processing');
      },
      onOutcome: () => {},
    });
    for (let i = 0; i < 20; i++) p.follow(`w${i}`, t0);
    await clock.advanceAsync(2000);
    for (let i = 0; i < 100 && reads < 20; i++) await clock.advanceAsync(0);
    assert.equal(reads, 20);
    assert.equal(maxInFlight, 1);
    p.dispose();
  });

  it('refreshSoon reads at once, and the schedule goes on from there', async () => {
    poller.follow('w1', t0);
    await clock.advanceAsync(500);
    poller.refreshSoon('w1');
    await clock.advanceAsync(0);
    assert.deepEqual(
      readsAt.map((r) => r.t),
      [500],
    );
    await clock.advanceAsync(2000);
    assert.deepEqual(
      readsAt.map((r) => r.t),
      [500, 2500],
    );
  });
});
