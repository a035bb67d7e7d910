// #69: the command-line loop closed. `wfs listen --trust-sandbox` registers its address with that sandbox, so the
// events of a workflow that `wfs start` starts arrive at the listener, verified; at exit the address is removed.
import assert from 'node:assert/strict';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { startArgs } from './helpers/commandArgs';

describe('wfs listen gets the workflow events of the sandbox it trusts', function () {
  this.timeout(60_000);
  const s = withSandboxProcess([]);

  it('start → the workflow events arrive at listen, verified; at exit the address is removed', async () => {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl], s.env);
    const ready = await listen.event('ready');
    const registered = (await s.control('GET', 'webhooks')).json().endpoints;
    assert.deepEqual(registered, [ready.url]);

    const start = new WfsProcess(startArgs(s), s.env);
    assert.equal(await start.exitCode(), 0, start.stdout + start.stderr);
    const delivery = await listen.line((l) => l.event === 'delivery' && /^workflow\//.test(l.topic ?? ''));
    assert.deepEqual([delivery.status, delivery.verified], [200, true]);

    await listen.stopCleanly('SIGINT');
    assert.deepEqual(listen.events('warning'), []);
    assert.deepEqual((await s.control('GET', 'webhooks')).json().endpoints, []);
  });
});
