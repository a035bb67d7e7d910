// `wfs start`, `status` and `test-webhook` as spawned processes against a `wfs sandbox` process, with real timers:
// what a CI script sees (exit codes and lines) under every fault the sandbox's control API can inject.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SIGN_IN_PATH, REFRESH_PATH, WORKFLOW_ROOT } from '../../src/core/http/paths';
import { startSandboxProcess, withSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';
import { startArgs, testWebhookArgs } from './helpers/commandArgs';

/** Service requests only (the control API's own lines left out), as "METHOD path status". The sandbox prints each
 * line after answering, so a client may exit first: wait until at least `atLeast` have been printed. */
async function serviceRequests(s: SandboxProcess, atLeast = 0): Promise<string[]> {
  const service = () => s.requests().filter((r) => !r.includes(' /sandbox/'));
  await s.proc.line(() => service().length >= atLeast, `${atLeast} service request lines`);
  return service();
}

/** `wfs start` run to its end (exit 0): the workflowId it printed. */
async function startOne(s: SandboxProcess): Promise<string> {
  const started = new WfsProcess(startArgs(s), s.env);
  assert.equal(await started.exitCode(), 0);
  return (await started.event('started')).workflow.workflowId;
}

async function billed(s: SandboxProcess): Promise<{ correlationId: string }[]> {
  return (await s.control('GET', 'billing')).json().billed;
}

describe('wfs start / status / test-webhook as processes', function () {
  this.timeout(60_000);
  const s = withSandboxProcess(['--workflow-duration', '1'], { perTest: true });

  it('a throttled sign-in backs off, then the start goes: exit 0 after exactly one 202, backoff line first', async () => {
    await s.control('POST', 'faults', { fault: 'throttle', count: 1 });
    const p = new WfsProcess([...startArgs(s), '--correlation-id', 'throttled-sign-in'], s.env);
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    assert.deepEqual(
      p.lines.map((l) => l.event),
      ['backoff', 'started'],
    );
    assert.equal(p.lines[0].status, 429);
    assert.ok(p.lines[0].delayMs > 0);
    assert.deepEqual(
      (await billed(s)).map((b) => b.correlationId),
      ['throttled-sign-in'],
    );
  });

  it('a throttled start backs off (the process stays alive through the wait), then exit 0 after one 202', async () => {
    // after: 1 lets the sign-in through and throttles the start twice.
    await s.control('POST', 'faults', { fault: 'throttle', count: 2, after: 1 });
    const p = new WfsProcess([...startArgs(s), '--correlation-id', 'throttled-start'], s.env);
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    assert.deepEqual(
      p.lines.map((l) => l.event),
      ['backoff', 'backoff', 'started'],
    );
    assert.deepEqual(
      p.lines.slice(0, 2).map((l) => l.attempt),
      [1, 2],
    );
    const starts = (await serviceRequests(s, 4)).filter((r) => r.includes('/workflows'));
    assert.deepEqual(
      starts.map((r) => r.split(' ').at(-1)),
      ['429', '429', '202'],
    );
    assert.equal((await billed(s)).length, 1);
  });

  it('a throttle that outlasts every attempt: exit 1, a clear error line, nothing billed', async () => {
    await s.control('POST', 'faults', { fault: 'throttle', count: 10 });
    const p = new WfsProcess(startArgs(s), { ...s.env, WFS_RATE_LIMIT_ATTEMPTS: '2' });
    assert.equal(await p.exitCode(), 1, p.stdout + p.stderr);
    const err = p.lines.at(-1)!;
    assert.deepEqual([err.event, err.status, err.kind], ['error', 429, 'rate-limited']);
    assert.match(err.message, /backed off once over [\d.]+ s and gave up/);
    assert.equal(p.events('backoff').length, 1);
    assert.equal((await billed(s)).length, 0);
  });

  for (const fault of ['start-500', 'start-500-billed']) {
    it(`${fault}: exit 3 with the correlationId to search by`, async () => {
      await s.control('POST', 'faults', { fault });
      const p = new WfsProcess([...startArgs(s), '--correlation-id', `cid-${fault}`], s.env);
      assert.equal(await p.exitCode(), 3);
      const err = p.lines.at(-1)!;
      assert.deepEqual(
        [err.event, err.status, err.kind, err.correlationId],
        ['error', 500, 'outcome-unknown', `cid-${fault}`],
      );
      assert.match(err.message, new RegExp(`cid-${fault}`));
      assert.equal((await billed(s)).length, fault === 'start-500-billed' ? 1 : 0);

      // What the error line says to do: search by the correlationId before starting again.
      const find = new WfsProcess(['find', '--correlation-id', `cid-${fault}`], s.env);
      if (fault === 'start-500-billed') {
        assert.equal(await find.exitCode(), 0, find.stdout + find.stderr);
        const found = find.lines.at(-1)!;
        assert.equal(found.event, 'found');
        assert.deepEqual(
          found.workflows.map((w: { correlationId: string }) => w.correlationId),
          [`cid-${fault}`],
        );
      } else {
        assert.equal(await find.exitCode(), 5, 'none found');
        assert.deepEqual(find.lines.at(-1), { event: 'none', correlationId: `cid-${fault}` });
      }
    });
  }

  it('find with a correlationId copied with its quotes finds the billed workflow under the clean form (exit 0), never "none"', async () => {
    await s.control('POST', 'faults', { fault: 'start-500-billed' });
    const start = new WfsProcess([...startArgs(s), '--correlation-id', 'cid-copied'], s.env);
    assert.equal(await start.exitCode(), 3);
    // As copied from the error line's JSON: "correlationId":"cid-copied", with the quotes and the comma.
    const find = new WfsProcess(['find', '--correlation-id', '"cid-copied",'], s.env);
    assert.equal(await find.exitCode(), 0, find.stdout + find.stderr);
    const found = find.lines.at(-1)!;
    assert.deepEqual([found.event, found.correlationId, found.typed], ['found', 'cid-copied', '"cid-copied",']);
    assert.deepEqual(
      found.workflows.map((w: { correlationId: string }) => w.correlationId),
      ['cid-copied'],
    );
    assert.match(found.note, /^none carries the correlationId as typed, "\\"cid-copied\\",";/);

    const none = new WfsProcess(['find', '--correlation-id', ' "cid-never" '], s.env);
    assert.equal(await none.exitCode(), 5);
    assert.deepEqual(none.lines.at(-1), { event: 'none', correlationId: ' "cid-never" ', alsoSearched: 'cid-never' });
    const long = new WfsProcess(['find', '--correlation-id', 'x'.repeat(300)], s.env);
    assert.equal(await long.exitCode(), 5);
    assert.match(
      long.lines.at(-1)!.note,
      /^a correlationId has at most 255 characters and this one has 300: no start could have sent it/,
    );
  });

  it('a start whose answer is lost (the connection cut after the service took it): exit 3 like a 500, and find finds the billed workflow', async () => {
    // Between wfs and the sandbox: every request passes, but the start's connection is cut once the sandbox answered.
    const cutter = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        // End-to-end headers only: fetch refuses hop-by-hop ones (connection, keep-alive).
        const headers: Record<string, string> = {};
        for (const h of ['content-type', 'authorization', 'accept', 'x-svc-useralias'])
          if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
        const answer = await fetch(s.info.baseUrl + req.url, {
          method: req.method,
          headers,
          body: req.method === 'GET' ? undefined : body,
        });
        const text = Buffer.from(await answer.arrayBuffer());
        if (req.url!.includes('/sessions/')) return void req.socket.destroy();
        res
          .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
          .end(text);
      });
    });
    await new Promise<void>((r) => cutter.listen(0, '127.0.0.1', r));
    try {
      const env = { ...s.env, WFS_BASE_URL: `http://127.0.0.1:${(cutter.address() as AddressInfo).port}` };
      const p = new WfsProcess([...startArgs(s), '--correlation-id', 'cid-lost'], env);
      assert.equal(await p.exitCode(), 3);
      const err = p.lines.at(-1)!;
      assert.deepEqual([err.event, err.kind, err.correlationId], ['error', 'outcome-unknown', 'cid-lost']);
      assert.match(
        err.message,
        /^Outcome unknown: the start was sent and its answer lost \(the connection was cut: \w+\); a workflow may have been started and billed\. Do not retry blindly: run `wfs find --correlation-id cid-lost`/,
      );
      assert.equal((await billed(s)).length, 1, 'the sandbox did start it');
      const find = new WfsProcess(['find', '--correlation-id', 'cid-lost'], s.env);
      assert.equal(await find.exitCode(), 0);
      assert.deepEqual(
        find.lines.at(-1)!.workflows.map((w: { correlationId: string }) => w.correlationId),
        ['cid-lost'],
      );
    } finally {
      cutter.closeAllConnections();
      cutter.close();
    }
  });

  it("find: a Find Workflows address off the service's origin is refused before anything is sent (exit 2)", async () => {
    const p = new WfsProcess(['find', '--correlation-id', 'c'], {
      ...s.env,
      WFS_FIND_WORKFLOWS_URL: 'http://127.0.0.2:9/find?c={correlationId}',
    });
    assert.equal(await p.exitCode(), 2);
    assert.match(p.lines.at(-1)!.message, /^WFS_FIND_WORKFLOWS_URL: .*not on the service's origin/);
    const own = new WfsProcess(['find', '--correlation-id', 'nothing-here'], {
      ...s.env,
      WFS_FIND_WORKFLOWS_URL: `${s.info.baseUrl}/workflow-services-ws/resources/v1/workflows?correlationId={correlationId}`,
    });
    assert.equal(await own.exitCode(), 5);
  });

  it('forbidden: exactly one retry, with a fresh token; twice forbidden is surfaced (exit 1)', async () => {
    await s.control('POST', 'faults', { fault: 'forbidden' });
    const ok = new WfsProcess(startArgs(s), s.env);
    assert.equal(await ok.exitCode(), 0, ok.stdout);
    const startPath = `${WORKFLOW_ROOT}/sessions/${s.info.sessions.staged}/workflows`;
    assert.deepEqual(await serviceRequests(s, 4), [
      `POST ${SIGN_IN_PATH} 200`,
      `POST ${startPath} 403`,
      `POST ${REFRESH_PATH} 200`,
      `POST ${startPath} 202`,
    ]);

    await s.control('POST', 'faults', { fault: 'forbidden', count: 2 });
    const before = (await serviceRequests(s)).length;
    const refused = new WfsProcess(startArgs(s), s.env);
    assert.equal(await refused.exitCode(), 1);
    assert.equal(refused.lines.at(-1)!.status, 403);
    assert.deepEqual(
      (await serviceRequests(s, before + 4)).slice(before).map((r) => r.split(' ').at(-1)),
      ['200', '403', '200', '403'],
      'one retry, not two',
    );
  });

  it('a wrong password: exit 1, and the password appears in no output', async () => {
    const password = 'hunter2-not-the-password';
    const p = new WfsProcess(startArgs(s), { ...s.env, WFS_PASSWORD: password });
    assert.equal(await p.exitCode(), 1);
    assert.equal(p.lines.at(-1)!.status, 401);
    assert.ok(!(p.stdout + p.stderr).includes(password));
    assert.ok(!s.proc.stdout.includes(password), "nor in the sandbox's own log");
  });

  // The workflow ends when the test finishes it, after the follower has seen it processing: a workflow that ended on
  // a timer could end before a slow `wfs status` first read it, leaving one status line instead of two.
  const followToEnd = async (status: 'complete' | 'failed') => {
    const long = await startSandboxProcess(['--workflow-duration', '3600']);
    try {
      const id = await startOne(long);
      const p = new WfsProcess(['status', '--workflow', id, '--follow'], long.env);
      await p.event('status');
      assert.equal((await long.control('POST', `workflows/${id}/finish`, { status })).status, 200);
      const code = await p.exitCode();
      return { id, p, code, long };
    } catch (err) {
      await long.stop();
      throw err;
    }
  };

  it('status --follow runs to the terminal status on real timers: exit 0, one line per change', async () => {
    const { p, code, long } = await followToEnd('complete');
    await long.stop();
    assert.equal(code, 0, p.stdout + p.stderr);
    assert.deepEqual(
      p.events('status').map((l) => l.workflow.status),
      ['processing', 'complete'],
    );
  });

  it('status --follow to a workflow that ends failed: exit 6 with an error line naming the status; following it again once ended is exit 6 too', async () => {
    const { id, p, code, long: s } = await followToEnd('failed');
    try {
      assert.equal(code, 6, p.stdout + p.stderr);
      assert.deepEqual(
        p.events('status').map((l) => l.workflow.status),
        ['processing', 'failed'],
      );
      assert.deepEqual(p.lines.at(-1), {
        event: 'error',
        kind: 'workflow-not-complete',
        status: 'failed',
        message: 'the workflow ended failed, not complete',
      });
      const again = new WfsProcess(['status', '--workflow', id, '--follow'], s.env);
      assert.equal(await again.exitCode(), 6);
      const once = new WfsProcess(['status', '--workflow', id], s.env);
      assert.equal(await once.exitCode(), 0, 'a read without --follow only reads: it succeeded');
    } finally {
      await s.stop();
    }
  });

  it('status --follow to its deadline: exit 4 with a deadline error line', async () => {
    const long = await startSandboxProcess(['--workflow-duration', '3600']);
    try {
      const started = new WfsProcess(startArgs(long), long.env);
      const id = (await started.event('started')).workflow.workflowId;
      const p = new WfsProcess(['status', '--workflow', id, '--follow', '--deadline', '1'], long.env);
      assert.equal(await p.exitCode(), 4);
      assert.deepEqual([p.lines.at(-1)!.event, p.lines.at(-1)!.kind], ['error', 'deadline']);
    } finally {
      await long.stop();
    }
  });

  it('test-webhook on 429 backs off and sends: exit 0, the delivery arrives once', async () => {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--no-tunnel'], {});
    const ready = await listen.event('ready');
    await s.control('POST', 'faults', { fault: 'throttle', count: 1, after: 1 });
    const p = new WfsProcess(testWebhookArgs(ready.url), s.env);
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    assert.deepEqual(
      p.lines.map((l) => l.event),
      ['backoff', 'sent'],
    );
    const delivery = await listen.event('delivery');
    assert.deepEqual([delivery.status, delivery.verified, delivery.webhookId], [200, true, p.lines[1].webhookId]);
    // The first attempt's outcome, under the name --help gives it (it once said "status").
    assert.deepEqual([p.lines[1].response.receiverStatus, p.lines[1].response.retryScheduled], [200, false]);
    const help = new WfsProcess(['test-webhook', '--help'], {});
    assert.equal(await help.exitCode(), 0);
    assert.match(help.stdout, /the first attempt's "receiverStatus" or "error" there, and "retryScheduled"/);
    await listen.stopCleanly('SIGINT');
  });

  it('test-webhook answered 413 by a service whose limit is below ours: exit 1, an error that says too large, not "unexpected"', async () => {
    // The sandbox reads up to 64 MiB, the CLI's own bound; a real service may stop sooner. A test endpoint that
    // answers 413 (as a proxy or the service's edge does) stands in for it; sign-in still goes to the sandbox.
    const edge = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(413, { 'content-type': 'text/html' }).end('<html>Payload Too Large</html>'));
    });
    await new Promise<void>((r) => edge.listen(0, '127.0.0.1', r));
    try {
      const p = new WfsProcess(
        [...testWebhookArgs('http://127.0.0.1:9/webhooks'), '--data', '-'],
        { ...s.env, WFS_TEST_WEBHOOK_URL: `http://127.0.0.1:${(edge.address() as AddressInfo).port}` },
        { stdin: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) },
      );
      assert.equal(await p.exitCode(), 1, p.stdout + p.stderr);
      const error = p.lines.at(-1)!;
      assert.deepEqual([error.event, error.status], ['error', 413]);
      assert.match(
        error.message,
        /too large \(413 Payload Too Large\); nothing was processed\. Send smaller testData\.$/,
      );
    } finally {
      edge.close();
    }
  });

  it('test-webhook to an address that is down: the "sent" line (the endpoint took it), then a delivery-failed error line and exit 7', async () => {
    const p = new WfsProcess(testWebhookArgs('http://127.0.0.1:9/webhooks'), s.env);
    assert.equal(await p.exitCode(), 7, p.stdout + p.stderr);
    const { event, webhookId, response } = p.events('sent')[0]!;
    assert.deepEqual(
      [event, response.webhookId, response.attempt, response.retryScheduled],
      ['sent', webhookId, 1, true],
    );
    assert.match(response.error, /^cannot reach http:\/\/127\.0\.0\.1:9\/webhooks: ECONNREFUSED/);
    const err = p.lines.at(-1)!;
    assert.deepEqual(
      [err.event, err.kind, err.webhookId, err.address],
      ['error', 'delivery-failed', webhookId, 'http://127.0.0.1:9/webhooks'],
    );
    assert.match(
      err.message,
      /^not delivered: the service could not reach the address: cannot reach .*ECONNREFUSED.*; the service will try again\. Check that your receiver is running/,
    );
  });

  it('test-webhook: a --data file saved with a byte-order mark is read as its JSON; a scheme-less --address says which scheme to add (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-bom-'));
    const file = join(dir, 'data.json');
    writeFileSync(file, '\ufeff{"loan":"L-1"}');
    const p = new WfsProcess([...testWebhookArgs('http://127.0.0.1:9/webhooks'), '--data', file], s.env);
    assert.equal(await p.exitCode(), 7, p.stdout + p.stderr);
    assert.equal(p.events('sent').length, 1, 'sent, not refused as invalid JSON');
    const bare = new WfsProcess(testWebhookArgs('localhost:4020/webhooks'), s.env);
    assert.equal(await bare.exitCode(), 2);
    assert.equal(
      bare.lines.at(-1)!.message,
      '--address localhost:4020/webhooks is not a URL (it lacks its scheme: write http://localhost:4020/webhooks)',
    );
  });

  it("SIGTERM during a start's backoff: exit 130 with an error line, no started line, nothing billed", async () => {
    await s.control('POST', 'faults', { fault: 'throttle', count: 10 });
    const p = new WfsProcess(startArgs(s), s.env);
    await p.event('backoff');
    p.kill('SIGTERM');
    assert.equal(await p.exitCode(), 130);
    assert.deepEqual([p.lines.at(-1)!.event, p.lines.at(-1)!.kind], ['error', 'interrupted']);
    assert.equal(p.events('started').length, 0);
    assert.equal((await billed(s)).length, 0);
  });

  it('SIGINT while following: exit 130 with a cancelled line', async () => {
    const long = await startSandboxProcess(['--workflow-duration', '3600']);
    try {
      const started = new WfsProcess(startArgs(long), long.env);
      const id = (await started.event('started')).workflow.workflowId;
      const p = new WfsProcess(['status', '--workflow', id, '--follow'], long.env);
      await p.event('status');
      p.kill('SIGINT');
      assert.equal(await p.exitCode(), 130);
      assert.equal(p.lines.at(-1)!.kind, 'cancelled');
    } finally {
      await long.stop();
    }
  });
});
