// One rule for every command that acts on a sandbox (issue #69, point 7): the sandbox the environment names
// (WFS_BASE_URL with WFS_SANDBOX_SECRET, as the `export` line of `wfs sandbox` sets them) unless --sandbox-url names
// another. `sandbox fault`, `sandbox faults`, `sandbox rotate-key` and `sign`, each with the environment alone, each
// with a flag that overrides it, and each naming everything missing in one message. A sandbox that is not running is
// one error in the same words and with the same exit code for every command (issue #75).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const DEAD = 'http://127.0.0.1:9';

describe('the environment names the sandbox, a flag another', function () {
  this.timeout(60_000);
  const s = withSandboxProcess([], { perTest: true });
  /** What the `export` line of `wfs sandbox` sets. */
  const exported = () => ({ WFS_BASE_URL: s.info.baseUrl, WFS_SANDBOX_SECRET: s.info.controlSecret });

  async function wfs(args: string[], env: Record<string, string>): Promise<WfsProcess> {
    const p = new WfsProcess(args, env);
    await p.exited;
    return p;
  }

  it("sandbox fault, faults and rotate-key act on the environment's sandbox with no flag", async () => {
    const fault = await wfs(['sandbox', 'fault', 'throttle', '--count', '2'], exported());
    assert.equal(await fault.exitCode(), 0, fault.stdout + fault.stderr);
    assert.deepEqual(fault.lines, [{ event: 'fault-injected', fault: 'throttle', count: 2, pending: { throttle: 2 } }]);
    assert.deepEqual((await s.control('GET', 'faults')).json().pending, { throttle: 2 }, 'the sandbox has it');
    const listed = await wfs(['sandbox', 'faults'], exported());
    assert.equal(await listed.exitCode(), 0, listed.stderr);
    assert.deepEqual(listed.lines[0]!.pending, { throttle: 2 });
    const cleared = await wfs(['sandbox', 'faults', '--clear'], exported());
    assert.deepEqual(cleared.lines, [{ event: 'faults-cleared', pending: {}, delivery: null }]);
    assert.deepEqual((await s.control('GET', 'faults')).json().pending, {});
    const rotated = await wfs(['sandbox', 'rotate-key'], exported());
    assert.equal(await rotated.exitCode(), 0, rotated.stderr);
    const kid = rotated.lines[0]!.kid as string;
    assert.notEqual(kid, s.info.kid);
    const keys = (await (await fetch(s.info.jwksUrl)).json()) as { keys: { kid: string }[] };
    assert.ok(keys.keys.some((k) => k.kid === kid));
  });

  it("wfs sign --body FILE signs with the environment's sandbox; its key set verifies the token", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-envsign-')), 'event.json');
    writeFileSync(file, '{"topic":"workflow/completed"}');
    const signed = await wfs(['sign', '--body', file, '--format', 'json'], exported());
    assert.equal(await signed.exitCode(), 0, signed.stdout + signed.stderr);
    const { payload } = await jwtVerify(signed.lines[0]!.token, createRemoteJWKSet(new URL(s.info.jwksUrl)), {
      issuer: s.info.issuer,
      audience: s.info.audience,
    });
    assert.equal(payload.body_sha256, createHash('sha256').update('{"topic":"workflow/completed"}').digest('hex'));
  });

  it("--sandbox-url names another sandbox than the environment's", async () => {
    const env = { WFS_BASE_URL: DEAD, WFS_SANDBOX_SECRET: s.info.controlSecret };
    const fault = await wfs(['sandbox', 'fault', 'start-500', '--sandbox-url', s.info.baseUrl], env);
    assert.equal(await fault.exitCode(), 0, fault.stdout + fault.stderr);
    assert.deepEqual((await s.control('GET', 'faults')).json().pending, { 'start-500': 1 });
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-envsign-')), 'b.json');
    writeFileSync(file, '{}');
    const signed = await wfs(['sign', '--body', file, '--sandbox-url', s.info.baseUrl], env);
    assert.equal(await signed.exitCode(), 0, signed.stdout + signed.stderr);
    assert.match(signed.stdout, /^Bearer [\w-]+\.[\w-]+\.[\w-]+\n$/);
  });

  it('nothing named: one message that names both variables and the flag, exit 2, nothing sent', async () => {
    const before = s.requests().length;
    const expected =
      'no sandbox named: --sandbox-url is not given and WFS_BASE_URL and WFS_SANDBOX_SECRET are not set. Paste the `export` line that `wfs sandbox` prints (it sets WFS_BASE_URL and WFS_SANDBOX_SECRET), or give --sandbox-url URL with WFS_SANDBOX_SECRET set';
    for (const args of [
      ['sandbox', 'fault', 'throttle'],
      ['sandbox', 'faults'],
      ['sandbox', 'rotate-key'],
    ]) {
      const p = await wfs(args, {});
      assert.equal(await p.exitCode(), 2, args.join(' '));
      assert.deepEqual(p.lines, [{ event: 'error', kind: 'usage', message: expected }], args.join(' '));
    }
    // WFS_BASE_URL alone may be a real service: the secret is what names a sandbox.
    const half = await wfs(['sandbox', 'faults'], { WFS_BASE_URL: s.info.baseUrl });
    assert.equal(await half.exitCode(), 2);
    assert.match(
      half.lines[0]!.message,
      /^no sandbox named: --sandbox-url is not given and WFS_SANDBOX_SECRET is not set\./,
    );
    // What else is wrong comes in the same message.
    const typo = await wfs(['sandbox', 'fault', 'throtle'], {});
    assert.equal(await typo.exitCode(), 2);
    assert.match(
      typo.lines[0]!.message,
      /^unknown fault "throtle" \(did you mean throttle\?\): .*; and no sandbox named: /,
    );
    const sign = await wfs(['sign', '--body', 'event.json'], {});
    assert.equal(await sign.exitCode(), 2);
    assert.match(
      sign.lines[0]!.message,
      /^nothing to sign with: no --keys DIR, and no sandbox \(WFS_BASE_URL and WFS_SANDBOX_SECRET are not set\)\. Give --keys DIR/,
    );
    assert.equal(s.requests().length, before, 'the sandbox saw no request');
  });

  it("the environment's sandbox not running: one line that says so and names WFS_BASE_URL, exit 1", async () => {
    const env = { WFS_BASE_URL: DEAD, WFS_SANDBOX_SECRET: 'x' };
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-envsign-')), 'c.json');
    writeFileSync(file, '{}');
    for (const args of [
      ['sandbox', 'rotate-key'],
      ['sign', '--body', file],
    ]) {
      const p = await wfs(args, env);
      assert.equal(await p.exitCode(), 1, args.join(' '));
      assert.deepEqual(p.lines.at(-1), {
        event: 'error',
        kind: 'transport',
        reason: 'network',
        code: 'ECONNREFUSED',
        message:
          'nothing is listening at http://127.0.0.1:9 (ECONNREFUSED): is `wfs sandbox` running there? Its ready line gives its baseUrl (WFS_BASE_URL names it here).',
      });
    }
  });

  it('a sandbox not running, named by a flag: every command says it in the same words, with the same exit code', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-deadsign-')), 'c.json');
    writeFileSync(file, '{}');
    const env = { WFS_SANDBOX_SECRET: 'a secret, so that the address is tried' };
    const runs: [string[], string][] = [
      [['sandbox', 'faults', '--sandbox-url', DEAD], '--sandbox-url'],
      [['sign', '--body', file, '--sandbox-url', DEAD], '--sandbox-url'],
      [['listen', '--no-tunnel', '--trust-sandbox', DEAD], '--trust-sandbox'],
      // With --http, its lines are on standard output as every command's; on stdio they go to standard error.
      [['mcp', '--http', '0', '--sandbox-url', DEAD], '--sandbox-url'],
    ];
    for (const [args, flag] of runs) {
      const p = await wfs(args, env);
      assert.equal(await p.exitCode(), 1, `${args.join(' ')}: ${p.stderr}`);
      assert.deepEqual(p.lines.at(-1), {
        event: 'error',
        kind: 'transport',
        reason: 'network',
        code: 'ECONNREFUSED',
        message: `nothing is listening at ${DEAD} (ECONNREFUSED): is \`wfs sandbox\` running there? Its ready line gives its baseUrl (${flag} names it here).`,
      });
    }
  });
});
