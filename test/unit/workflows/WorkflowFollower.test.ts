// WorkflowFollower: one workflow polled on the schedule until it is terminal, its deadline passes, or it is stopped.
import assert from 'node:assert/strict';
import { WorkflowFollower } from '../../../src/core/workflows/WorkflowFollower';
import { ManualClock } from '../helpers/manualClock';
import type { WorkflowEnvelope } from '../../../src/core/workflows/workflowTypes';
import { NotFound, ServiceError } from '../../../src/core/http/serviceErrors';

const envelope = (status: string): WorkflowEnvelope => ({
  workflow: {
    workflowId: 'wf_1',
    runId: 'wfrun_1',
    status,
    sessionId: 's',
    product: { service: 'A', model: 'B' },
    productType: 'A',
    productName: 'B',
  },
});

describe('WorkflowFollower', () => {
  function follower(statuses: (string | Error)[], deadlineMs = 600_000) {
    const clock = new ManualClock(0);
    const readsAt: number[] = [];
    const seen: string[] = [];
    const transient: Error[] = [];
    let i = 0;
    const f = new WorkflowFollower({
      clock,
      deadlineMs,
      read: async () => {
        readsAt.push(clock.now());
        const next = statuses[Math.min(i++, statuses.length - 1)];
        if (next instanceof Error) throw next;
        return envelope(next);
      },
      onRead: (e) => seen.push(e.workflow.status),
      onTransientError: (e) => transient.push(e),
    });
    return { clock, f, readsAt, seen, transient };
  }

  it('reads on the schedule and stops at the first terminal status', async () => {
    const { clock, f, readsAt, seen } = follower(['processing', 'processing', 'processing', 'complete']);
    await clock.advanceAsync(60_000);
    const end = await f.done;
    assert.equal(end.reason, 'terminal');
    assert.deepEqual(readsAt, [2000, 4000, 9000, 19_000]);
    assert.deepEqual(seen, ['processing', 'processing', 'processing', 'complete']);
    assert.equal(clock.pendingCount, 0, 'no timer left behind');
  });

  for (const terminal of ['failed', 'cancelled'])
    it(`treats ${terminal} as terminal`, async () => {
      const { clock, f } = follower([terminal]);
      await clock.advanceAsync(2000);
      assert.equal((await f.done).reason, 'terminal');
    });

  it('stops at the deadline, with the last workflow read', async () => {
    const { clock, f, readsAt } = follower(['processing'], 30_000);
    await clock.advanceAsync(120_000);
    const end = await f.done;
    assert.equal(end.reason, 'deadline');
    assert.deepEqual(readsAt, [2000, 4000, 9000, 19_000, 29_000]);
    assert.equal(end.envelope?.workflow.status, 'processing');
  });

  it('stops on cancel and makes no further reads', async () => {
    const { clock, f, readsAt } = follower(['processing']);
    await clock.advanceAsync(4000);
    f.cancel();
    await clock.advanceAsync(60_000);
    assert.equal((await f.done).reason, 'cancelled');
    assert.equal(readsAt.length, 2);
  });

  it('keeps polling through a transient error, but stops on a final one (404)', async () => {
    const a = follower([new ServiceError('server-error', 'x', { status: 502 }), 'complete']);
    await a.clock.advanceAsync(10_000);
    assert.equal((await a.f.done).reason, 'terminal');
    assert.equal(a.transient.length, 1);
    const b = follower([new NotFound('not-found', 'gone', { status: 404 })]);
    await b.clock.advanceAsync(10_000);
    const end = await b.f.done;
    assert.equal(end.reason, 'error');
    assert.equal(b.readsAt.length, 1);
  });
});
