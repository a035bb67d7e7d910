// `wfs audit` and `wfs send` as a newcomer runs them (issue #69, point 1): the environment `wfs sandbox` printed is
// all they are given, and they sign with that sandbox's key, which `wfs listen --trust-sandbox` trusts; with a key
// the receiver does not trust, the audit stops at once with one message and its own exit code, calling nothing
// insecure, and `wfs send` says the same of its refusal.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess, withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const FIXTURE = JSON.stringify({
  wfsFixture: 1,
  topic: 'orders/created',
  subTopic: 'event:orders/created',
  tenant: 't1',
  body: { webhookId: '{{webhookId}}', topic: 'orders/created', triggeredAt: '{{triggeredAt}}', data: {} },
});

describe('wfs audit and wfs send sign with the key the environment names, and say when the receiver does not trust it', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();
  /** What `wfs sandbox`'s export line sets: the address and the control secret, nothing else. */
  const environment = () => ({ WFS_BASE_URL: s.info.baseUrl, WFS_SANDBOX_SECRET: s.info.controlSecret });

  it('wfs listen --trust-sandbox URL, audited with only the environment set: 30/30, exit 0', async () => {
    const listen = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl]);
    const ready = await listen.event('ready');
    const audit = new WfsProcess(['audit', '--target', ready.url], environment());
    assert.equal(await audit.exitCode(), 0, audit.stdout + audit.stderr);
    const summary = audit.lines.at(-1)!;
    assert.deepEqual(
      [summary.event, summary.passed, summary.failed, summary.total, summary.jwksUrl],
      ['summary', 30, 0, 30, s.info.jwksUrl],
    );
    assert.equal(audit.events('signing-sandbox').length, 0, 'no sandbox of its own was started');
    await listen.stopCleanly();
  });

  it('a path typo (the receiver serves /webhooks, the target says /webhook): 404 is "nothing takes webhooks at that path", exit 10, not a trust mismatch (#79)', async () => {
    const listen = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl]);
    const ready = await listen.event('ready');
    const typo = String(ready.url).replace(/\/webhooks$/, '/webhook');
    const env = { WFS_BASE_URL: s.info.baseUrl, WFS_SANDBOX_SECRET: s.info.controlSecret };
    const audit = new WfsProcess(['audit', '--target', typo], env);
    assert.equal(await audit.exitCode(), 10, audit.stdout + audit.stderr);
    assert.deepEqual(audit.events('trust-mismatch'), []);
    const err = audit.events('error')[0]!;
    assert.deepEqual([err.kind, err.status], ['path-not-served', 404]);
    assert.match(String(err.message), /nothing takes webhooks at that path/);
    assert.doesNotMatch(String(err.message), /issuer|kid/);
    const human = new WfsProcess(['audit', '--target', typo, '--human'], env);
    assert.equal(await human.exitCode(), 10);
    assert.match(human.stdout + human.stderr, /nothing takes webhooks at that path/);
    await listen.stopCleanly();
  });

  it('signed with a key the receiver does not trust: one message naming the key and the answer, exit 9, no case failed', async () => {
    const other = await startSandboxProcess();
    const listen = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl]);
    try {
      const ready = await listen.event('ready');
      const env = { WFS_BASE_URL: other.info.baseUrl, WFS_SANDBOX_SECRET: other.info.controlSecret };
      const audit = new WfsProcess(['audit', '--target', ready.url], env);
      assert.equal(await audit.exitCode(), 9, audit.stdout + audit.stderr);
      assert.deepEqual(audit.events('case'), [], 'no case was judged, so none failed');
      const [m, ...more] = audit.events('trust-mismatch');
      assert.equal(more.length, 0);
      const { keys } = (await (await fetch(other.info.jwksUrl)).json()) as { keys: { kid: string }[] };
      assert.deepEqual(
        [m!.issuer, m!.jwksUrl, m!.kid, m!.step, m!.trust, m!.notSent],
        [other.info.issuer, other.info.jwksUrl, keys[0]!.kid, 3, true, 29],
      );
      assert.ok(m!.status === 403 || m!.status === 503, `refused: ${m!.status}`);
      assert.match(m!.answer, /step 3 \(signing key\)/);
      assert.match(m!.fix, new RegExp(`wfs listen\`, start it with --trust-sandbox ${other.info.baseUrl}`));
      assert.deepEqual([audit.lines.at(-1)!.event, audit.lines.at(-1)!.trustMismatch], ['summary', true]);
      await listen.line(() => listen.events('delivery').length === 1, "the genuine delivery's line");
      assert.equal(listen.events('delivery').length, 1, 'only the genuine delivery reached the receiver');

      // On a terminal, the same as text: what happened, the key, the answer, then the fix.
      const human = new WfsProcess(['audit', '--target', ready.url, '--human'], env);
      assert.equal(await human.exitCode(), 9);
      assert.match(
        human.stdout,
        /^✗ http:\/\/127\.0\.0\.1:\d+\/webhooks answered (403|503) \("[^"]*step 3 \(signing key\)[^"]*"\)[^\n]* to the audit's genuine delivery, signed with issuer [^\n]+\n {4}issuer +\S+\n {4}key set +\S+\n {4}kid +\S+\n {4}audience +\S+\n {4}answered +.+\n {4}fix: The receiver does not trust that key\./,
      );
      assert.doesNotMatch(human.stdout, /Pin the algorithm|fix: Ignore jku/);
      assert.match(human.stdout, /✗ not audited: .* refused the genuine delivery, so the 29 other cases were not sent/);
    } finally {
      await listen.stopCleanly();
      await other.stop();
    }
  });

  it('wfs send with only the environment set is verified; with another sandbox key, the refusal at step 3 is explained once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-send-trust-'));
    writeFileSync(join(dir, 'a.webhook.json'), FIXTURE);
    writeFileSync(join(dir, 'b.webhook.json'), FIXTURE);
    const other = await startSandboxProcess();
    const listen = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl]);
    try {
      const { url } = await listen.event('ready');
      const ok = new WfsProcess(['send', dir, '--to', url], environment());
      assert.equal(await ok.exitCode(), 0, ok.stdout + ok.stderr);
      assert.deepEqual(
        ok.events('fixture-sent').map((l) => l.status),
        [200, 200],
      );
      assert.equal(ok.events('trust-mismatch').length, 0);

      const env = { WFS_BASE_URL: other.info.baseUrl, WFS_SANDBOX_SECRET: other.info.controlSecret };
      const refused = new WfsProcess(['send', dir, '--to', url], env);
      assert.equal(await refused.exitCode(), 1);
      const mismatch = refused.events('trust-mismatch');
      assert.equal(mismatch.length, 1, 'said once, for the first fixture refused');
      assert.deepEqual(
        [mismatch[0]!.issuer, mismatch[0]!.jwksUrl, mismatch[0]!.step],
        [other.info.issuer, other.info.jwksUrl, 3],
      );
      assert.match(mismatch[0]!.fix, new RegExp(`--trust-sandbox ${other.info.baseUrl}`));
    } finally {
      await listen.stopCleanly();
      await other.stop();
    }
  });
});
