// "Test Public Address": a working path, and one broken path per hop, each on loopback stand-ins: a reverse
// proxy, a closed port, a tunnel's reminder page, a tunnel that answers itself, one that never answers, a name
// that does not resolve, a TLS mismatch, and a receiver that refuses.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { SystemClock } from '../../../src/core/time/clock';
import { testPublicAddress } from '../../../src/core/tunnel/publicAddressTest';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';

const clock = new SystemClock();

function listen(server: Server): Promise<number> {
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
}
function close(server: Server): Promise<void> {
  return new Promise((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });
}

/** A reverse proxy that forwards everything to the receiver, rewriting Host to its own public name. */
function reverseProxy(targetPort: number, publicHost: string): Server {
  return createServer((req, res) => {
    const up = request(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: publicHost },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
}

describe('testPublicAddress', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  let receiver: Receiver;
  let receiverPort: number;
  const sign = (body: Buffer) => sandbox.context.signer.sign(body);
  const servers: Server[] = [];
  const serve = async (s: Server) => {
    servers.push(s);
    return listen(s);
  };

  beforeEach(async () => {
    sandbox = new Sandbox({ port: 0 });
    const info = await sandbox.start();
    receiver = new Receiver({
      verifier: new Verifier({
        issuers: [{ issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl }],
        clock,
      }),
      clock,
    });
    receiverPort = Number(new URL(await receiver.start()).port);
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await close(s);
    await receiver.stop();
    await sandbox.stop();
  });

  it('a working path: the signed delivery arrives verified, with its round trip', async () => {
    receiver.setPublicHosts(['public.example']);
    const port = await serve(reverseProxy(receiverPort, 'public.example'));
    const r = await testPublicAddress({ publicUrl: `http://127.0.0.1:${port}/webhooks`, receiver, sign, clock });
    assert.equal(r.ok, true, r.detail);
    assert.equal(r.arrived, true);
    assert.equal(r.status, 200);
    assert.ok(r.roundTripMs! > 0);
    assert.equal(r.failedHop, undefined);
    const rec = receiver.history.all().at(-1)!;
    assert.equal(rec.topic, 'wfs/self-test');
    assert.equal(rec.verified, true);
  });

  it('dns: a name that does not resolve', async () => {
    const dispatcher = new Agent({
      connect: {
        lookup: (_h: string, _o: unknown, cb: (e: Error) => void) =>
          cb(Object.assign(new Error('getaddrinfo ENOTFOUND gone.example'), { code: 'ENOTFOUND' })),
      } as never,
    });
    const r = await testPublicAddress({ publicUrl: 'http://gone.example/webhooks', receiver, sign, clock, dispatcher });
    await dispatcher.close();
    assert.deepEqual([r.ok, r.failedHop, r.arrived], [false, 'dns', false]);
    assert.match(r.detail, /gone\.example does not resolve \(ENOTFOUND\)/);
  });

  it('connect: nothing listens at the address', async () => {
    const port = await serve(createServer());
    await close(servers.pop()!);
    const r = await testPublicAddress({ publicUrl: `http://127.0.0.1:${port}/webhooks`, receiver, sign, clock });
    assert.deepEqual([r.failedHop, r.arrived], ['connect', false]);
    assert.match(r.detail, /no connection to 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('tls: an https address whose other end does not speak TLS', async () => {
    const port = await serve(createServer((_q, s) => s.end()));
    const r = await testPublicAddress({ publicUrl: `https://127.0.0.1:${port}/webhooks`, receiver, sign, clock });
    assert.equal(r.failedHop, 'tls', r.detail);
  });

  it('reminder-page: the tunnel answers with its reminder page instead of forwarding', async () => {
    const port = await serve(
      createServer((_q, s) =>
        s
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><h1>Friendly Reminder</h1><p>This website is served via a localtunnel.</p></html>'),
      ),
    );
    const r = await testPublicAddress({ publicUrl: `http://127.0.0.1:${port}/webhooks`, receiver, sign, clock });
    assert.deepEqual([r.failedHop, r.arrived, r.status], ['reminder-page', false, 200]);
  });

  it('tunnel: something answers, but the receiver never sees the request', async () => {
    const port = await serve(createServer((_q, s) => s.writeHead(502, { server: 'tunnel-edge' }).end('no upstream')));
    const r = await testPublicAddress({ publicUrl: `http://127.0.0.1:${port}/webhooks`, receiver, sign, clock });
    assert.deepEqual([r.failedHop, r.arrived, r.status], ['tunnel', false, 502]);
    assert.match(r.detail, /answered 502 \(server: tunnel-edge\), but the request never reached the receiver/);
  });

  it('timeout: the tunnel takes the request and drops it silently', async () => {
    const port = await serve(createServer(() => undefined));
    const r = await testPublicAddress({
      publicUrl: `http://127.0.0.1:${port}/webhooks`,
      receiver,
      sign,
      clock,
      timeoutMs: 300,
    });
    assert.deepEqual([r.failedHop, r.arrived], ['timeout', false]);
    assert.match(r.detail, /nothing reached the receiver/);
  });

  it('receiver: the delivery arrives and is refused, with the step', async () => {
    const port = await serve(reverseProxy(receiverPort, '127.0.0.1'));
    const r = await testPublicAddress({
      publicUrl: `http://127.0.0.1:${port}/webhooks`,
      receiver,
      sign: async () => 'a.b.c',
      clock,
    });
    assert.deepEqual([r.failedHop, r.arrived, r.status], ['receiver', true, 403]);
    assert.match(r.detail, /answered 403: step 2/);
  });
});
