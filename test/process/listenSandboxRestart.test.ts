// Issue #79, item 3, where it was met: restarting `wfs sandbox` silently cut off a running
// `wfs listen --trust-sandbox`: its registration was gone and the next workflow's events never arrived. Now the
// listener notices the sandbox came back without it, registers again, and says so; the next workflow's events
// arrive, verified.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { WfsProcess } from './helpers/wfsProcess';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('wfs listen --trust-sandbox across a sandbox restart (#79, item 3)', function () {
  this.timeout(90_000);

  it('the sandbox killed and started again on its port: registered again, said once, and events arrive', async () => {
    const port = String(await freePort());
    const first = new WfsProcess(['sandbox', '--port', port]);
    const ready = await first.event('ready');
    const listen = new WfsProcess(['listen', '--trust-sandbox', ready.baseUrl, '--port', '0'], {
      WFS_SANDBOX_SECRET: ready.controlSecret,
    });
    const listening = await listen.event('ready');

    first.kill('SIGKILL'); // a crash: nothing unregistered, nothing said
    await first.exited;
    const lost = await listen.line((l) => l.event === 'warning' && /does not answer/.test(l.message), 'the loss');
    assert.match(lost.message, /registers again when it is back/);

    const second = new WfsProcess(['sandbox', '--port', port]);
    const again = await second.event('ready');
    assert.equal(again.controlSecret, ready.controlSecret, 'a fixed port keeps its secret');
    const registered = await listen.event('sandbox-registered');
    assert.equal(registered.url, listening.url);
    assert.equal(registered.sandbox, ready.baseUrl);
    assert.match(registered.message, /registered .* again/);

    const start = new WfsProcess(
      ['start', '--session', 'sess-demo-staged', '--service', 'Appraisal', '--model', 'Standard'],
      {
        WFS_BASE_URL: again.baseUrl,
        WFS_USERNAME: again.username,
        WFS_PASSWORD: again.password,
      },
    );
    assert.equal(await start.exitCode(), 0, start.stderr);
    const event = await listen.line(
      (l) => l.event === 'delivery' && l.topic === 'workflow/started',
      "the restarted sandbox's workflow event",
    );
    assert.equal(event.verified, true);
    assert.equal(listen.events('sandbox-registered').length, 1, 'said once');
    await listen.stopCleanly();
    await second.stopCleanly();
  });
});
