// HTTPS_PROXY / HTTP_PROXY / NO_PROXY in the spawned CLI, against a recording CONNECT proxy on loopback. The
// service is addressed by a .test name that only the proxy can resolve, so success proves the proxy carried it.
import assert from 'node:assert/strict';
import { RecordingProxy } from '../unit/helpers/recordingProxy';
import { startSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';

describe('wfs behind an HTTP proxy', function () {
  this.timeout(60_000);
  let s: SandboxProcess;
  let proxy: RecordingProxy;
  let named: string;
  beforeEach(async () => {
    s = await startSandboxProcess(['--allow-host', 'wfs-sandbox.test']);
    proxy = new RecordingProxy();
    await proxy.start();
    named = s.info.baseUrl.replace('127.0.0.1', 'wfs-sandbox.test');
  });
  afterEach(async () => {
    await proxy.stop();
    await s.stop();
  });

  const start = (env: Record<string, string>) =>
    new WfsProcess(['start', '--session', s.info.sessions.staged, '--service', 'Appraisal', '--model', 'Standard'], { ...s.env, WFS_BASE_URL: named, ...env });

  it('HTTP_PROXY carries the sign-in and the start through CONNECT: exit 0', async () => {
    const p = start({ HTTP_PROXY: proxy.url });
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    const port = new URL(named).port;
    assert.ok(proxy.connects.length >= 1, 'the proxy was asked to connect');
    assert.ok(proxy.connects.every((c) => c === `wfs-sandbox.test:${port}`), proxy.connects.join(', '));
  });

  it('without a proxy the .test name does not resolve: exit 1 with a transport error (the control case)', async () => {
    const p = start({});
    assert.equal(await p.exitCode(), 1);
    assert.equal(p.lines.at(-1)!.kind, 'transport');
    assert.equal(proxy.connects.length, 0);
  });

  it('NO_PROXY naming the host sends it direct (which fails to resolve here), and the proxy sees nothing', async () => {
    const p = start({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,wfs-sandbox.test' });
    assert.equal(await p.exitCode(), 1);
    assert.equal(p.lines.at(-1)!.kind, 'transport');
    assert.equal(proxy.connects.length, 0);
  });

  it('loopback is never proxied: the sandbox at 127.0.0.1 is reached directly with a proxy set', async () => {
    const p = start({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, WFS_BASE_URL: s.info.baseUrl });
    assert.equal(await p.exitCode(), 0, p.stdout);
    assert.deepEqual(proxy.connects, []);
    assert.deepEqual(proxy.forwarded, []);
  });
});
