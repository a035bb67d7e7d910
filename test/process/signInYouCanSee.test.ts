// Sign-in you can see: `wfs env` shows what the commands would use (never the password), `wfs sign-in` checks the
// credentials and says how long the tokens last; a dead service is said in words with its errno kept; a typo'd
// command gets "did you mean".
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

describe('wfs env and wfs sign-in', function () {
  this.timeout(60_000);
  const s = withSandboxProcess(['--access-token-ttl', '90']);

  it('env: the service, its origin, the user and "password set", never the password; the proxy without its credentials; exit 0', async () => {
    const p = new WfsProcess(['env'], { ...s.env, HTTP_PROXY: 'http://me:secret@proxy.example:3128' });
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    const line = p.lines.at(-1)!;
    assert.deepEqual(
      [line.event, line.baseUrl, line.origin, line.username, line.passwordSet, line.missing],
      ['env', s.info.baseUrl, new URL(s.info.baseUrl).origin, s.info.username, true, []],
    );
    assert.equal(line.proxy, null, 'loopback is never proxied');
    assert.ok(!p.stdout.includes(s.info.password) && !p.stdout.includes('secret'), p.stdout);
    const remote = new WfsProcess(['env'], {
      WFS_BASE_URL: 'http://svc.example',
      HTTP_PROXY: 'http://me:secret@proxy.example:3128',
    });
    assert.equal(await remote.exitCode(), 2, 'credentials missing');
    assert.deepEqual(
      [remote.lines.at(-1)!.proxy, remote.lines.at(-1)!.missing],
      ['http://proxy.example:3128/', ['WFS_USERNAME', 'WFS_PASSWORD']],
    );
    assert.ok(!remote.stdout.includes('secret'));
  });

  it("sign-in: exit 0 with the access token's lifetime, no token printed; a wrong password is exit 1", async () => {
    const p = new WfsProcess(['sign-in'], s.env);
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    const line = p.lines.at(-1)!;
    assert.deepEqual(
      [line.event, line.origin, line.username],
      ['signed-in', new URL(s.info.baseUrl).origin, s.info.username],
    );
    assert.ok(
      line.accessExpiresInSeconds > 80 && line.accessExpiresInSeconds <= 90,
      String(line.accessExpiresInSeconds),
    );
    assert.doesNotMatch(p.stdout, /eyJ/, 'no JWT');
    const wrong = new WfsProcess(['sign-in'], { ...s.env, WFS_PASSWORD: 'nope' });
    assert.equal(await wrong.exitCode(), 1);
  });

  it('a service with nothing listening: "nothing is listening at <origin> (ECONNREFUSED)" and what to check, the code kept; exit 1', async () => {
    // A port that was free a moment ago: closed, so nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const p = new WfsProcess(['sign-in'], { ...s.env, WFS_BASE_URL: `http://127.0.0.1:${port}` });
    assert.equal(await p.exitCode(), 1);
    const err = p.lines.at(-1)!;
    assert.deepEqual([err.kind, err.code], ['transport', 'ECONNREFUSED']);
    assert.equal(
      err.message,
      `nothing is listening at http://127.0.0.1:${port} (ECONNREFUSED): check that the service is running and that WFS_BASE_URL (or a proxy) is right`,
    );
  });

  it('a typo\'d command: "did you mean", exit 2', async () => {
    const p = new WfsProcess(['stauts']);
    assert.equal(await p.exitCode(), 2);
    assert.match(p.lines.at(-1)!.message, /^unknown command "stauts" \(did you mean `wfs status`\?\)/);
  });
});
