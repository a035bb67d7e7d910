// Issue 76's "a public path that says when it stops", as a user meets it: `wfs listen --public-url` in front of a
// loopback TCP proxy standing in for their tunnel. The proxy stops (a tunnel dropped after sleep): listen says the
// public address is not reaching the receiver, within 3 minutes, with what the service does and what to do; the
// proxy comes back: listen says so. Real timers, the check every second (--path-check-every 1); the waits are on
// lines, and the 3 minutes are asserted on the clock between the stop and the line.
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { freePort } from '../unit/helpers/freePort';
import { WfsProcess, type Line } from './helpers/wfsProcess';

/** A TCP proxy on a fixed loopback port that forwards to `target`, and can be stopped (every connection cut) and
 * started again on the same port. */
class StandInTunnel {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: number) {}

  async start(): Promise<void> {
    const server = createServer((inbound) => {
      const outbound = connect(this.target, '127.0.0.1');
      for (const s of [inbound, outbound]) {
        this.sockets.add(s);
        s.once('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((r) => server.listen(this.port, '127.0.0.1', r));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}

/** Trust flags for an issuer no probe needs: the probes never reach verification, and no delivery is sent. */
const TRUST = ['--issuer', 'https://issuer.example', '--audience', 'wfs', '--jwks-url', 'http://127.0.0.1:9/jwks'];

describe('wfs listen: the public path watch', function () {
  this.timeout(60_000);
  const tunnels: StandInTunnel[] = [];
  afterEach(async () => {
    for (const t of tunnels.splice(0)) await t.stop();
  });

  async function listenBehindProxy(...extra: string[]): Promise<{ listen: WfsProcess; tunnel: StandInTunnel }> {
    const port = await freePort();
    const tunnel = new StandInTunnel(port);
    tunnels.push(tunnel);
    await tunnel.start();
    const publicUrl = `http://127.0.0.1:${tunnel.port}/webhooks`;
    const listen = new WfsProcess([
      'listen',
      ...TRUST,
      '--port',
      String(port),
      '--public-url',
      publicUrl,
      '--path-check-every',
      '1',
      ...extra,
    ]);
    return { listen, tunnel };
  }

  const pathLine =
    (state: string, after = 0) =>
    (l: Line) =>
      l.event === 'public-path' && l.state === state && Date.parse(l.at) >= after;

  it('says "not-reaching" within 3 minutes of the proxy stopping, and "reaching" again once it is back', async () => {
    const { listen, tunnel } = await listenBehindProxy();
    const ready = await listen.event('ready');
    assert.equal(ready.publicUrl, `http://127.0.0.1:${tunnel.port}/webhooks`);
    const first = await listen.line(pathLine('reaching'), 'the first check reaching the receiver');
    assert.equal(first.downMs, null);

    await tunnel.stop();
    const stoppedAt = Date.now();
    const down = await listen.line(pathLine('not-reaching'), 'a "not-reaching" line');
    const saidAfterMs = Date.now() - stoppedAt;
    assert.ok(saidAfterMs < 180_000, `said ${saidAfterMs} ms after the proxy stopped`);
    assert.equal(down.publicUrl, ready.publicUrl);
    assert.equal(down.failedHop, 'connect', down.detail);
    assert.match(down.detail, /ECONNREFUSED/);
    assert.match(down.message, /not reaching the receiver/);
    assert.match(down.meanwhile, /resends a delivery answered with a status of 500 or more/);
    assert.match(down.whatToDo, /wfs test-webhook/);
    assert.match(down.whatToDo, /wfs status --workflow/);
    assert.equal(listen.events('public-path').filter((l) => l.state === 'not-reaching').length, 1);

    await tunnel.start();
    const back = await listen.line((l) => pathLine('reaching')(l) && l.downMs !== null, 'a "reaching" line again');
    assert.ok(back.downMs > 0);
    assert.match(back.message, /reaching the receiver again/);
    assert.match(back.meanwhile, /count those as lost/);
    assert.deepEqual(listen.events('delivery'), [], 'the checks are not deliveries: nothing recorded');
    await listen.stopCleanly();
  });

  it('in text: the stop in words with what to do, and the return', async () => {
    const { listen, tunnel } = await listenBehindProxy('--human');
    await listen.line((l) => /reaches the receiver/.test(l.text ?? ''), 'the first check in words');
    await tunnel.stop();
    await listen.line((l) => /Public address not reaching the receiver/.test(l.text ?? ''), 'the stop in words');
    await listen.line((l) => /what to do: Resend test webhooks/.test(l.text ?? ''), 'what to do');
    await tunnel.start();
    await listen.line((l) => /reaching the receiver again/.test(l.text ?? ''), 'the return in words');
    await listen.stopCleanly();
  });

  it('--path-check-every 0 turns the checks off; without a public address the flag is a usage error', async () => {
    const off = await listenBehindProxy('--path-check-every', '0');
    await off.listen.event('ready');
    const quiet = new WfsProcess(['listen', ...TRUST, '--path-check-every', '5']);
    assert.equal(await quiet.exitCode(), 2);
    assert.match(quiet.stdout, /--path-check-every checks the public address: add --public-url URL or --tunnel/);
    assert.deepEqual(off.listen.events('public-path'), []);
    await off.listen.stopCleanly();
  });
});
