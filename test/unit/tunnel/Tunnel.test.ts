// The whole path offline: request → tunnel server → tunnel client → receiver; drops and comes back; byte-exact bodies.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import net from 'node:net';
import { request } from 'undici';
import { Tunnel, TunnelError, localhostFallbackWarning, type TunnelState } from '../../../src/core/tunnel/Tunnel';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { english } from '../../../src/core/presentation/said';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { ManualClock } from '../helpers/manualClock';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { LocaltunnelServer } from '../helpers/localtunnelServer';

describe('Tunnel', () => {
  let f: SandboxFixture;
  let server: LocaltunnelServer;
  let receiver: Receiver;
  let localPort: number;
  let tunnel: Tunnel;
  let clock: ManualClock;
  let states: TunnelState[];

  /** Sends a signed delivery to the public URL, addressed by Host as a browser or the service would. */
  async function viaTunnel(publicUrl: string, body: Buffer): Promise<number> {
    const u = new URL(publicUrl);
    const token = await f.sandbox.context.signer.sign(body);
    const res = await request(`http://127.0.0.1:${server.port}/webhooks`, {
      method: 'POST',
      headers: { host: u.host, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    await res.body.dump();
    return res.statusCode;
  }

  beforeEach(async () => {
    f = await startSandbox();
    server = new LocaltunnelServer();
    await server.start();
    clock = new ManualClock();
    receiver = new Receiver({
      verifier: new Verifier({
        issuers: [{ issuer: f.info.issuer, jwksUrl: f.info.jwksUrl, audience: f.info.audience }],
        clock: f.clock,
      }),
      clock: f.clock,
    });
    localPort = Number(new URL(await receiver.start()).port);
    states = [];
    tunnel = new Tunnel({ localPort, host: server.url, clock, openTimeoutMs: 2000, reconnectBaseMs: 1000 });
    tunnel.on('state', (s: TunnelState) => states.push(s));
    // As the extension and `wfs listen` do: the receiver answers the tunnel's public host name too.
    tunnel.on('state', () => tunnel.publicUrl && receiver.setPublicHosts([new URL(tunnel.publicUrl).hostname]));
  });
  afterEach(async () => {
    tunnel.close();
    await receiver.stop();
    await server.stop();
    await f.stop();
  });

  it('opens, and a delivery reaches the receiver verified with a non-UTF-8 body byte-exact', async () => {
    const url = await tunnel.open();
    assert.match(url, /^http:\/\/[0-9a-f]{8}\.tunnel\.test:\d+$/);
    assert.deepEqual(states, ['opening', 'open']);
    const id = new URL(url).hostname.split('.')[0];
    await server.ready(id);
    // {"b":"\xff\xfe\x80"}
    const body = Buffer.from([0x7b, 0x22, 0x62, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x80, 0x22, 0x7d]);
    const status = await viaTunnel(url, body);
    assert.equal(status, 400, 'verified, then refused only because the bytes are not JSON');
    const rec = receiver.history.all()[0];
    assert.equal(rec.verified, true);
    assert.deepEqual(await receiver.history.body(rec.id), body);
  });

  it('carries a genuine JSON delivery end to end (200)', async () => {
    const url = await tunnel.open();
    await server.ready(new URL(url).hostname.split('.')[0]);
    assert.equal(
      await viaTunnel(url, Buffer.from('{"webhookId":"55555555-5555-4555-8555-555555555555","topic":"t/x"}')),
      200,
    );
  });

  it('reaches the receiver (on 127.0.0.1) when "localhost" resolves to ::1 first', async () => {
    // The tunnel client connects to "localhost" (setting local_host would corrupt non-UTF-8 bodies). On a machine
    // whose resolver puts ::1 first, Node's happy-eyeballs connect (autoSelectFamily, on by default since Node 20)
    // must fall back to 127.0.0.1. No machine here resolves it so, so the resolver is made to.
    const original = dns.lookup;
    const asked: string[] = [];
    const ipv6First = ((host: string, options: unknown, callback?: unknown) => {
      const cb = (typeof options === 'function' ? options : callback) as (...a: unknown[]) => void;
      const opts = (typeof options === 'object' && options) || {};
      if (host !== 'localhost') return (original as (...a: unknown[]) => void)(host, options, callback);
      asked.push(host);
      if ((opts as { all?: boolean }).all)
        process.nextTick(cb, null, [
          { address: '::1', family: 6 },
          { address: '127.0.0.1', family: 4 },
        ]);
      else process.nextTick(cb, null, '::1', 6);
    }) as typeof dns.lookup;
    dns.lookup = ipv6First;
    try {
      const url = await tunnel.open();
      await server.ready(new URL(url).hostname.split('.')[0]);
      assert.equal(await viaTunnel(url, Buffer.from('{"webhookId":"77777777-7777-4777-8777-777777777777"}')), 200);
      assert.ok(asked.length > 0, 'the local connection did resolve "localhost" through the ::1-first resolver');
    } finally {
      dns.lookup = original;
    }
  });

  it('warns on open when that fallback is off and localhost resolves to ::1 first', async () => {
    const promises = dns.promises as { lookup: unknown };
    const originalLookup = promises.lookup;
    const originalAuto = net.getDefaultAutoSelectFamily();
    promises.lookup = async (host: string) =>
      host === 'localhost' ? { address: '::1', family: 6 } : { address: '127.0.0.1', family: 4 };
    net.setDefaultAutoSelectFamily(false);
    try {
      const warned = new Promise<Error>((r) => tunnel.once('warning', r));
      await tunnel.open();
      assert.match((await warned).message, /resolves to ::1 first/);
    } finally {
      net.setDefaultAutoSelectFamily(originalAuto);
      promises.lookup = originalLookup;
    }
  });

  it('reconnects with backoff when the server drops and comes back, keeping its id', async () => {
    const url = await tunnel.open();
    const id = new URL(url).hostname.split('.')[0];
    await server.ready(id);
    const port = server.port;
    const scheduled = new Promise<number>((r) => tunnel.once('reconnect-scheduled', r));
    await server.stop();
    assert.equal(await scheduled, 1000);
    assert.equal(tunnel.state, 'reconnecting');
    server = new LocaltunnelServer();
    await server.start(port);
    const reopened = new Promise<void>((r) => tunnel.once('state', (s: TunnelState) => s === 'open' && r()));
    clock.advance(1000);
    await reopened;
    assert.equal(tunnel.publicUrl, url, 'the same id was asked for again');
    await server.ready(id);
    assert.equal(await viaTunnel(url, Buffer.from('{"webhookId":"66666666-6666-4666-8666-666666666666"}')), 200);
  });

  it('renew(): a path the watch found stopped, with no socket failed, is reopened with the same backoff', async () => {
    const url = await tunnel.open();
    const id = new URL(url).hostname.split('.')[0];
    await server.ready(id);
    const warnings: string[] = [];
    tunnel.on('warning', (e: Error) => warnings.push(e.message));
    const scheduled = new Promise<number>((r) => tunnel.once('reconnect-scheduled', r));
    tunnel.renew('the public address stopped reaching the receiver');
    assert.equal(tunnel.state, 'reconnecting');
    assert.equal(await scheduled, 1000);
    assert.deepEqual(warnings, ['the public address stopped reaching the receiver']);
    const reopened = new Promise<void>((r) => tunnel.once('state', (s: TunnelState) => s === 'open' && r()));
    clock.advance(1000);
    await reopened;
    await server.ready(id);
    assert.equal(await viaTunnel(url, Buffer.from('{"webhookId":"77777777-7777-4777-8777-777777777777"}')), 200);
    tunnel.close();
    tunnel.renew('closed: ignored');
    assert.equal(tunnel.state, 'closed');
  });

  it('a server that refuses the opening request fails the open once (no endless retry)', async () => {
    server.refuseWith = 503;
    await assert.rejects(
      tunnel.open(),
      (e: unknown) => e instanceof TunnelError && /refused \(503\)/.test((e as Error).message),
    );
    assert.equal(tunnel.state, 'closed');
    assert.equal(server.openRequests, 1);
  });

  it('a dead tunnel server fails the open with a clear error', async () => {
    await server.stop();
    await assert.rejects(tunnel.open(), /did not open a tunnel/);
    assert.equal(tunnel.state, 'closed');
  });
});

describe('localhostFallbackWarning', () => {
  const resolving = (family: number) => {
    const asked: string[] = [];
    return { asked, resolve: async (host: string) => (asked.push(host), { family }) };
  };

  it('says nothing while happy-eyeballs connects are on (Node 20 default), without even resolving', async () => {
    const r = resolving(6);
    assert.equal(await localhostFallbackWarning(r.resolve, true), undefined);
    assert.deepEqual(r.asked, []);
  });

  it('says nothing when they are off but localhost resolves to 127.0.0.1 first', async () => {
    assert.equal(await localhostFallbackWarning(resolving(4).resolve, false), undefined);
  });

  it('warns, naming the cause and the fixes, when they are off and localhost resolves to ::1 first', async () => {
    const said = await localhostFallbackWarning(resolving(6).resolve, false);
    const w = said && english(said);
    assert.match(w ?? '', /resolves to ::1 first/);
    assert.match(w ?? '', /hosts file/);
    assert.match(w ?? '', /--no-network-family-autoselection/);
  });

  it('a resolver failure is not a warning (the tunnel reports its own errors)', async () => {
    assert.equal(await localhostFallbackWarning(() => Promise.reject(new Error('ENOTFOUND')), false), undefined);
  });
});
