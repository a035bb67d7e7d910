// `wfs listen --forward 'PATTERN=URL'` as a user runs it: deliveries signed by a `wfs sandbox` process, routed by their
// signed topic to real loopback apps, each app's answer on the delivery line; --pass-through; a bad rule refused.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';
import { sendDelivery, signedBy } from './helpers/deliveries';

/** A loopback app: answers as the test says, and counts what it got per path. */
async function app(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{
  url: string;
  paths: string[];
  stop: () => Promise<void>;
}> {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      paths.push(req.url ?? '');
      handle(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The message of the usage error a process printed as its last JSON line. */
const usage = (p: WfsProcess) => JSON.parse(p.stdout.trim().split('\n').pop()!).message as string;

describe('wfs listen --forward: routing by signed topic, as a process', function () {
  this.timeout(60_000);
  let s: SandboxProcess;
  const stops: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    s = await startSandboxProcess();
  });
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((f) => f()));
    await s.stop();
  });

  const event = (n: number, topic: string) =>
    Buffer.from(`{"webhookId":"00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}","topic":"${topic}"}`);
  const post = async (url: string, body: Buffer) =>
    sendDelivery(url, { body, token: await signedBy(s.info.baseUrl, body) });

  it('fans out to every matching app, sends nothing on no match, shows a failing app among healthy ones; answered 200', async () => {
    const payments = await app((_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('paid'));
    const audit = await app((_q, r) => r.writeHead(201).end('noted'));
    const broken = await app((_q, r) =>
      r.writeHead(500, { 'content-type': 'text/plain' }).end('Error: amount is undefined\n    at handler (app.js:12)'),
    );
    stops.push(payments.stop, audit.stop, broken.stop);
    const listen = new WfsProcess([
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--forward',
      `payments/*=${payments.url}/pay`,
      '--forward',
      `payments/*=${broken.url}/pay`,
      '--forward',
      `**=${audit.url}/audit`,
      '--forward',
      `workflow/* status:*=${payments.url}/workflow`,
    ]);
    try {
      const { url } = await listen.event('ready');
      assert.equal(
        await post(url, event(1, 'payments/settled')),
        200,
        "pass-through is off: the app's 500 is not passed on",
      );
      const line = await listen.event('delivery');
      assert.deepEqual(
        line.forwards.map((f: { target: string; status: number; body: string }) => [f.target, f.status, f.body]),
        [
          [`${payments.url}/pay`, 200, 'paid'],
          [`${broken.url}/pay`, 500, 'Error: amount is undefined\n    at handler (app.js:12)'],
          [`${audit.url}/audit`, 201, 'noted'],
        ],
      );
      assert.deepEqual(line.forward, { target: `${payments.url}/pay`, status: 200, latencyMs: line.forward.latencyMs });
      assert.equal(line.forwards[1].headers['content-type'], 'text/plain');
      assert.equal(line.forwards[1].bodySize, Buffer.byteLength(line.forwards[1].body));
      // No rule but ** matches: only the audit app; the workflow rule needs a signed subTopic.
      assert.equal(await post(url, event(2, 'workflow/completed')), 200);
      await listen.line(() => listen.events('delivery').length === 2, 'the second delivery');
      assert.deepEqual(
        listen.events('delivery')[1]!.forwards.map((f: { target: string }) => f.target),
        [`${audit.url}/audit`],
      );
      assert.deepEqual([payments.paths, broken.paths, audit.paths], [['/pay'], ['/pay'], ['/audit', '/audit']]);
    } finally {
      await listen.stopCleanly();
    }
  });

  it("--pass-through answers the service with the app's status; on a terminal the line shows each app's answer", async () => {
    const broken = await app((_q, r) => r.writeHead(503, { 'content-type': 'text/plain' }).end('db down'));
    stops.push(broken.stop);
    const listen = new WfsProcess([
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--forward',
      `payments/*=${broken.url}/pay`,
      '--pass-through',
      '--human',
    ]);
    try {
      const ready = await listen.line((l) => /^✓ Receiver listening at /.test(String(l.text)), 'the ready line');
      const url = /listening at (\S+)/.exec(String(ready.text))![1]!;
      assert.equal(await post(url, event(3, 'payments/settled')), 503, "the app's own status");
      const failed = await listen.line((l) => /forward failed/.test(String(l.text)), 'the forward line');
      assert.match(
        String(failed.text),
        new RegExp(
          `^ {4}forward failed: ${broken.url.replace(/\./g, '\\.')}/pay → 503 in \\d+ ms \\(7 B\\): "db down"$`,
        ),
      );
      assert.ok(
        listen.lines.some((l) => /^✗ 503 {2}verified {2}payments\/settled {2}/.test(String(l.text))),
        listen.stdout,
      );
      assert.equal(await post(url, event(4, 'other/topic')), 200, 'no rule matched: 200');
    } finally {
      await listen.stopCleanly();
    }
  });

  it('a bad rule is refused at start, naming it (exit 2); --forward-to excludes --forward', async () => {
    const bad = new WfsProcess([
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--forward',
      'payments/[x]=http://127.0.0.1:1/',
    ]);
    assert.equal(await bad.exitCode(), 2);
    assert.match(
      usage(bad),
      /--forward payments\/\[x\]=http:\/\/127\.0\.0\.1:1\/ \(payments\/\[x\] → http:\/\/127\.0\.0\.1:1\/\): the topic pattern "payments\/\[x\]" holds "\["/,
    );
    const badUrl = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--forward', 'a/*=localhost:3000']);
    assert.equal(await badUrl.exitCode(), 2);
    assert.match(usage(badUrl), /"url" must be an http\(s\) URL \(it lacks its scheme/);
    const both = new WfsProcess([
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--forward',
      'a/*=http://127.0.0.1:1/',
      '--forward-to',
      'http://127.0.0.1:1/',
    ]);
    assert.equal(await both.exitCode(), 2);
    assert.match(usage(both), /--forward-to excludes --forward/);
    // An address with a password is refused, and no message repeats it (#74, hole 4), on a terminal too.
    for (const face of ['--json', '--human']) {
      const secret = new WfsProcess([
        'listen',
        '--trust-sandbox',
        s.info.baseUrl,
        '--forward',
        '**=http://bob:TopSecretPw99@127.0.0.1:1/',
        face,
      ]);
      assert.equal(await secret.exitCode(), 2);
      assert.doesNotMatch(secret.stdout + secret.stderr, /TopSecretPw99|bob/);
      assert.match(secret.stdout + secret.stderr, /\*\*=http:\/\/…@127\.0\.0\.1:1\/.*user name or password/);
    }
  });
});
