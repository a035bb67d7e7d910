// #76 item 1: delivery faults, as a user meets them. A `wfs sandbox` given `duplicate` and `reorder` faults with a
// fixed seed (through `wfs sandbox fault`) delivers a workflow's events to `wfs listen --trust-sandbox` exactly as
// the planner says: completed before started, one event twice with its webhookId, each delivery verified and
// carrying the sandbox's mark. Two sandboxes with the same seed deliver the same sequence.
import assert from 'node:assert/strict';
import { planDeliveries } from '../../src/core/sandbox/deliveryPlan';
import { startArgs } from './helpers/commandArgs';
import { startSandboxProcess, WfsProcess, type Line } from './helpers/wfsProcess';

const SEED = 42;
const TOPICS = ['workflow/started', 'workflow/completed'];

/** What one delivery showed at `wfs listen`: its topic and the sandbox's note, the duplicated id named by topic. */
interface Seen {
  topic: string;
  note: string;
}

async function wfs(args: string[], env: Record<string, string>): Promise<Line> {
  const p = new WfsProcess(args, env);
  assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
  return p.lines.at(-1)!;
}

/** One sandbox with the faults, one listener, one workflow: the deliveries in the order they arrived. */
async function runOnce(): Promise<{ seen: Seen[]; deliveries: Line[] }> {
  const s = await startSandboxProcess(['--workflow-duration', '300ms']);
  try {
    const env = { WFS_BASE_URL: s.info.baseUrl, WFS_SANDBOX_SECRET: s.info.controlSecret };
    await wfs(['sandbox', 'fault', 'duplicate', '--count', '1', '--seed', String(SEED)], env);
    const set = await wfs(['sandbox', 'fault', 'reorder', '--to', 'workflow'], env);
    assert.deepEqual(set.delivery, {
      seed: SEED,
      to: 'workflow',
      duplicate: { copies: 1, freshToken: false },
      reorder: true,
    });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl], s.env);
    await listen.event('ready');
    const start = new WfsProcess(startArgs(s), s.env);
    assert.equal(await start.exitCode(), 0, start.stdout + start.stderr);
    // Three deliveries are planned (two events, one copy): the sandbox prints an attempt line for each answer.
    await s.proc.line(() => s.proc.events('webhook').length >= 3, 'three webhook attempts');
    await listen.line(() => listen.events('delivery').length >= 3, 'three deliveries');
    await listen.stopCleanly('SIGINT');
    const deliveries = listen.events('delivery');
    assert.equal(s.proc.events('webhook').length, 3, 'no delivery beyond the plan');
    const byId = new Map(deliveries.map((d) => [d.webhookId, d.topic]));
    const seen = deliveries.map((d) => ({
      topic: d.topic,
      note: String(d.sandboxFault?.text ?? '').replace(
        /duplicate of \S+/,
        (m) => `duplicate of ${byId.get(m.slice(13))}`,
      ),
    }));
    return { seen, deliveries };
  } finally {
    await s.stop();
  }
}

describe('delivery faults: a seeded sandbox delivers to wfs listen as the fault says', function () {
  this.timeout(60_000);

  it('duplicate and reorder with seed 42: the planned sequence, verified and marked, twice the same', async () => {
    // What the planner says for a workflow's two events (started, completed) under these faults: the same core
    // function the sandbox runs, so the test reads what "as the fault says" means.
    const plan = planDeliveries(
      TOPICS.map((t) => ({ webhookId: t })),
      { seed: SEED, to: 'workflow', duplicate: { copies: 1, freshToken: false }, reorder: true },
      0,
    );
    const expected = plan.map((p) => ({
      topic: TOPICS[p.event]!,
      note: [
        p.mark.duplicateOf ? `duplicate of ${p.mark.duplicateOf} (same token)` : '',
        p.mark.reordered ? 'reordered' : '',
      ]
        .filter(Boolean)
        .join(', '),
    }));
    const first = await runOnce();
    assert.deepEqual(first.seen, expected);
    // As the faults say: completed before started, and exactly one event twice, with its webhookId.
    assert.ok(
      first.seen.findIndex((d) => d.topic === 'workflow/completed') <
        first.seen.findIndex((d) => d.topic === 'workflow/started'),
    );
    const ids = first.deliveries.map((d) => d.webhookId);
    assert.equal(new Set(ids).size, 2);
    for (const d of first.deliveries) {
      assert.deepEqual([d.status, d.verified], [200, true], JSON.stringify(d));
      assert.ok(d.sandboxFault?.text, 'every delivery carries its mark');
    }
    const copy = first.deliveries.find((d) => d.sandboxFault?.duplicateOf)!;
    assert.equal(copy.sandboxFault.duplicateOf, copy.webhookId);
    assert.equal(copy.duplicate, true, 'the receiver saw the copy as a duplicate of one it acknowledged');
    const second = await runOnce();
    assert.deepEqual(second.seen, first.seen);
  });
});
