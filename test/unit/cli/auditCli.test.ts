// `wfs audit` in-process: one JSON line per case and a summary; exit 0 when all pass, 1 when any fails,
// 2 for usage errors (no target, a remote target without --allow-remote) before anything is sent.
import assert from 'node:assert/strict';
import { main } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/output';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { SystemClock } from '../../../src/core/time/clock';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { AUDIT_CASES } from '../../../src/core/audit/auditCases';
import { BrokenReceiver } from '../helpers/brokenReceiver';
import { RecordingServer } from '../helpers/recordingServer';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKeyPair } from '../../../src/core/signing/keyPairFiles';
import { KeySetServer } from '../helpers/keySetServer';

describe('wfs audit', function () {
  this.timeout(60_000);
  const clock = new SystemClock();
  let sandbox: Sandbox;
  let info: Awaited<ReturnType<Sandbox['start']>>;
  let lines: Record<string, any>[];
  // The user's environment: the running sandbox's control secret, as its ready line gave it.
  const io = (env: Record<string, string> = { WFS_SANDBOX_SECRET: info.controlSecret }): CliIO => ({
    emit: (l) => lines.push(l),
    print: () => undefined,
    printError: () => undefined,
    env,
    clock,
    readStdin: () => '',
    onStop: () => () => undefined,
  });

  before(async () => {
    sandbox = new Sandbox({ port: 0 });
    info = await sandbox.start();
  });
  after(() => sandbox.stop());
  beforeEach(() => (lines = []));

  it('our receiver: every case passes, exit 0', async () => {
    const receiver = new Receiver({
      verifier: new Verifier({
        issuers: [{ issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl }],
        clock,
      }),
      clock,
    });
    const url = await receiver.start();
    try {
      assert.equal(await main(['audit', '--target', url, '--sandbox-url', info.baseUrl], io()), 0);
    } finally {
      await receiver.stop();
    }
    const cases = lines.filter((l) => l.event === 'case');
    assert.equal(cases.length, AUDIT_CASES.length);
    assert.ok(cases.every((c) => c.passed === true && !('fix' in c)));
    assert.deepEqual(lines.at(-1), {
      event: 'summary',
      target: lines.at(-1)!.target,
      issuer: info.issuer,
      audience: info.audience,
      jwksUrl: info.jwksUrl,
      passed: AUDIT_CASES.length,
      failed: 0,
      total: AUDIT_CASES.length,
    });
  });

  it('a receiver that does not require exp: that case fails with its fix, exit 1', async () => {
    const r = new BrokenReceiver('exp-optional', {
      issuer: info.issuer,
      audience: info.audience,
      jwksUrl: info.jwksUrl,
    });
    const url = await r.start();
    try {
      assert.equal(await main(['audit', '--target', url, '--sandbox-url', info.baseUrl], io()), 1);
    } finally {
      await r.stop();
    }
    const exp = lines.find((l) => l.id === 'exp-missing')!;
    assert.equal(exp.passed, false);
    assert.equal(exp.status, 200);
    assert.match(exp.fix, /requiredClaims/);
    assert.equal(lines.at(-1)!.failed, 1);
  });

  it('--sandbox-port: a sandbox started here signs, and says so; a receiver refusing everything stops the audit at the genuine delivery, exit 9', async () => {
    const rec = new RecordingServer();
    rec.respond = () => 403;
    const url = await rec.start();
    try {
      assert.equal(await main(['audit', '--target', url, '--sandbox-port', '0'], io()), 9);
    } finally {
      await rec.stop();
    }
    assert.equal(rec.requests.length, 1, 'only the genuine delivery was sent');
    const signing = lines.find((l) => l.event === 'signing-sandbox')!;
    assert.match(signing.jwksUrl, /^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json$/);
    assert.deepEqual(
      lines.filter((l) => l.event === 'case'),
      [],
      'no case is reported failed: the receiver was never judged',
    );
    const m = lines.find((l) => l.event === 'trust-mismatch')!;
    assert.deepEqual([m.status, m.trust, m.notSent, m.jwksUrl], [403, true, 29, signing.jwksUrl]);
    assert.match(m.kid, /\S/);
    assert.match(m.message, /answered 403 with no reason to the audit's genuine delivery, signed with issuer .*kid/);
    assert.match(m.fix, /a sandbox started here \(--sandbox-port\).*set WFS_BASE_URL and WFS_SANDBOX_SECRET/);
    const summary = lines.at(-1)!;
    assert.deepEqual([summary.event, summary.trustMismatch, summary.notSent], ['summary', true, 29]);
  });

  it('by default it signs with the sandbox WFS_BASE_URL names (with WFS_SANDBOX_SECRET): 30/30 against a receiver trusting it', async () => {
    const receiver = new Receiver({
      verifier: new Verifier({
        issuers: [{ issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl }],
        clock,
      }),
      clock,
    });
    const url = await receiver.start();
    try {
      const env = { WFS_BASE_URL: info.baseUrl, WFS_SANDBOX_SECRET: info.controlSecret };
      assert.equal(await main(['audit', '--target', url], io(env)), 0);
      assert.equal(lines.at(-1)!.passed, AUDIT_CASES.length);
      assert.equal(lines.at(-1)!.jwksUrl, info.jwksUrl);
      lines = [];
      assert.equal(await main(['audit', '--target', url], io({ WFS_BASE_URL: info.baseUrl })), 2);
      assert.match(
        lines.at(-1)!.message,
        /^wfs audit signs with the sandbox WFS_BASE_URL names \(http:\/\/127\.0\.0\.1:\d+\), and WFS_SANDBOX_SECRET is not set: .*--sandbox-url URL, --keys DIR .*--sandbox-port P/,
      );
    } finally {
      await receiver.stop();
    }
  });

  it("--keys DIR: signs with the folder's key: 30/30 against a receiver trusting that folder's key set", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-audit-keys-'));
    const { issuerFile, jwks } = await writeKeyPair(dir, clock, 'https://keys.test/webhooks', 'keys-aud');
    const keySet = new KeySetServer();
    await keySet.start();
    keySet.keys = jwks.keys;
    const receiver = new Receiver({
      verifier: new Verifier({
        issuers: [{ issuer: issuerFile.issuer, audience: issuerFile.audience, jwksUrl: keySet.url }],
        clock,
      }),
      clock,
    });
    const url = await receiver.start();
    try {
      assert.equal(await main(['audit', '--target', url, '--keys', dir], io({})), 0, JSON.stringify(lines));
      const summary = lines.at(-1)!;
      assert.deepEqual(
        [summary.issuer, summary.audience, summary.passed, summary.total],
        [issuerFile.issuer, issuerFile.audience, AUDIT_CASES.length, AUDIT_CASES.length],
      );
      lines = [];
      assert.equal(await main(['audit', '--target', url, '--keys', join(dir, 'none')], io({})), 2);
      assert.match(lines.at(-1)!.message, /^--keys: cannot read the key folder .*none \(ENOENT\)/);
    } finally {
      await receiver.stop();
      await keySet.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('usage errors exit 2 before sending anything: no target, a remote target, both sandbox flags', async () => {
    assert.equal(await main(['audit'], io()), 2);
    assert.match(lines.at(-1)!.message, /--target is required/);
    assert.equal(
      await main(['audit', '--target', 'https://example.com/webhooks', '--sandbox-url', info.baseUrl], io()),
      2,
    );
    assert.match(lines.at(-1)!.message, /not a loopback address.*--allow-remote/);
    assert.equal(
      await main(
        ['audit', '--target', 'http://127.0.0.1:1/x', '--sandbox-url', info.baseUrl, '--sandbox-port', '1'],
        io(),
      ),
      2,
    );
    assert.equal(lines.filter((l) => l.event === 'case').length, 0);
  });

  it("--sandbox-url without the sandbox's secret: exit 2 saying where to find it; a wrong one: the sandbox's refusal, nothing sent", async () => {
    const rec = new RecordingServer();
    const url = await rec.start();
    try {
      assert.equal(await main(['audit', '--target', url, '--sandbox-url', info.baseUrl], io({})), 2);
      assert.match(
        lines.at(-1)!.message,
        /^--sandbox-url http:\/\/127\.0\.0\.1:\d+: WFS_SANDBOX_SECRET is not set, and the sandbox's control API needs its secret: set it to the "controlSecret" of that sandbox's ready line/,
      );
      assert.equal(
        await main(
          ['audit', '--target', url, '--sandbox-url', info.baseUrl],
          io({ WFS_SANDBOX_SECRET: 'f'.repeat(64) }),
        ),
        1,
      );
      assert.match(
        lines.at(-1)!.message,
        /answered 403 to GET \/sandbox: X-Sandbox-Secret is not this sandbox's secret/,
      );
      assert.equal(rec.requests.length, 0, 'no delivery reached the target');
    } finally {
      await rec.stop();
    }
    assert.equal(lines.filter((l) => l.event === 'case').length, 0);
  });
});
