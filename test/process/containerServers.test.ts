// `wfs listen` and `wfs sandbox` as a container runs them: bound to every interface, answering only loopback names
// and --allow-host names (421 for any other Host), GET /healthz for the healthcheck, and a clean stop on SIGTERM
// within 5 s (the grace a container runtime gives before SIGKILL is 10 s by default).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rawRequest } from '../unit/helpers/rawHttp';
import { WfsProcess, type Line } from './helpers/wfsProcess';

/** A container runtime's bound on a clean stop, as the done-when sets it. */
const STOP_BOUND_MS = 5000;

/** Sends SIGTERM and measures how long the process takes to exit; asserts exit 0 and a "stopped" line. */
async function stoppedWithin(p: WfsProcess): Promise<number> {
  const t0 = performance.now();
  p.kill('SIGTERM');
  const { code } = await p.exited;
  const ms = performance.now() - t0;
  assert.equal(code, 0, `stopped by SIGTERM, it exits 0; stderr:\n${p.stderr}`);
  assert.ok(
    p.lines.some((l) => l.event === 'stopped'),
    'it says it stopped',
  );
  return ms;
}

const post = (url: string, host: string) =>
  rawRequest(url, { body: '{}', headers: { host, 'content-type': 'application/json' } });

describe('listen and sandbox in a container: every interface, Host check, /healthz, SIGTERM', function () {
  this.timeout(60_000);

  it('wfs listen --host 0.0.0.0 --allow-host app: 421 for a foreign Host, /healthz, stops on SIGTERM within 5 s', async () => {
    const p = new WfsProcess([
      'listen',
      '--host',
      '0.0.0.0',
      '--allow-host',
      'app',
      '--issuer',
      'https://issuer.test',
      '--audience',
      'aud',
      '--jwks-url',
      'http://127.0.0.1:9/jwks.json',
    ]);
    const ready = await p.event('ready');
    assert.equal(ready.listeningOn, '0.0.0.0');
    assert.deepEqual(ready.allowedHosts, ['app']);
    const port = new URL(ready.url).port;
    assert.equal(ready.url, `http://127.0.0.1:${port}/webhooks`, 'its URL here is a loopback one, to connect to');
    const health = `http://127.0.0.1:${port}/healthz`;
    for (const host of [`app:${port}`, 'app', `localhost:${port}`, `127.0.0.1:${port}`]) {
      const h = await rawRequest(health, { headers: { host } });
      assert.equal(h.status, 200, host);
      assert.deepEqual(h.json(), { status: 'ok', service: 'receiver' });
    }
    assert.equal((await rawRequest(health, { headers: { host: 'evil.example' } })).status, 421);
    assert.equal((await post(ready.url, 'evil.example')).status, 421, 'a foreign Host: 421');
    assert.equal((await post(ready.url, `app:${port}`)).status, 403, 'the named one reaches the verifier');
    // Each delivery line comes as its request is answered: the health checks made none.
    await p.line(() => p.events('delivery').length >= 3, 'three delivery lines');
    assert.deepEqual(
      p.events('delivery').map((d: Line) => d.status),
      [421, 421, 403],
      'the foreign /healthz and POST were refused and recorded; the health checks were not deliveries',
    );
    const ms = await stoppedWithin(p);
    assert.ok(ms < STOP_BOUND_MS, `stopped in ${Math.round(ms)} ms`);
  });

  it('without --allow-host, every interface still answers only loopback names', async () => {
    const q = new WfsProcess([
      'listen',
      '--host',
      '0.0.0.0',
      '--issuer',
      'i',
      '--audience',
      'a',
      '--jwks-url',
      'http://127.0.0.1:9/k',
    ]);
    const ready = await q.event('ready');
    assert.equal((await post(ready.url, 'app')).status, 421);
    assert.equal((await post(ready.url, 'localhost')).status, 403);
    await q.stopCleanly();
  });

  it('as text: the ready line says it listens on every interface and which names it answers', async () => {
    const p = new WfsProcess([
      'listen',
      '--human',
      '--host',
      '0.0.0.0',
      '--allow-host',
      'app',
      '--issuer',
      'i',
      '--audience',
      'a',
      '--jwks-url',
      'http://127.0.0.1:9/k',
    ]);
    const row = await p.line((l) => /listening on/.test(String(l.text)), 'the listening-on row');
    assert.match(
      row.text,
      /listening on\s+0\.0\.0\.0, every interface; answers loopback names, app \(any other Host: 421\)$/,
    );
    await p.stopCleanly();
  });

  it('refuses an address that is neither loopback nor every interface, and an --allow-host that is not a name', async () => {
    const trust = ['--issuer', 'i', '--audience', 'a', '--jwks-url', 'http://127.0.0.1:9/k'];
    const wrongHost = new WfsProcess(['listen', '--host', '192.0.2.1', ...trust]);
    assert.equal(await wrongHost.exitCode(), 2);
    assert.match(wrongHost.stdout, /--host must be a loopback address, or 0\.0\.0\.0 or ::/);
    const url = new WfsProcess(['listen', '--host', '0.0.0.0', '--allow-host', 'http://app:3000', ...trust]);
    assert.equal(await url.exitCode(), 2);
    assert.match(url.stdout, /--allow-host .*not a host name \(a URL or a path\?\).*--allow-host app/);
    const sandbox = new WfsProcess(['sandbox', '--port', '0', '--allow-host', 'app:4010']);
    assert.equal(await sandbox.exitCode(), 2, 'the sandbox checks --allow-host the same way');
  });

  it('wfs sandbox --host 0.0.0.0 --allow-host sandbox: /healthz without a secret and no request line, 421 for a foreign Host, SIGTERM within 5 s', async () => {
    const secret = randomBytes(32).toString('hex');
    const p = new WfsProcess(['sandbox', '--host', '0.0.0.0', '--port', '0', '--allow-host', 'sandbox'], {
      WFS_SANDBOX_SECRET: secret,
    });
    const ready = await p.event('ready');
    assert.equal(ready.controlSecret, secret, 'WFS_SANDBOX_SECRET is its control secret');
    assert.equal(ready.listeningOn, '0.0.0.0');
    const port = new URL(ready.baseUrl).port;
    const health = `${ready.baseUrl}/healthz`;
    const ok = await rawRequest(health, { headers: { host: `sandbox:${port}` } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json(), { status: 'ok', service: 'sandbox' });
    assert.equal((await rawRequest(health, { headers: { host: 'evil.example' } })).status, 421);
    const jwks = await rawRequest(`${ready.baseUrl}/.well-known/jwks.json`, { headers: { host: `sandbox:${port}` } });
    assert.equal(jwks.status, 200, 'its key set answers the allowed name');
    await p.line(() => p.events('request').length >= 2, 'two request lines');
    assert.deepEqual(
      p.events('request').map((r: Line) => `${r.path} ${r.status}`),
      ['/healthz 421', '/.well-known/jwks.json 200'],
      'a health check that passes is not logged; a refused one is',
    );
    const ms = await stoppedWithin(p);
    assert.ok(ms < STOP_BOUND_MS, `stopped in ${Math.round(ms)} ms`);
  });

  it('wfs sandbox refuses a WFS_SANDBOX_SECRET too short to guard signing', async () => {
    const p = new WfsProcess(['sandbox', '--port', '0'], { WFS_SANDBOX_SECRET: 'changeme' });
    assert.equal(await p.exitCode(), 2);
    assert.match(p.stdout, /WFS_SANDBOX_SECRET holds 8 characters: a sandbox takes a secret of at least 32/);
  });
});
