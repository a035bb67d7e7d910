// The test kit's scenario(): signed deliveries with duplicates, reorderings and delays, planned as the sandbox plans
// its delivery faults. Every delivery verifies; a copy keeps its webhookId and body (and its token, unless fresh);
// the same seed gives the same deliveries; options out of range are refused by name.
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import * as kit from '../../../src/testkit/index';
import { planDeliveries } from '../../../src/core/sandbox/deliveryPlan';

// The kit as its users import it (its published types are rolled up from this source).
const api = kit;

describe('the test kit scenario()', () => {
  it('duplicate and reorder: the planned order, copies with the same webhookId, body and token, marked', async () => {
    const issuer = await api.createTestIssuer();
    const events = [api.buildEvent('workflow/started'), api.buildEvent('workflow/completed')];
    const s = api.scenario({ events, issuer, duplicate: 1, reorder: true, seed: 7 });
    assert.equal(s.seed, 7);
    const got: kit.ScenarioDelivery[] = [];
    for await (const d of s) got.push(d);
    assert.equal(got.length, s.size);
    const plan = planDeliveries(
      events,
      { seed: 7, to: 'all', duplicate: { copies: 1, freshToken: false }, reorder: true },
      0,
    );
    assert.deepEqual(
      got.map((d) => d.index),
      plan.map((p) => p.event),
    );
    assert.notDeepEqual(
      got.filter((d) => !d.mark.duplicateOf).map((d) => d.index),
      [0, 1],
      'reordered',
    );
    const copy = got.find((d) => d.mark.duplicateOf)!;
    const original = got.find((d) => d.index === copy.index && !d.mark.duplicateOf)!;
    assert.equal(copy.webhookId, events[copy.index]!.webhookId);
    assert.ok(copy.body.equals(original.body));
    assert.equal(copy.token, original.token);
    assert.match(copy.headers['x-wfs-sandbox-fault']!, /^duplicate-of=/);
    assert.match(copy.note, /^duplicate of .* \(same token\)/);
    for (const d of got) {
      assert.equal(JSON.parse(d.body.toString('utf8')).webhookId, d.webhookId);
      assert.equal(decodeJwt(d.token).body_sha256 !== undefined, true);
    }
    // The same seed, the same deliveries (tokens aside: each run signs anew).
    const again = await api.scenario({ events, issuer, duplicate: 1, reorder: true, seed: 7 }).deliveries();
    assert.deepEqual(
      again.map((d) => [d.index, d.note]),
      got.map((d) => [d.index, d.note]),
    );
  });

  it('fresh tokens, delays added up into atMs, a burst arriving together', async () => {
    const issuer = await api.createTestIssuer();
    const events = [api.buildEvent('payments/settled')];
    const fresh = await api.scenario({ events, issuer, duplicate: 2, freshToken: true, seed: 1 }).deliveries();
    assert.equal(new Set(fresh.map((d) => d.token)).size, 3);
    const late = await api
      .scenario({ events, issuer, delay: { min: 100, max: 200 }, duplicate: 1, seed: 3 })
      .deliveries();
    let at = 0;
    for (const d of late) {
      assert.ok(d.mark.delayedMs! >= 100 && d.mark.delayedMs! <= 200);
      at += d.mark.delayedMs!;
      assert.equal(d.atMs, at);
    }
    const burst = await api.scenario({ events, issuer, burst: 3, seed: 1 }).deliveries();
    assert.deepEqual(
      burst.map((d) => [d.together, d.note]),
      [
        [false, 'burst 1 of 3'],
        [true, 'burst 2 of 3'],
        [true, 'burst 3 of 3'],
      ],
    );
  });

  it('refuses what it cannot do, naming the option', async () => {
    const issuer = await api.createTestIssuer();
    const events = [api.buildEvent('workflow/started')];
    assert.throws(
      () => api.scenario({ events, issuer, duplicate: 11 }),
      /scenario: duplicate must be an integer from 1 to 10/,
    );
    assert.throws(
      () => api.scenario({ events, issuer, delay: 70_000 }),
      /scenario: delay must be an integer from 0 to 60000/,
    );
    assert.throws(() => api.scenario({ events: [], issuer }), /at least one event/);
    assert.throws(
      () => api.scenario({ events, issuer, freshToken: true }),
      /scenario: freshToken applies only with duplicate/,
    );
  });
});
