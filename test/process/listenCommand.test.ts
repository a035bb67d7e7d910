// `wfs listen`, `wfs sandbox` and `wfs audit` as long-running processes: trust from flags or a running sandbox, a
// key set that fails and recovers, a tunnel server that goes away, and a clean end on SIGINT/SIGTERM.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocaltunnelServer } from '../unit/helpers/localtunnelServer';
import { freePort } from '../unit/helpers/freePort';
import { BrokenReceiver } from '../unit/helpers/brokenReceiver';
import { RecordingServer } from '../unit/helpers/recordingServer';
import { validateJunit } from '../unit/helpers/junitSchema';
import { startSandboxProcess, withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { sendDelivery, signedBy } from './helpers/deliveries';
import { testWebhookArgs } from './helpers/commandArgs';

describe('wfs listen / sandbox / audit as processes', function () {
  this.timeout(60_000);
  const s = withSandboxProcess([], { perTest: true });

  /** `wfs listen` trusting this test's sandbox, with the flags the test adds. */
  const listenTo = (...flags: string[]): WfsProcess =>
    new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, ...flags]);

  /** Posts body signed by the sandbox, as the service signs each attempt anew; resolves with the status. */
  async function postSigned(url: string, body: Buffer): Promise<number> {
    return sendDelivery(url, { body, token: await signedBy(s.info.baseUrl, body) });
  }

  /** Starts the listener again (on the file it had) and sends body again: a duplicate, answered 200, not forwarded. */
  async function sentAgainIsDuplicate(
    run: () => WfsProcess,
    body: Buffer,
    app: RecordingServer,
    forwarded: number,
  ): Promise<void> {
    const second = run();
    assert.equal(await postSigned((await second.event('ready')).url, body), 200);
    const again = await second.event('delivery');
    assert.deepEqual([again.status, again.verified, again.duplicate, again.forward], [200, true, true, undefined]);
    assert.equal(app.requests.length, forwarded, 'your app got each event once');
    await second.stopCleanly();
  }

  /** exit: 0, or 7 when the receiver is meant to refuse (test-webhook reports a delivery the address refused). */
  async function send(address: string, exit = 0): Promise<WfsProcess> {
    const p = new WfsProcess(testWebhookArgs(address), s.env);
    assert.equal(await p.exitCode(), exit, p.stdout + p.stderr);
    return p;
  }

  it('--issuer/--audience/--jwks-url: trusts exactly what the flags say; SIGINT stops it with exit 0', async () => {
    const listen = new WfsProcess([
      'listen',
      '--no-tunnel',
      '--issuer',
      s.info.issuer,
      '--audience',
      s.info.audience,
      '--jwks-url',
      s.info.jwksUrl,
    ]);
    const ready = await listen.event('ready');
    assert.deepEqual(ready.issuers, [s.info.issuer]);
    await send(ready.url);
    const d = await listen.event('delivery');
    assert.deepEqual([d.status, d.verified], [200, true]);
    await listen.stopCleanly('SIGINT');
    assert.equal(listen.lines.at(-1)!.event, 'stopped');
  });

  it('a --port already in use: exit 1 with a listen error naming the port, for listen and for sandbox', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      for (const args of [
        ['listen', '--trust-sandbox', s.info.baseUrl, '--port', String(port)],
        ['sandbox', '--port', String(port)],
      ]) {
        const p = new WfsProcess(args);
        assert.equal(await p.exitCode(), 1, args[0]);
        const error = p.lines.at(-1)!;
        assert.deepEqual([error.event, error.kind, error.code], ['error', 'listen', 'EADDRINUSE'], args[0]);
        assert.equal(
          error.message,
          `port ${port} on 127.0.0.1 is already in use by another process: choose another port, or 0 for a free one (--port ${port})`,
        );
        assert.equal(p.stderr, '', 'no stack trace');
      }
    } finally {
      taken.close();
    }
  });

  it('two sandboxes (one issuer string, two key sets): each has its own kid, and one receiver verifies both', async () => {
    const s2 = await startSandboxProcess();
    try {
      assert.equal(s2.info.issuer, s.info.issuer, 'every sandbox signs as the same issuer');
      assert.notEqual(s2.info.kid, s.info.kid, 'but under a kid of its own (its key thumbprint)');
      const listen = new WfsProcess([
        'listen',
        '--no-tunnel',
        ...[s, s2].flatMap((x) => [
          '--issuer',
          x.info.issuer,
          '--audience',
          x.info.audience,
          '--jwks-url',
          x.info.jwksUrl,
        ]),
      ]);
      const ready = await listen.event('ready');
      for (const sandbox of [s, s2]) {
        const p = new WfsProcess(testWebhookArgs(ready.url), sandbox.env);
        assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
      }
      await listen.line(() => listen.events('delivery').length >= 2, 'two delivery lines');
      const [a, b] = listen.events('delivery');
      assert.deepEqual([a!.verified, b!.verified], [true, true], JSON.stringify([a!.checks, b!.checks]));
      const keySets = [a!, b!].map(
        (d) => (d.checks as { step: number; detail: string }[]).find((c) => c.step === 3)!.detail,
      );
      assert.ok(keySets[0]!.includes(s.info.jwksUrl) && keySets[1]!.includes(s2.info.jwksUrl), keySets.join(' | '));
      await listen.stopCleanly();
    } finally {
      await s2.stop();
    }
  });

  describe('--public-url and --self-test', () => {
    const listenOn = (server: Server) =>
      new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
    const closeServer = (server: Server) => new Promise<void>((r) => server.close(() => r()));

    it('a public address of your own (a reverse proxy): the self-test goes through it and arrives verified', async () => {
      const port = await freePort();
      const proxy = createServer((req, res) => {
        const up = request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        req.pipe(up);
      });
      const proxyPort = await listenOn(proxy);
      try {
        const publicUrl = `http://127.0.0.1:${proxyPort}/webhooks`;
        const listen = listenTo('--port', String(port), '--public-url', publicUrl, '--self-test');
        const ready = await listen.event('ready');
        assert.equal(ready.publicUrl, publicUrl);
        const t = await listen.event('self-test');
        assert.deepEqual([t.ok, t.arrived, t.status], [true, true, 200], t.detail);
        assert.ok(t.roundTripMs > 0);
        await listen.stopCleanly();
      } finally {
        await closeServer(proxy);
      }
    });

    it('a public address that leads nowhere: the self-test names the hop (connect)', async () => {
      const dead = await freePort();
      const listen = listenTo(
        '--port',
        String(await freePort()),
        '--public-url',
        `http://127.0.0.1:${dead}/webhooks`,
        '--self-test',
      );
      const t = await listen.event('self-test');
      assert.deepEqual([t.ok, t.failedHop, t.arrived], [false, 'connect', false]);
      assert.match(t.detail, /ECONNREFUSED/);
      await listen.stopCleanly();
    });

    it('with a tunnel, the self-test runs once it is open and again after each reconnection', async () => {
      const server = new LocaltunnelServer();
      await server.start();
      const listen = listenTo('--tunnel', '--tunnel-host', server.url, '--self-test');
      try {
        const first = await listen.event('self-test');
        // The stand-in server's public names (*.tunnel.test) resolve nowhere: the test names that hop.
        assert.equal(first.publicUrl, (await listen.event('ready')).publicUrl);
        assert.ok(first.failedHop === 'dns' || first.ok, JSON.stringify(first));
        await server.stop();
        await listen.line((l) => l.event === 'tunnel' && l.state === 'reconnecting', 'the tunnel to drop');
        await server.start(server.port);
        await listen.line(() => listen.events('self-test').length >= 2, 'a second self-test after the reconnection');
        const reopened = listen.lines.findIndex(
          (l) => l.event === 'tunnel' && l.state === 'open' && listen.lines.indexOf(l) > listen.lines.indexOf(first),
        );
        assert.ok(
          reopened > 0 && listen.lines.indexOf(listen.events('self-test')[1]!) > reopened,
          'after the tunnel opened again',
        );
        await listen.stopCleanly();
      } finally {
        await server.stop();
      }
    });

    it('usage: --self-test needs the sandbox to sign and a public address; --public-url needs --port', async () => {
      for (const [args, message] of [
        [
          [
            '--self-test',
            '--public-url',
            'http://127.0.0.1:1/webhooks',
            '--port',
            '1',
            '--issuer',
            'i',
            '--audience',
            'a',
            '--jwks-url',
            'http://127.0.0.1:1/j',
          ],
          /--trust-sandbox/,
        ],
        [['--self-test', '--no-tunnel', '--trust-sandbox', s.info.baseUrl], /needs a public address/],
        [['--self-test', '--trust-sandbox', s.info.baseUrl], /needs a public address: --public-url URL, or --tunnel/],
        [['--public-url', 'http://127.0.0.1:1/webhooks', '--trust-sandbox', s.info.baseUrl], /needs --port/],
      ] as const) {
        const p = new WfsProcess(['listen', ...args]);
        assert.equal(await p.exitCode(), 2, p.stdout);
        assert.match(p.lines.at(-1)!.message, message);
      }
    });
  });

  it('--issuer without its --audience and --jwks-url: exit 2 saying they go together', async () => {
    const p = new WfsProcess([
      'listen',
      '--no-tunnel',
      '--issuer',
      'a',
      '--issuer',
      'b',
      '--audience',
      'x',
      '--jwks-url',
      'http://127.0.0.1:1/j',
    ]);
    assert.equal(await p.exitCode(), 2);
    assert.match(p.lines.at(-1)!.message, /go together.*got 2, 1 and 1/);
  });

  it('--trust-sandbox at a dead address: exit 1 (could not be reached), naming the flag', async () => {
    const p = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', 'http://127.0.0.1:9'], {
      WFS_SANDBOX_SECRET: 'a secret, so that the address is tried',
    });
    assert.equal(await p.exitCode(), 1);
    assert.match(
      p.lines.at(-1)!.message,
      /^nothing is listening at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\): is `wfs sandbox` running there\?.*\(--trust-sandbox names it here\)/,
    );
  });

  it('an expired token: refused at step 5, and the detail says by which clock (a machine whose clock is off shows it)', async () => {
    const listen = listenTo();
    const { url } = await listen.event('ready');
    const body = Buffer.from('{"webhookId":"00000000-0000-4000-8000-000000000005","topic":"a/b"}');
    const signed = await s.control('POST', 'sign', {
      bodyBase64: body.toString('base64'),
      claims: { exp: Math.floor(Date.now() / 1000) - 120 },
    });
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signed.json().token}` },
    });
    assert.equal(res.status, 403);
    const failed = (await listen.event('delivery')).checks.find((c: { ok: boolean }) => !c.ok);
    assert.equal(failed.step, 5);
    const m =
      /^expired (\d+) s ago by this machine's clock \((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ); tolerance 60 s\): a replayed or held-up delivery, or a clock that is off$/.exec(
        failed.detail,
      );
    assert.ok(m, failed.detail);
    assert.ok(Number(m[1]) >= 120 && Number(m[1]) < 180, failed.detail);
    assert.ok(Math.abs(Date.parse(m[2]!) - Date.now()) < 60_000, `the time shown is this machine's: ${m[2]}`);
    await listen.stopCleanly();
  });

  it("--forward-to --pass-through: a verified delivery goes to your app with its exact bytes and is answered the app's status; an app that is down is 502, and the line says why", async () => {
    const app = new RecordingServer();
    app.respond = () => 202;
    const appUrl = `${await app.start()}/app`;
    const listen = listenTo('--forward-to', appUrl, '--pass-through');
    try {
      const { url } = await listen.event('ready');
      const bodyOf = (n: number) =>
        Buffer.from(`{"webhookId":"00000000-0000-4000-8000-0000000000f${n}","topic":"a/b","data":{"x":1}}`);
      const post = async (body: Buffer) => {
        const token = (await s.control('POST', 'sign', { bodyBase64: body.toString('base64') })).json().token as string;
        return (
          await fetch(url, {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          })
        ).status;
      };
      assert.equal(await post(bodyOf(1)), 202);
      assert.deepEqual(app.requests[0]!.body, bodyOf(1), 'the exact bytes');
      const forwarded = await listen.event('delivery');
      assert.deepEqual([forwarded.forward.target, forwarded.forward.status], [appUrl, 202]);

      await app.stop();
      assert.equal(await post(bodyOf(2)), 502);
      await listen.line(() => listen.events('delivery').length === 2, 'the second delivery');
      const down = listen.events('delivery')[1]!;
      assert.equal(down.forward.status, undefined);
      assert.match(down.forward.error, /127\.0\.0\.1/, `why: ${down.forward.error}`);
    } finally {
      await listen.stopCleanly();
      await app.stop();
    }
  });

  it('--log: a copy sent again after a restart (even after SIGKILL) is still a duplicate: answered 200, not forwarded to your app twice', async () => {
    const app = new RecordingServer();
    const appUrl = `${await app.start()}/app`;
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-dedupe-')), 'deliveries.jsonl');
    const body = Buffer.from('{"webhookId":"00000000-0000-4000-8000-0000000000d1","topic":"a/b","data":{"x":1}}');
    const run = () => listenTo('--forward-to', appUrl, '--log', file);
    try {
      const first = run();
      assert.equal(await postSigned((await first.event('ready')).url, body), 200);
      assert.equal((await first.event('delivery')).duplicate, false);
      first.kill('SIGKILL');
      await first.exited;
      await sentAgainIsDuplicate(run, body, app, 1);
    } finally {
      await app.stop();
    }
  });

  it('--log: a copy sent again after a restart is still a duplicate when the budgets had dropped its record long before', async () => {
    const app = new RecordingServer();
    const appUrl = `${await app.start()}/app`;
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-dedupe-')), 'deliveries.jsonl');
    // 200 KB a delivery against a 1 MiB file: the first record is dropped, from memory and from the file, after a few.
    const bodyOf = (n: number) =>
      Buffer.from(
        JSON.stringify({
          webhookId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          topic: 'a/b',
          data: { pad: 'p'.repeat(200_000) },
        }),
      );
    const run = () => listenTo('--forward-to', appUrl, '--log', file, '--history-memory', '1', '--history-disk', '1');
    try {
      const first = run();
      const url = (await first.event('ready')).url;
      for (let n = 1; n <= 8; n++) assert.equal(await postSigned(url, bodyOf(n)), 200);
      await first.line(() => first.events('delivery').length === 8, 'eight deliveries');
      first.kill('SIGKILL');
      await first.exited;
      assert.ok(
        !readFileSync(file, 'latin1').includes('"webhookId":"00000000-0000-4000-8000-000000000001"'),
        'the first record is no longer in the file',
      );
      await sentAgainIsDuplicate(run, bodyOf(1), app, 8);
    } finally {
      await app.stop();
    }
  });

  it('--respond 500 answers verified deliveries 500 (refused ones still 403); --max-body refuses a larger body with a 413 the sender reads', async () => {
    const listen = listenTo('--respond', '500', '--max-body', '1000');
    const { url } = await listen.event('ready');
    const signedPost = async (body: Buffer) => {
      const token = (await s.control('POST', 'sign', { bodyBase64: body.toString('base64') })).json().token as string;
      return (
        await fetch(url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        })
      ).status;
    };
    assert.equal(
      await signedPost(Buffer.from('{"webhookId":"00000000-0000-4000-8000-0000000000e1","topic":"a/b"}')),
      500,
    );
    assert.equal(
      (await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status,
      403,
    );
    const large = Buffer.from(
      JSON.stringify({ webhookId: '00000000-0000-4000-8000-0000000000e2', topic: 'a/b', pad: 'x'.repeat(2000) }),
    );
    assert.equal(await signedPost(large), 413);
    await listen.line(() => listen.events('delivery').length === 3, 'three delivery lines');
    const [rehearsed, refused, tooLarge] = listen.events('delivery');
    assert.deepEqual([rehearsed!.status, rehearsed!.verified], [500, true]);
    assert.equal(rehearsed!.checks.at(-1).detail, 'verified: answered 500 (not processed)');
    assert.deepEqual([refused!.status, refused!.verified], [403, false]);
    assert.deepEqual(
      [tooLarge!.status, tooLarge!.note, tooLarge!.bytes],
      [413, `body over the 1000-byte limit (${large.length} bytes declared); not kept`, large.length],
    );
    await listen.stopCleanly();
  });

  it('--host and --path: another loopback address and path; a non-loopback host is exit 2. wfs sandbox --access-token-ttl sets expires_in', async () => {
    const open = listenTo('--host', '192.0.2.1');
    assert.equal(await open.exitCode(), 2);
    assert.equal(
      open.lines.at(-1)!.message,
      '--host must be a loopback address, or 0.0.0.0 or :: (every interface, in a container, with --allow-host NAME for the names others reach it by): the public side is --public-url or --tunnel',
    );

    const listen = listenTo('--host', '127.0.0.2', '--path', '/hooks');
    const { url } = await listen.event('ready');
    assert.match(url, /^http:\/\/127\.0\.0\.2:\d+\/hooks$/);
    await send(url);
    const delivery = await listen.event('delivery');
    assert.deepEqual([delivery.status, delivery.verified], [200, true]);
    const elsewhere = await fetch(url.replace('/hooks', '/webhooks'), {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(elsewhere.status, 404);
    await listen.stopCleanly();

    const short = await startSandboxProcess(['--access-token-ttl', '90']);
    try {
      const res = await fetch(`${short.info.baseUrl}/user-management-services-ws/oauth2/002/signInWithPassword`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: short.info.username, password: short.info.password }),
      });
      assert.equal(((await res.json()) as { expires_in: number }).expires_in, 90);
    } finally {
      await short.stop();
    }
  });

  it('without --tunnel or --public-url: loopback only, no tunnel opened, deliveries still verified', async () => {
    // A third-party relay carries deliveries and their tokens unencrypted: a script that names none gets none.
    const listen = listenTo();
    const ready = await listen.event('ready');
    assert.equal(ready.publicUrl, null);
    await send(ready.url);
    const delivery = await listen.event('delivery');
    assert.deepEqual([delivery.status, delivery.verified], [200, true]);
    await listen.stopCleanly();
    assert.deepEqual(listen.events('tunnel'), []);
    assert.deepEqual(
      listen.lines.map((l) => l.event),
      ['ready', 'delivery', 'stopped'],
    );
  });

  it('--tunnel-host or --subdomain without --tunnel: exit 2, nothing opened', async () => {
    for (const extra of [
      ['--tunnel-host', 'http://127.0.0.1:1'],
      ['--subdomain', 'mine'],
    ]) {
      const p = listenTo(...extra);
      assert.equal(await p.exitCode(), 2);
      assert.match(p.lines.at(-1)!.message, /add --tunnel to open one/);
      assert.deepEqual(p.events('tunnel'), []);
    }
  });

  it('--subdomain asks the tunnel server for that name: the public address carries it; a name no server gives is exit 2, nothing opened', async () => {
    const server = new LocaltunnelServer();
    await server.start();
    try {
      const listen = listenTo('--tunnel', '--tunnel-host', server.url, '--subdomain', 'wfs-demo-7');
      assert.equal((await listen.event('ready')).publicUrl, `http://wfs-demo-7.tunnel.test:${server.port}/webhooks`);
      await listen.stopCleanly();
      const before = server.openRequests;
      const bad = listenTo('--tunnel', '--tunnel-host', server.url, '--subdomain', 'My_Name');
      assert.equal(await bad.exitCode(), 2);
      assert.equal(
        bad.lines.at(-1)!.message,
        '--subdomain is not a name a localtunnel server gives ("My_Name"): 4 to 63 lower-case letters, digits and hyphens, starting and ending with a letter or digit',
      );
      assert.equal(server.openRequests, before, 'the tunnel server was never asked');
    } finally {
      await server.stop();
    }
  });

  it('when the tunnel server goes away: reconnect lines, then closed and exit 0 on SIGTERM', async () => {
    const server = new LocaltunnelServer();
    await server.start();
    const listen = listenTo('--tunnel', '--tunnel-host', server.url);
    try {
      const ready = await listen.event('ready');
      assert.match(ready.publicUrl, /^http:\/\/[a-f0-9]+\.tunnel\.test:\d+\/webhooks$/);
      await listen.line((l) => l.event === 'tunnel' && l.state === 'open', 'the tunnel open');
      await server.stop();
      await listen.line((l) => l.event === 'tunnel' && l.state === 'reconnecting', 'a reconnecting line');
      await listen.line((l) => l.event === 'warning', 'a warning naming the failure');
      await listen.stopCleanly();
      const tail = listen.lines.slice(-2);
      assert.deepEqual(
        tail.map((l) => [l.event, l.state]),
        [
          ['tunnel', 'closed'],
          ['stopped', undefined],
        ],
      );
    } finally {
      await server.stop();
    }
  });

  it('wfs sandbox: SIGINT and SIGTERM both stop it with a stopped line and exit 0', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const other = await startSandboxProcess();
      await other.proc.stopCleanly(signal);
      assert.equal(other.proc.lines.at(-1)!.event, 'stopped');
    }
  });

  it('wfs audit against wfs listen scores clean; SIGINT during an audit ends it with exit 130 and an error line', async () => {
    const listen = listenTo('--no-tunnel');
    const ready = await listen.event('ready');
    try {
      const audit = new WfsProcess(['audit', '--target', ready.url, '--sandbox-url', s.info.baseUrl]);
      assert.equal(await audit.exitCode(), 0, audit.stdout);
      const summary = audit.lines.at(-1)!;
      assert.equal(summary.event, 'summary');
      assert.equal(summary.failed, 0);
      assert.equal(summary.total, 30);

      const interrupted = new WfsProcess(['audit', '--target', ready.url, '--sandbox-url', s.info.baseUrl]);
      await interrupted.event('case');
      interrupted.kill('SIGINT');
      assert.equal(await interrupted.exitCode(), 130);
      assert.equal(interrupted.lines.at(-1)!.kind, 'interrupted');
    } finally {
      listen.kill('SIGTERM');
      await listen.exited;
    }
  });

  it('wfs audit --junit --summary-md: a failing receiver exits 1 and leaves a valid JUnit file and a summary table', async () => {
    const broken = new BrokenReceiver('malformed-500', {
      issuer: s.info.issuer,
      audience: s.info.audience,
      jwksUrl: s.info.jwksUrl,
    });
    const url = await broken.start();
    const dir = mkdtempSync(join(tmpdir(), 'wfs-audit-'));
    try {
      const junit = join(dir, 'audit.xml');
      const summaryMd = join(dir, 'summary.md');
      writeFileSync(summaryMd, '# earlier steps\n');
      const audit = new WfsProcess([
        'audit',
        '--target',
        url,
        '--sandbox-url',
        s.info.baseUrl,
        '--junit',
        junit,
        '--summary-md',
        summaryMd,
      ]);
      assert.equal(await audit.exitCode(), 1);
      const xml = readFileSync(junit, 'utf8');
      assert.deepEqual((await validateJunit(xml)).errors, []);
      assert.equal([...xml.matchAll(/<testcase /g)].length, 30);
      assert.equal([...xml.matchAll(/<failure /g)].length, 3);
      const md = readFileSync(summaryMd, 'utf8');
      assert.match(
        md,
        /^# earlier steps\n### Webhook receiver audit: 27\/30 passed/,
        'appended, as CI job summaries are',
      );
    } finally {
      await broken.stop();
    }
  });

  it('wfs audit --processed-url: the two probes count in passed, failed and total alike, and in the JUnit file', async () => {
    const broken = new BrokenReceiver('records-id-before-verify', {
      issuer: s.info.issuer,
      audience: s.info.audience,
      jwksUrl: s.info.jwksUrl,
    });
    const url = await broken.start();
    const dir = mkdtempSync(join(tmpdir(), 'wfs-audit-'));
    try {
      const junit = join(dir, 'audit.xml');
      const audit = new WfsProcess([
        'audit',
        '--target',
        url,
        '--sandbox-url',
        s.info.baseUrl,
        '--processed-url',
        new URL('/processed', url).toString(),
        '--junit',
        junit,
      ]);
      assert.equal(await audit.exitCode(), 1, 'the poisoning probe fails the audit');
      const summary = audit.lines.at(-1)!;
      assert.deepEqual(
        [summary.event, summary.passed, summary.failed, summary.total],
        ['summary', 31, 1, 32],
        JSON.stringify(summary),
      );
      const xml = readFileSync(junit, 'utf8');
      assert.match(xml, /<testsuite [^>]*tests="32" failures="1"/);
      assert.equal([...xml.matchAll(/<testcase /g)].length, 32);
    } finally {
      await broken.stop();
    }
  });

  it('wfs audit with a processed count it cannot read, or an address without its scheme: exit 2, nothing sent', async () => {
    const broken = new BrokenReceiver('none', {
      issuer: s.info.issuer,
      audience: s.info.audience,
      jwksUrl: s.info.jwksUrl,
    });
    const url = await broken.start();
    try {
      for (const [args, message] of [
        [
          ['--processed-url', new URL('/no-such-count', url).toString()],
          /^The processed count cannot be read: http:\/\/127\.0\.0\.1:\d+\/no-such-count answered 403\. Nothing was sent\.$/,
        ],
        [
          ['--processed-url', 'count'],
          /^--processed-url is not a URL: count \(it lacks its scheme: write https:\/\/count\)$/,
        ],
      ] as const) {
        const audit = new WfsProcess(['audit', '--target', url, '--sandbox-url', s.info.baseUrl, ...args]);
        assert.equal(await audit.exitCode(), 2, audit.stdout);
        assert.match(audit.lines.at(-1)!.message, message);
        assert.equal(audit.events('case').length, 0);
      }
      assert.equal(broken.processed, 0, 'the receiver saw no delivery');
      const noScheme = new WfsProcess([
        'audit',
        '--target',
        url,
        '--sandbox-url',
        s.info.baseUrl.replace('http://', ''),
      ]);
      assert.equal(await noScheme.exitCode(), 2);
      assert.equal(
        noScheme.lines.at(-1)!.message,
        `--sandbox-url is not a URL: ${s.info.baseUrl.replace('http://', '')} (it lacks its scheme: write ${s.info.baseUrl})`,
      );
    } finally {
      await broken.stop();
    }
  });

  it('wfs audit against a receiver that never answers: the first two requests wait out --timeout, the rest are not sent', async () => {
    // Accepts connections and reads, but never answers: a receiver stuck in a handler.
    const requests: string[] = [];
    const stuck = createServer((req) => requests.push(req.url ?? ''));
    await new Promise<void>((r) => stuck.listen(0, '127.0.0.1', r));
    try {
      const target = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}/webhooks`;
      const audit = new WfsProcess(['audit', '--target', target, '--sandbox-url', s.info.baseUrl, '--timeout', '1']);
      assert.equal(await audit.exitCode(), 1);
      const cases = audit.events('case');
      assert.deepEqual(
        cases.slice(0, 2).map((c) => c.detail),
        [`no answer: no answer from ${target} within 1000 ms`, `no answer: no answer from ${target} within 1000 ms`],
      );
      assert.ok(cases.length > 20, `${cases.length} cases`);
      assert.deepEqual(
        new Set(cases.slice(2).map((c) => c.detail)),
        new Set(['not sent: the receiver answered none of the first 2 requests within 1000 ms']),
      );
      assert.equal(requests.length, 2, 'nothing sent after the first two');
      const summary = await audit.event('summary');
      assert.deepEqual([summary.passed, summary.failed, summary.total], [0, cases.length, cases.length]);
    } finally {
      stuck.closeAllConnections();
      stuck.close();
    }
  });

  it('wfs audit --junit into a folder that does not exist: exit 2 before anything is sent', async () => {
    const audit = new WfsProcess([
      'audit',
      '--target',
      'http://127.0.0.1:9/webhooks',
      '--sandbox-url',
      s.info.baseUrl,
      '--junit',
      '/nonexistent-dir/audit.xml',
    ]);
    assert.equal(await audit.exitCode(), 2);
    assert.match(audit.lines.at(-1)!.message, /--junit \/nonexistent-dir\/audit\.xml: ENOENT/);
    assert.equal(audit.events('case').length, 0);
  });
});
