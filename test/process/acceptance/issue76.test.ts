// Acceptance check for issue #76, written apart from the implementation: only from the "Done when" and the
// user docs (docs/cli.md: delivery faults, `--set`, forward rules with `ca=FILE`, the public path watch). Every
// `wfs` is the built CLI, spawned with real timers; the apps are real local servers.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedBy, sendDelivery } from '../helpers/deliveries';
import { startSandboxProcess, WfsProcess, type Line } from '../helpers/wfsProcess';
import { makeTestCertificates, startHttpsApp } from '../../unit/helpers/testCertificates';
import { freePort, startJoseApp, startProxy } from './apps';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'wfs-acc76-'));
const deliveries = (p: WfsProcess): Line[] => p.events('delivery');

/** One run of the first bullet: a fresh sandbox with `duplicate` and `reorder` at seed 42, a `wfs listen` trusting
 * it, one workflow started; what arrived, in order, with the webhookIds made relative (the run's own ids differ). */
async function faultedRun(): Promise<{ seen: Line[]; shape: string[] }> {
  const s = await startSandboxProcess(['--workflow-duration', '1s']);
  try {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--port', '0']);
    await listen.event('ready');
    for (const fault of [['duplicate', '--count', '1'], ['reorder']]) {
      const f = new WfsProcess(['sandbox', 'fault', ...fault, '--seed', '42', '--sandbox-url', s.info.baseUrl]);
      assert.equal(await f.exitCode(), 0, f.stdout + f.stderr);
    }
    const start = new WfsProcess(
      ['start', '--session', 'sess-demo-staged', '--service', 'Appraisal', '--model', 'Standard'],
      s.env,
    );
    assert.equal(await start.exitCode(), 0, start.stdout + start.stderr);
    // docs/cli.md: "one event of each workflow twice" (--count 1): started, completed and one copy.
    await listen.line(() => deliveries(listen).length >= 3, 'three deliveries');
    const seen = deliveries(listen);
    const ids = new Map<string, string>();
    for (const d of seen) if (!ids.has(d.webhookId)) ids.set(d.webhookId, d.topic);
    const shape = seen.map(
      (d) =>
        `${d.topic} verified=${d.verified} duplicate=${d.duplicate} fault=${String(d.sandboxFault?.text ?? '').replace(
          /[0-9a-f-]{36}/g,
          (id) => `<${ids.get(id) ?? id}>`,
        )}`,
    );
    await listen.stopCleanly();
    return { seen, shape };
  } finally {
    await s.stop();
  }
}

describe('issue #76, checked apart (docs only)', function () {
  this.timeout(60_000);

  it('duplicate + reorder with a fixed seed: delivered to wfs listen as the fault says, verified and marked, twice the same', async () => {
    const first = await faultedRun();
    const topics = first.seen.map((d) => d.topic);
    // reorder: completed before started.
    assert.ok(
      topics.indexOf('workflow/completed') < topics.indexOf('workflow/started'),
      `completed arrives before started: ${first.shape.join(' | ')}`,
    );
    for (const d of first.seen) {
      assert.equal(d.verified, true, `each delivery verified: ${first.shape.join(' | ')}`);
      assert.ok(
        d.sandboxFault && typeof d.sandboxFault.text === 'string',
        `each delivery carries its mark: ${JSON.stringify(d)}`,
      );
    }
    const copies = first.seen.filter((d) => d.sandboxFault.duplicateOf);
    assert.equal(copies.length, 1, `one copy (--count 1): ${first.shape.join(' | ')}`);
    const copy = copies[0];
    assert.equal(copy.sandboxFault.duplicateOf, copy.webhookId, 'the copy has the same webhookId as what it repeats');
    assert.equal(copy.duplicate, true, 'wfs listen flags the copy as a duplicate');
    const original = first.seen.findIndex((d) => d.webhookId === copy.webhookId);
    assert.ok(original < first.seen.indexOf(copy), 'the copy comes after the one it repeats');
    for (const d of first.seen.filter((x) => !x.sandboxFault.duplicateOf))
      assert.match(d.sandboxFault.text, /reorder/, 'an original is marked reordered');
    const second = await faultedRun();
    assert.deepEqual(second.shape, first.shape, 'the same seed, the same run');
  });

  it('wfs send --set data.runId=wfrun_42 arrives with that value, signed; a missing path or variable sends nothing', async () => {
    const s = await startSandboxProcess();
    const app = await startJoseApp({ jwksUrl: s.info.jwksUrl });
    try {
      const dir = tmp();
      const event = join(dir, 'event.json');
      writeFileSync(
        event,
        JSON.stringify({
          webhookId: '7d1f6a52-3c1e-4d2b-9a0e-2f4b8c9d1e00',
          topic: 'workflow/completed',
          subTopic: 'status:workflow/completed',
          tenantId: 't1',
          triggeredAt: '2026-11-28T10:00:00.0000000Z',
          data: { workflowId: 'wf_1', runId: 'wfrun_1' },
        }),
      );
      const send = (args: string[], env: Record<string, string> = {}): WfsProcess =>
        new WfsProcess(['send', ...args, '--to', app.url, '--sandbox-url', s.info.baseUrl], env);
      const ok = send([event, '--set', 'data.runId=wfrun_42']);
      assert.equal(await ok.exitCode(), 0, ok.stdout + ok.stderr);
      assert.equal(app.received.length, 1);
      assert.equal(app.received[0].verified, true, `the app's jose verification: ${app.received[0].reason}`);
      assert.equal(app.received[0].json.data.runId, 'wfrun_42');
      assert.equal(app.received[0].json.data.workflowId, 'wf_1', 'the rest of the body is kept');

      const typo = send([event, '--set', 'data.runid=wfrun_42']);
      assert.equal(await typo.exitCode(), 2, typo.stdout + typo.stderr);
      assert.match(typo.stdout + typo.stderr, /data\.runid/, 'the missing path is named');

      const fixture = join(dir, 'completed.webhook.json');
      writeFileSync(
        fixture,
        JSON.stringify({
          wfsFixture: 1,
          topic: 'workflow/completed',
          subTopic: 'status:workflow/completed',
          tenant: 't1',
          body: {
            webhookId: '{{webhookId}}',
            topic: 'workflow/completed',
            subTopic: 'status:workflow/completed',
            tenantId: 't1',
            triggeredAt: '{{triggeredAt}}',
            data: { runId: '{{env.ACC_RUN_ID}}' },
          },
        }),
      );
      const unset = send([fixture]);
      assert.equal(await unset.exitCode(), 2, unset.stdout + unset.stderr);
      assert.match(unset.stdout + unset.stderr, /ACC_RUN_ID/, 'the unset variable is named');
      assert.equal(app.received.length, 1, 'nothing was sent for the missing path or the unset variable');

      const set = send([fixture], { ACC_RUN_ID: 'wfrun_77' });
      assert.equal(await set.exitCode(), 0, set.stdout + set.stderr);
      assert.equal(app.received[1].verified, true);
      assert.equal(app.received[1].json.data.runId, 'wfrun_77');
    } finally {
      await app.stop();
      await s.stop();
    }
  });

  it('forwarding to an https app with a self-signed certificate fails named, then succeeds with ca', async () => {
    const certs = makeTestCertificates();
    const s = await startSandboxProcess();
    const app = await startHttpsApp(certs.selfSigned, { host: 'localhost' });
    try {
      const target = `${app.origin}/webhooks`;
      const body = Buffer.from(
        JSON.stringify({ webhookId: '0b7e0c3e-1f0a-4c5e-8d2a-6f1e2d3c4b5a', topic: 'workflow/completed', data: {} }),
      );
      const run = async (rule: string): Promise<Line> => {
        const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--port', '0', '--forward', rule]);
        const ready = await listen.event('ready');
        assert.equal(await sendDelivery(ready.url, { body, token: await signedBy(s.info.baseUrl, body) }), 200);
        const d = await listen.event('delivery');
        await listen.stopCleanly();
        return d;
      };
      const refused = await run(`**=${target}`);
      const f = refused.forwards?.[0];
      assert.ok(f, `a forwards entry: ${JSON.stringify(refused)}`);
      assert.equal(f.tls, 'self-signed', JSON.stringify(f));
      assert.match(f.error, /self-signed/, f.error);
      assert.match(f.error, /\bca\b/, `the fix names ca: ${f.error}`);
      assert.equal(app.paths.length, 0, 'nothing reached the app');

      const trusted = await run(`**=${target} ca=${certs.selfSigned.cert}`);
      assert.equal(trusted.forwards?.[0]?.status, 200, JSON.stringify(trusted.forwards));
      assert.deepEqual(app.paths, ['/webhooks']);
    } finally {
      await app.stop();
      await s.stop();
      certs.remove();
    }
  });

  it('a public address that stops routing is reported, and again when it is back (a proxy stands in for the tunnel)', async () => {
    const s = await startSandboxProcess();
    const port = await freePort();
    const proxy = await startProxy(port);
    try {
      const listen = new WfsProcess([
        'listen',
        '--trust-sandbox',
        s.info.baseUrl,
        '--port',
        String(port),
        '--public-url',
        `${proxy.url}/webhooks`,
        '--path-check-every',
        '1',
      ]);
      const ready = await listen.event('ready');
      assert.equal(ready.publicUrl, `${proxy.url}/webhooks`);
      const path = (state: string, after = 0): Promise<Line> =>
        listen.line(
          (l) => l.event === 'public-path' && l.state === state && listen.lines.indexOf(l) >= after,
          `a public-path ${state} line`,
        );
      await path('reaching');
      proxy.routing = false;
      const cutAt = listen.lines.length;
      const t0 = Date.now();
      const down = await path('not-reaching', cutAt);
      const saidDownMs = Date.now() - t0;
      assert.ok(down.meanwhile && down.whatToDo, JSON.stringify(down));
      proxy.routing = true;
      const t1 = Date.now();
      const back = await path('reaching', listen.lines.indexOf(down));
      const saidBackMs = Date.now() - t1;
      assert.ok(typeof back.downMs === 'number' && back.downMs > 0, JSON.stringify(back));
      // Within 3 minutes, as the issue says (the measured figures go to the report).
      assert.ok(saidDownMs < 180_000 && saidBackMs < 180_000);
      console.log(`      public path: said down after ${saidDownMs} ms, back after ${saidBackMs} ms`);
      await listen.stopCleanly();
    } finally {
      await proxy.stop();
      await s.stop();
    }
  });
});
