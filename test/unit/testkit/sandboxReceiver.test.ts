// startSandbox() and startReceiver() as a test calls them: a workflow started on the sandbox reaches the app through
// the receiver, verified, with the app's answer recorded; the ready information is what `wfs sandbox` and `wfs listen`
// print; a failed wait says what did arrive; close() frees the ports and the sandbox registration; memory is bounded.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as kit from '../../../src/testkit/index';
import { ManualClock } from '../helpers/manualClock';

/** An app that answers every delivery 200 with JSON naming what it got (or `status`). */
async function startApp(status = 200): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      bodies.push(text);
      const event = JSON.parse(text) as { webhookId: string; topic: string };
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ got: event.topic, id: event.webhookId }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function control(sandbox: kit.TestSandbox, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, { headers: { 'x-sandbox-secret': sandbox.controlSecret } });
  assert.equal(res.status, 200);
  return (await res.json()) as Record<string, unknown>;
}

/** Whether a port on 127.0.0.1 can be listened on now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

describe('the test kit: startSandbox() and startReceiver()', function () {
  this.timeout(30_000);

  it("a started workflow's events reach the app verified; its completed event carries the app's answer", async () => {
    const app = await startApp();
    const sandbox = await kit.startSandbox({ workflowDurationMs: 50 });
    const receiver = await kit.startReceiver({ trust: sandbox, forwardTo: app.url });
    try {
      // The ready lines' information.
      assert.match(sandbox.ready.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(sandbox.ready.jwksUrl, `${sandbox.baseUrl}/.well-known/jwks.json`);
      assert.ok(sandbox.ready.kid, 'the key is made before startSandbox resolves, as wfs sandbox does');
      assert.equal(sandbox.ready.controlSecret, sandbox.controlSecret);
      assert.equal(sandbox.port, Number(new URL(sandbox.baseUrl).port));
      assert.deepEqual(receiver.ready, { url: receiver.url, publicUrl: null, issuers: [sandbox.ready.issuer] });
      assert.equal(receiver.url, `http://127.0.0.1:${receiver.port}/webhooks`);
      // Registered with the sandbox, as wfs listen --trust-sandbox is.
      assert.deepEqual((await control(sandbox, '/sandbox/webhooks')).endpoints, [receiver.url]);

      const workflow = await sandbox.startWorkflow();
      assert.equal(workflow.status, 'processing');
      const done = await receiver.next({ topic: 'workflow/completed', timeoutMs: 20_000 });
      assert.equal(done.verified, true);
      assert.deepEqual(
        done.checks.map((c) => [c.step, c.ok]),
        [1, 2, 3, 4, 5, 6, 7].map((s) => [s, true]),
      );
      assert.equal(done.status, 200);
      assert.equal(done.event?.data.workflowId, workflow.workflowId);
      assert.equal(done.runId, workflow.runId);
      assert.equal(done.answer?.status, 200);
      assert.deepEqual(JSON.parse(done.answer!.body), { got: 'workflow/completed', id: done.webhookId });
      // The started event came first, and the iterator gives both in order.
      const started = await receiver.next({ topic: 'workflow/started', timeoutMs: 20_000 });
      const seen: string[] = [];
      for await (const d of receiver.deliveries) {
        seen.push(d.topic!);
        if (seen.length === 2) break;
      }
      assert.deepEqual(seen, ['workflow/started', 'workflow/completed']);
      assert.equal(started.event?.data.workflowId, workflow.workflowId);
      assert.equal(app.bodies.length, 2);
    } finally {
      await receiver.close();
      await sandbox.close();
      await app.close();
    }
  });

  it('close() frees both ports and removes the registration; a second close and asyncDispose are harmless', async () => {
    const sandbox = await kit.startSandbox();
    const receiver = await kit.startReceiver({ trust: sandbox });
    assert.equal(await portIsFree(sandbox.port), false);
    assert.equal(await portIsFree(receiver.port), false);
    await receiver.close();
    assert.deepEqual((await control(sandbox, '/sandbox/webhooks')).endpoints, []);
    assert.equal(await portIsFree(receiver.port), true);
    await receiver.close();
    await receiver[Symbol.asyncDispose]();
    await sandbox[Symbol.asyncDispose]();
    assert.equal(await portIsFree(sandbox.port), true);
    await sandbox.close();
    // The iterator of a closed receiver ends; a wait on it is refused at once.
    for await (const d of receiver.deliveries) assert.fail(`nothing arrived, yet ${d.id}`);
    await assert.rejects(
      receiver.next({ timeoutMs: 1 }),
      /the receiver at http:\/\/127\.0\.0\.1:\d+\/webhooks was closed/,
    );
  });

  it('a given port is used, and one in use is refused with words that say so', async () => {
    const sandbox = await kit.startSandbox();
    try {
      await assert.rejects(
        kit.startSandbox({ port: sandbox.port }),
        /^Error: startSandbox: port \d+ .* already in use/,
      );
      const receiver = await kit.startReceiver({ trust: sandbox, port: 0 });
      const again = receiver.port;
      await receiver.close();
      const fixed = await kit.startReceiver({ trust: sandbox, port: again });
      assert.equal(fixed.port, again);
      await assert.rejects(
        kit.startReceiver({ trust: sandbox, port: again }),
        /startReceiver: port \d+ .* already in use/,
      );
      await fixed.close();
    } finally {
      await sandbox.close();
    }
  });

  it('a failed wait says what did arrive: topics, webhookIds, refusals, and what earlier waits took', async () => {
    const clock = new ManualClock(Date.now());
    const issuer = await kit.createTestIssuer();
    const app = await startApp();
    const receiver = await kit.startReceiver({ trust: issuer, forwardTo: app.url, clock });
    try {
      const settled = kit.buildEvent('payments/settled');
      await kit.deliver(receiver.url, await issuer.signEvent(settled));
      const started = kit.buildEvent('workflow/started');
      await kit.deliver(receiver.url, await issuer.signEvent(started));
      const forged = await issuer.signEvent(kit.buildEvent('workflow/completed'));
      forged.body[forged.body.length - 2] ^= 1;
      assert.equal((await kit.deliver(receiver.url, forged)).status, 403);
      assert.equal((await receiver.next({ topic: 'workflow/started' })).webhookId, started.webhookId);

      const waiting = receiver.next({ topic: 'workflow/completed', timeoutMs: 5000 });
      clock.advance(4999);
      let settledYet = false;
      void waiting.catch(() => (settledYet = true));
      await new Promise((r) => setImmediate(r));
      assert.equal(settledYet, false, 'not before its timeout');
      clock.advance(1);
      const err = await waiting.then(
        () => assert.fail('the wait should fail'),
        (e: Error) => e,
      );
      assert.match(
        err.message,
        /^next\(\{ topic: "workflow\/completed" \}\) waited 5000 ms at http:\/\/127\.0\.0\.1:\d+\/webhooks/,
      );
      assert.match(err.message, /What arrived \(3, oldest first\):/);
      assert.match(
        err.message,
        new RegExp(`- payments/settled ${settled.webhookId}: verified, answered 200, the app answered 200\n`),
      );
      assert.match(
        err.message,
        new RegExp(
          `- workflow/started ${started.webhookId}: verified, answered 200, the app answered 200 \\(taken by an earlier next\\(\\)\\)`,
        ),
      );
      assert.match(err.message, /- refused, answered 403: step 6 \(body hash\): /);
    } finally {
      await receiver.close();
      await app.close();
    }
  });

  it('a sandbox that stops answering is watched as wfs listen watches it: a failed wait says so', async () => {
    const clock = new ManualClock(Date.now());
    const sandbox = await kit.startSandbox();
    const receiver = await kit.startReceiver({ trust: sandbox, clock });
    try {
      await sandbox.close();
      // The watch asks every 5 s; its question to the stopped sandbox is refused at once (no time passes here).
      clock.advance(5000);
      let message = '';
      for (let turn = 0; turn < 10_000 && !message.includes('Meanwhile'); turn++) {
        const waiting = receiver.next({ timeoutMs: 1 });
        clock.advance(1);
        message = await waiting.then(
          () => assert.fail('nothing was delivered'),
          (e: Error) => e.message,
        );
        await new Promise((r) => setImmediate(r));
      }
      assert.match(message, /Nothing arrived at all/);
      assert.match(
        message,
        new RegExp(
          `\\nMeanwhile:\\n  the sandbox at ${sandbox.baseUrl} does not answer \\(.*\\): this receiver keeps listening, and registers again when it is back$`,
        ),
      );
    } finally {
      await receiver.close();
    }
  });

  it('a wait on a receiver nothing reached says so, and where deliveries go', async () => {
    const clock = new ManualClock(Date.now());
    const receiver = await kit.startReceiver({ trust: await kit.createTestIssuer(), clock });
    try {
      const waiting = receiver.next({ timeoutMs: 100 });
      clock.advance(100);
      await assert.rejects(waiting, (e: Error) => {
        assert.match(e.message, /^next\(\) waited 100 ms at .*, and no delivery came/);
        assert.match(e.message, new RegExp(`Nothing arrived at all: deliveries go to ${receiver.url}`));
        return true;
      });
    } finally {
      await receiver.close();
    }
  });

  it('next() takes each delivery once; a waiting next() gets the one that comes; duplicates are not forwarded again', async () => {
    const issuer = await kit.createTestIssuer();
    const app = await startApp();
    const receiver = await kit.startReceiver({ trust: issuer, forwardTo: app.url });
    try {
      const event = kit.buildEvent('orders/paid');
      const waiting = receiver.next({ topic: 'orders/paid' });
      const signed = await issuer.signEvent(event);
      await kit.deliver(receiver.url, signed);
      const first = await waiting;
      assert.equal(first.webhookId, event.webhookId);
      assert.equal(first.duplicate, false);
      await kit.deliver(receiver.url, signed);
      const copy = await receiver.next({ topic: 'orders/paid' });
      assert.notEqual(copy.id, first.id);
      assert.equal(copy.duplicate, true);
      assert.equal(copy.answer, undefined);
      assert.equal(app.bodies.length, 1);
    } finally {
      await receiver.close();
      await app.close();
    }
  });

  it("passThrough answers the sender with the app's status", async () => {
    const issuer = await kit.createTestIssuer();
    const app = await startApp(500);
    const receiver = await kit.startReceiver({ trust: issuer, forwardTo: app.url, passThrough: true });
    try {
      assert.equal((await kit.deliver(receiver.url, await issuer.signEvent(kit.buildEvent('a/b')))).status, 500);
      const d = await receiver.next({ topic: 'a/b' });
      assert.equal(d.status, 500);
      assert.equal(d.answer?.status, 500);
    } finally {
      await receiver.close();
      await app.close();
    }
  });

  it('memory is bounded in bytes: the oldest deliveries are let go, and a failed wait says how many', async () => {
    const clock = new ManualClock(Date.now());
    const issuer = await kit.createTestIssuer();
    const receiver = await kit.startReceiver({ trust: issuer, clock, memoryBytes: 64 * 1024 });
    try {
      const filler = 'x'.repeat(4000);
      for (let i = 0; i < 40; i++)
        await kit.deliver(receiver.url, await issuer.signEvent(kit.buildEvent('bulk/item', { data: { i, filler } })));
      const held: number[] = [];
      const it = receiver.deliveries[Symbol.asyncIterator]();
      const waiting = receiver.next({ topic: 'none/such', timeoutMs: 10 });
      clock.advance(10);
      const err = await waiting.then(
        () => assert.fail('nothing matches'),
        (e: Error) => e,
      );
      await receiver.close();
      for (let r = await it.next(); !r.done; r = await it.next()) held.push(r.value.event!.data.i as number);
      assert.ok(held.length < 40 && held.length >= 4, `held ${held.length}`);
      // The newest are the ones kept, in order.
      assert.deepEqual(
        held,
        Array.from({ length: held.length }, (_, k) => 40 - held.length + k),
      );
      const notListed = 40 - Math.min(held.length, 20);
      assert.match(
        err.message,
        new RegExp(
          `What arrived \\(40, oldest first\\); the ${notListed} earliest not listed \\(${40 - held.length} let go`,
        ),
      );
    } finally {
      await receiver.close();
    }
  });

  it('bad options and an unreachable or refusing sandbox are refused with what to do', async () => {
    await assert.rejects(
      kit.startReceiver({} as kit.StartReceiverOptions),
      /startReceiver needs \{ trust \}: a sandbox/,
    );
    await assert.rejects(
      kit.startReceiver({ trust: await kit.createTestIssuer(), forwardTo: 'localhost:3000' }),
      /startReceiver: forwardTo/,
    );
    const sandbox = await kit.startSandbox();
    const { baseUrl, controlSecret } = sandbox;
    await assert.rejects(
      kit.startReceiver({ trust: { baseUrl, controlSecret: 'not-it' } }),
      /^Error: startReceiver: the sandbox at .* answered 403/,
    );
    await sandbox.close();
    await assert.rejects(
      kit.startReceiver({ trust: { baseUrl, controlSecret } }),
      /startReceiver: the sandbox at http:\/\/127\.0\.0\.1:\d+ cannot be reached .*: start it first/,
    );
    await assert.rejects(kit.startSandbox({ workflowDurationMs: -1 }), /workflowDurationMs is milliseconds/);
  });
});
