// Forward rules and their fan-out against real loopback apps: which rule takes which signed topic, one send per
// target, parallel with a timeout each, and each app's answer (status, headers, first 4 KiB, size) recorded.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ForwardRuleError,
  parseForwardFlag,
  parseForwardRules,
  ruleMatches,
} from '../../../src/core/webhooks/forwardRules';
import { Forwarder, passThroughStatus } from '../../../src/core/webhooks/forwardFanOut';
import { forwardFailed, forwardsOf } from '../../../src/core/webhooks/deliveryRecord';

interface Hit {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A loopback app whose handler the test writes; it records every request it reads in full. */
class App {
  readonly hits: Hit[] = [];
  private server?: Server;
  constructor(private readonly handle: (req: IncomingMessage, res: ServerResponse, hit: Hit) => void) {}
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const hit = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
        this.hits.push(hit);
        this.handle(req, res, hit);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

const answer =
  (status: number, text = '', headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(text);
  };

const BODY = Buffer.from('{"webhookId":"w1","topic":"payments/settled","subTopic":"status:payments/settled"}');
const HEADERS = { authorization: 'Bearer ey.x.y', 'content-type': 'application/json', connection: 'close' };

describe('forward rules', () => {
  it('a glob matches the signed topic: * within a part, ** across, ? one character; a subTopic glob narrows it', () => {
    const [star, deep, one, sub, all] = parseForwardRules(
      [
        { topic: 'payments/*', url: 'http://127.0.0.1:1/a' },
        { topic: '**', url: 'http://127.0.0.1:1/b' },
        { topic: 'workflow/complete?', url: 'http://127.0.0.1:1/c' },
        { topic: 'payments/*', subTopic: 'refund:*', url: 'http://127.0.0.1:1/d' },
        { url: 'http://127.0.0.1:1/e' },
      ],
      'wfs.receiver.forward',
    );
    assert.equal(ruleMatches(star!, { topic: 'payments/settled' }), true);
    assert.equal(ruleMatches(star!, { topic: 'payments/a/b' }), false, '* stays within one part');
    assert.equal(ruleMatches(star!, { topic: 'workflow/completed' }), false);
    assert.equal(ruleMatches(star!, {}), false, 'no signed topic: only ** takes it');
    assert.equal(ruleMatches(deep!, {}), true);
    assert.equal(ruleMatches(one!, { topic: 'workflow/completed' }), true);
    assert.equal(
      ruleMatches(sub!, { topic: 'payments/x', subTopic: 'refund:payments/x' }),
      false,
      'refund:* stops at /',
    );
    assert.equal(ruleMatches(sub!, { topic: 'payments/x', subTopic: 'refund:x' }), true);
    assert.equal(ruleMatches(sub!, { topic: 'payments/x' }), false, 'a subTopic rule needs a signed subTopic');
    assert.equal(ruleMatches(all!, { topic: 'anything/at-all' }), true, 'a rule without topic takes everything');
  });

  it('a hostile glob is matched at once, by the core matcher (its RegExp form backtracked for over a minute)', () => {
    const [hostile, question] = parseForwardRules(
      [
        { topic: '**a**a**a**a**a**a**c', subTopic: '*a*a*a*a*a*a*a*a*a*a*c', url: 'http://127.0.0.1:1/a' },
        { topic: 'a?b', url: 'http://127.0.0.1:1/b' },
      ],
      'wfs.receiver.forward',
    );
    const started = process.hrtime.bigint();
    assert.equal(ruleMatches(hostile!, { topic: 'a'.repeat(120) + '/b', subTopic: 'a'.repeat(120) }), false);
    assert.equal(ruleMatches(hostile!, { topic: 'a'.repeat(120) + '/c', subTopic: 'a'.repeat(120) + 'b' }), false);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 200);
    assert.equal(ruleMatches(question!, { topic: 'a/b' }), false, '? never takes /');
    assert.throws(
      () => parseForwardRules([{ topic: 'a'.repeat(201), url: 'http://127.0.0.1:1/' }], 'wfs.receiver.forward'),
      /over the limit of 200/,
    );
  });

  it('a bad pattern, URL or header is refused, naming the rule and what to change', () => {
    const refused = (input: unknown) => {
      try {
        parseForwardRules([{ topic: 'ok/*', url: 'http://127.0.0.1:1/' }, input], 'wfs.receiver.forward');
      } catch (err) {
        assert.ok(err instanceof ForwardRuleError, String(err));
        return err.message;
      }
      assert.fail('accepted');
    };
    assert.equal(
      refused({ topic: 'payments/[x]', url: 'http://127.0.0.1:3000/' }),
      'wfs.receiver.forward[1] (payments/[x] → http://127.0.0.1:3000/): the topic pattern "payments/[x]" holds "[": a pattern is letters, digits, _ . : / - and the wildcards * ** ?',
    );
    assert.equal(
      refused({ name: 'billing', topic: 'payments/*', url: 'localhost:3000' }),
      'wfs.receiver.forward[1] "billing" (payments/* → localhost:3000): "url" must be an http(s) URL (it lacks its scheme: write http://localhost:3000)',
    );
    assert.match(
      refused({ topic: 'a/*', url: 'ftp://x/' }),
      /^wfs\.receiver\.forward\[1\] .*"url" must be an http\(s\) URL/,
    );
    assert.match(refused({ topic: '', url: 'http://x/' }), /the topic pattern "" is empty/);
    assert.match(refused({ topic: 'a/***', url: 'http://x/' }), /holds \*\*\*/);
    assert.match(refused({ topic: 'a/*' }), /"url" is missing/);
    assert.match(refused({ topic: 'a/*', url: 'http://u:p@x/' }), /user name or password/);
    assert.match(
      refused({ url: 'http://x/', headers: { Authorization: 'x' } }),
      /the header Authorization is the receiver's/,
    );
    assert.match(refused({ url: 'http://x/', headers: { 'X-A': 'a\r\nb' } }), /must be a string on one line/);
    assert.match(refused('http://x/'), /^wfs\.receiver\.forward\[1\] must be an object/);
    assert.equal(
      (() => {
        try {
          parseForwardFlag('payments/*');
        } catch (err) {
          return (err as Error).message;
        }
      })(),
      `--forward "payments/*": expected PATTERN=URL, e.g. 'payments/*=http://localhost:3000/hooks'`,
    );
    const flag = parseForwardFlag('payments/* refund:*=http://127.0.0.1:3000/h?a=b');
    assert.deepEqual([flag.topic, flag.subTopic, flag.url], ['payments/*', 'refund:*', 'http://127.0.0.1:3000/h?a=b']);
  });

  it('an old history record with one `forward` reads as a list of one', () => {
    const old = { forward: { target: 'http://127.0.0.1:1/', status: 500, latencyMs: 3 } };
    assert.deepEqual(forwardsOf(old), [{ target: 'http://127.0.0.1:1/', status: 500, latencyMs: 3, rules: [] }]);
    assert.equal(forwardFailed(forwardsOf(old)[0]!), true);
    assert.deepEqual(forwardsOf({}), []);
  });
});

describe('forward fan-out to real apps', () => {
  const apps: App[] = [];
  const app = async (handle: ConstructorParameters<typeof App>[0]) => {
    const a = new App(handle);
    apps.push(a);
    return { app: a, url: await a.start() };
  };
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.stop()));
  });

  it('fans out in parallel to every matching target, with the exact bytes and each rule’s headers; no match sends nothing', async () => {
    // Each app holds its answer until both have the request: sequential sends would never get past the first.
    let arrived = 0;
    let both!: () => void;
    const bothThere = new Promise<void>((r) => (both = r));
    const held = (status: number, text: string) => (_req: IncomingMessage, res: ServerResponse) => {
      if (++arrived === 2) both();
      void bothThere.then(() => answer(status, text, { 'x-app': String(status) })(_req, res));
    };
    const a = await app(held(200, 'payments ok'));
    const b = await app(held(202, 'audit ok'));
    const f = new Forwarder({
      rules: parseForwardRules(
        [
          { topic: 'payments/*', url: a.url + '/pay', headers: { 'X-Route': 'payments' } },
          { topic: '**', url: b.url + '/audit' },
          { topic: 'workflow/*', url: a.url + '/never' },
        ],
        'rules',
      ),
    });
    const forwards = await f.send({ topic: 'payments/settled' }, HEADERS, BODY);
    assert.deepEqual(
      forwards?.map((x) => [x.target, x.status, x.body, x.headers?.['x-app'], x.bodySize, x.rules]),
      [
        [a.url + '/pay', 200, 'payments ok', '200', 11, ['payments/* → ' + a.url + '/pay']],
        [b.url + '/audit', 202, 'audit ok', '202', 8, ['** → ' + b.url + '/audit']],
      ],
    );
    assert.deepEqual(a.app.hits[0]!.body, BODY, 'the exact bytes');
    assert.equal(a.app.hits[0]!.headers['x-route'], 'payments');
    assert.equal(a.app.hits[0]!.headers.authorization, 'Bearer ey.x.y', 'the token goes on, for the app to verify');
    assert.equal(b.app.hits[0]!.headers['x-route'], undefined, "one rule's headers stay with it");
    assert.equal(f.answerStatus(forwards!), 200, 'pass-through is off: the service is answered 200');
    const onlyPayments = new Forwarder({ rules: parseForwardRules([{ topic: 'payments/*', url: a.url }], 'r') });
    assert.equal(onlyPayments.send({ topic: 'workflow/completed' }, HEADERS, BODY), undefined, 'no match, no send');
    assert.equal(a.app.hits.length, 1);
  });

  it('two rules naming one target send once, the rules both recorded', async () => {
    const a = await app(answer(200, 'ok'));
    const f = new Forwarder({
      rules: parseForwardRules(
        [
          { topic: 'payments/*', url: a.url + '/h', headers: { 'X-One': '1' } },
          { topic: '**', url: a.url + '/h', headers: { 'X-Two': '2', 'X-One': 'second' } },
        ],
        'r',
      ),
    });
    const forwards = await f.send({ topic: 'payments/x' }, HEADERS, BODY);
    assert.equal(a.app.hits.length, 1, 'sent once');
    assert.equal(forwards!.length, 1);
    assert.equal(forwards![0]!.rules.length, 2);
    assert.deepEqual([a.app.hits[0]!.headers['x-one'], a.app.hits[0]!.headers['x-two']], ['1', '2']);
  });

  it('a failing target among healthy ones: refused, 5xx and timeout each recorded, the healthy answered; pass-through answers the worst', async () => {
    const ok = await app(answer(200, 'fine'));
    const broken = await app(answer(500, 'TypeError: cannot read properties of undefined (reading "amount")'));
    const silent = await app(() => undefined); // never answers
    const refusedUrl = await (async () => {
      const gone = await app(answer(200));
      await gone.app.stop();
      return gone.url;
    })();
    const f = new Forwarder({
      rules: parseForwardRules(
        [
          { url: ok.url + '/ok' },
          { url: broken.url + '/500' },
          { url: refusedUrl + '/down' },
          { url: silent.url, timeoutMs: 300 },
        ],
        'r',
      ),
      passThrough: true,
    });
    const forwards = (await f.send({ topic: 't/x' }, HEADERS, BODY))!;
    const [healthy, five, down, slow] = forwards;
    assert.deepEqual([healthy!.status, healthy!.body], [200, 'fine']);
    assert.equal(forwardFailed(healthy!), false);
    assert.deepEqual(
      [five!.status, five!.body],
      [500, 'TypeError: cannot read properties of undefined (reading "amount")'],
    );
    assert.equal(forwardFailed(five!), true);
    assert.equal(down!.status, undefined);
    assert.equal(down!.failure, 'network');
    assert.match(down!.error!, /^cannot reach http:\/\/127\.0\.0\.1:\d+\/down: ECONNREFUSED$/);
    assert.equal(slow!.failure, 'timeout');
    assert.match(slow!.error!, /no answer from http:\/\/127\.0\.0\.1:\d+\/ within 300 ms/);
    assert.ok(slow!.latencyMs >= 299 && slow!.latencyMs < 5000, `cut at its own timeout: ${slow!.latencyMs} ms`);
    assert.equal(f.answerStatus(forwards), 502, 'the first target without an answer decides: refused, 502');
    assert.equal(passThroughStatus([healthy!, slow!]), 504, 'a target that timed out: 504');
    assert.equal(passThroughStatus([healthy!, five!]), 500, 'the highest status answered');
    assert.equal(passThroughStatus([healthy!, down!]), 502, 'a target that could not be reached: 502');
    assert.equal(passThroughStatus([healthy!]), 200);
  });

  it('a redirect is not followed and is shown; a streaming answer is cut at the timeout; a huge body is cut at 4 KiB with its size kept', async () => {
    const elsewhere = await app(answer(200, 'followed!'));
    const redirecting = await app(answer(307, '', { location: elsewhere.url + '/moved' }));
    const streaming = await app((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk…');
      const t = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(t));
    });
    const huge = await app(answer(500, 'é'.repeat(3000))); // 6000 bytes; the cut at 4096 falls inside no character
    const f = new Forwarder({
      rules: parseForwardRules(
        [{ url: redirecting.url }, { url: streaming.url, timeoutMs: 400 }, { url: huge.url }],
        'r',
      ),
    });
    const [moved, stream, big] = (await f.send({}, HEADERS, BODY))!;
    assert.deepEqual([moved!.status, moved!.redirect], [307, elsewhere.url + '/moved']);
    assert.equal(elsewhere.app.hits.length, 0, 'not followed');
    assert.equal(stream!.status, 200);
    assert.equal(stream!.failure, 'timeout');
    assert.match(stream!.error!, /the answer's body from .* did not end within 400 ms/);
    assert.ok(stream!.body!.startsWith('first chunk…'), 'what arrived is kept');
    assert.equal(big!.bodySize, 6000, 'the full size');
    assert.equal(big!.truncated, true);
    assert.equal(Buffer.byteLength(big!.body!), 4096, 'the first 4 KiB, as text');
  });

  it('a cut inside a UTF-8 character still shows as text; a binary answer is kept as base64', async () => {
    const odd = await app(answer(200, 'a' + 'é'.repeat(3000))); // the cut at 4096 splits an é
    const binary = await app((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    });
    const f = new Forwarder({ rules: parseForwardRules([{ url: odd.url }, { url: binary.url }], 'r') });
    const [text, bin] = (await f.send({}, HEADERS, BODY))!;
    assert.equal(Buffer.byteLength(text!.body!), 4095);
    assert.equal(bin!.body, undefined);
    assert.equal(bin!.bodyBase64, Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString('base64'));
  });

  it('an app that echoes the credentials it was sent gets none of them kept: text redacted, binary withheld', async () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJlLWJ5dGVz';
    const echo = (binary: boolean) => (req: IncomingMessage, res: ServerResponse) => {
      const sent = `${req.headers.authorization} ${req.headers['x-api-key']}`;
      res.writeHead(500).end(binary ? Buffer.concat([Buffer.from([0xff]), Buffer.from(sent)]) : `you sent ${sent}`);
    };
    const text = await app(echo(false));
    const bin = await app(echo(true));
    const f = new Forwarder({
      rules: parseForwardRules(
        [text.url, bin.url].map((url) => ({ url, headers: { 'X-Api-Key': 'rule-api-key-0123' } })),
        'r',
      ),
    });
    const [t, b] = (await f.send({}, { ...HEADERS, authorization: `Bearer ${token}` }, BODY))!;
    assert.equal(t!.body, 'you sent <redacted> <redacted>');
    assert.equal(b!.bodyBase64, undefined);
    assert.match(b!.bodyWithheld!, /credential this process holds/);
    assert.equal(b!.bodySize, 1 + `Bearer ${token} rule-api-key-0123`.length, 'its size is still said');
  });
});
