// Issue #79, item 7: the test kit's buildEvent fills a workflow event's data as the sandbox does, so a handler tested
// with it reads workflowId, runId and status rather than undefined; the data given is laid over that, key by key.
import assert from 'node:assert/strict';
import { SANDBOX_PRODUCTS, STAGED_SESSION_ID } from '../../../src/core/sandbox/sandboxSeed';
import { SandboxWorkflows } from '../../../src/core/sandbox/sandboxWorkflows';
import { buildEvent } from '../../../src/testkit/buildEvent';
import { ManualClock } from '../helpers/manualClock';

describe('test kit: buildEvent data', () => {
  it("a workflow event carries the fields of the sandbox's event of that topic, with the status it says then", () => {
    const sent: { topic: string; data: Record<string, unknown> }[] = [];
    const w = new SandboxWorkflows(new ManualClock(0), 1000, (e) => sent.push(e as never));
    const session = w.sessions.get(STAGED_SESSION_ID)!;
    w.finish(w.start(session, SANDBOX_PRODUCTS[0]!, undefined as never, 'demo').workflowId, 'complete');
    w.finish(w.start(session, SANDBOX_PRODUCTS[0]!, undefined as never, 'demo').workflowId, 'failed');
    w.finish(w.start(session, SANDBOX_PRODUCTS[0]!, undefined as never, 'demo').workflowId, 'cancelled');
    const topics = new Set(sent.map((e) => e.topic));
    assert.deepEqual([...topics].sort(), [
      'workflow/cancelled',
      'workflow/completed',
      'workflow/failed',
      'workflow/started',
    ]);
    for (const real of sent) {
      const built = buildEvent(real.topic).data;
      assert.deepEqual(Object.keys(built).sort(), Object.keys(real.data).sort(), real.topic);
      assert.equal(built.status, real.data.status, real.topic);
      assert.match(String(built.workflowId), /^wf_/);
      assert.match(String(built.runId), /^wfrun_/);
    }
  });

  it('data given is laid over the topic’s own; another topic’s data is what is given', () => {
    const e = buildEvent('workflow/completed', { data: { runId: 'wfrun_42', extra: 1 } });
    assert.equal(e.data.runId, 'wfrun_42');
    assert.equal(e.data.extra, 1);
    assert.match(String(e.data.workflowId), /^wf_/);
    assert.notEqual(buildEvent('workflow/started').data.runId, buildEvent('workflow/started').data.runId);
    assert.deepEqual(buildEvent('orders/created').data, {});
    assert.deepEqual(buildEvent('orders/created', { data: { a: 1 } }).data, { a: 1 });
  });
});
