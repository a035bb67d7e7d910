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

  it('without --sandbox-url it runs its own sandbox (on --sandbox-port) and names its key set in the summary', async () => {
    const rec = new RecordingServer();
    rec.respond = () => 403;
    const url = await rec.start();
    try {
      assert.equal(await main(['audit', '--target', url, '--sandbox-port', '0'], io()), 1);
    } finally {
      await rec.stop();
    }
    const summary = lines.at(-1)!;
    assert.match(summary.jwksUrl, /^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json$/);
    assert.equal(summary.failed, 3, 'a receiver refusing everything fails the three cases that expect 200');
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
