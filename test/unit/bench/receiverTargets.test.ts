// The bench's "spec minimum with the least history" is a lower bound for ours only if it does keep what it claims:
// the Host checked, every request kept with its token redacted, a refused body cut to 4 KiB, the bytes bounded.
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Kept {
  id: number;
  headers: Record<string, string>;
  status: number;
  webhookId?: string;
  body: Buffer;
  bytes: number;
}
interface Target {
  url: string;
  stop(): Promise<void>;
  history(): Kept[];
  bodyBytesInFlight?(): number;
}

/** A POST whose head and all but the last byte of its body are sent; finish() sends the last byte, and the
 * promise resolves with the status answered. */
function held(url: string, body: Buffer, headers: Record<string, string>) {
  const u = new URL(url);
  const socket = connect(Number(u.port), u.hostname);
  let text = '';
  const status = new Promise<number>((resolve) => {
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n')) resolve(Number(text.split(' ')[1]));
    });
  });
  const head = Object.entries({ host: u.host, 'content-length': String(body.length), ...headers }).map(
    ([k, v]) => `${k}: ${v}\r\n`,
  );
  socket.write(`POST ${u.pathname} HTTP/1.1\r\n${head.join('')}\r\n`);
  socket.write(body.subarray(0, -1));
  return { status, finish: () => socket.write(body.subarray(-1)), close: () => socket.destroy() };
}

/** Yields until check() holds (each turn lets the server read what has arrived). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100_000; i++) {
    if (check()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never: ${what}`);
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-length': String(body.length), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('bench: the spec minimum with the least history', () => {
  const trust = { issuer: 'https://bench.invalid/webhooks', audience: 'bench-receiver' };
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256' };
  const token = (body: Buffer) => {
    const now = Math.floor(Date.now() / 1000);
    const input = `${b64({ alg: 'RS256', kid: 'k1' })}.${b64({ iss: trust.issuer, aud: trust.audience, iat: now, exp: now + 300, body_sha256: createHash('sha256').update(body).digest('hex') })}`;
    return `${input}.${sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`;
  };
  let target: Target;
  afterEach(async () => target?.stop());

  it('keeps every request it answers, token redacted, refused bodies cut, within its byte budget', async () => {
    const modulePath = pathToFileURL(join(process.cwd(), 'bench', 'receiverTargets.mjs')).href;
    const { specMinimumWithHistory } = (await import(modulePath)) as {
      specMinimumWithHistory: (jwk: unknown, trust: unknown, budget: number) => Promise<Target>;
    };
    // Room for two verified deliveries of about 2 KB (and 512 bytes of estimate each), not three.
    target = await specMinimumWithHistory(jwk, trust, 6000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const webhookId = randomUUID();
      ids.push(webhookId);
      const body = Buffer.from(JSON.stringify({ webhookId, topic: 't', pad: 'x'.repeat(2000) }));
      const bearer = `Bearer ${token(body)}`;
      assert.equal(await post(target.url, body, { authorization: bearer, 'content-type': 'application/json' }), 200);
      for (const kept of target.history())
        assert.ok(!JSON.stringify(kept.headers).includes(bearer.slice(7)), 'the token is never kept');
    }
    let kept = target.history();
    assert.deepEqual(
      kept.map((k) => k.webhookId),
      ids.slice(1),
      'the oldest went when the budget was reached',
    );
    assert.ok(kept.reduce((n, k) => n + k.bytes, 0) <= 6000);
    assert.match(kept[0]!.headers.authorization!, /^Bearer <redacted, \d+ characters>$/);

    const forged = Buffer.alloc(10_000, 0x41);
    assert.equal(await post(target.url, forged, { authorization: `Bearer ${token(Buffer.from('other'))}` }), 403);
    kept = target.history();
    assert.equal(kept.at(-1)!.status, 403);
    assert.equal(kept.at(-1)!.body.length, 4096, 'a refused body keeps its 4 KiB prefix');

    const before = kept.length;
    assert.equal(await post(target.url, Buffer.from('{}'), { host: 'evil.example:80' }), 421);
    assert.equal(target.history().length, before, 'a foreign Host is refused before anything is kept');
  });

  it('the least history bounded as #15 asks (what ours is also measured against): refused bodies hashed, not held; caps; one body per token; its own names, path and method', async () => {
    const modulePath = pathToFileURL(join(process.cwd(), 'bench', 'receiverTargets.mjs')).href;
    const { leastBoundedHistory } = (await import(modulePath)) as {
      leastBoundedHistory: (jwk: unknown, trust: unknown, o: object) => Promise<Target>;
    };
    target = await leastBoundedHistory(jwk, trust, { maxBody: 300_000, maxInFlight: 450_000 });
    const json = (n: number) => Buffer.from(JSON.stringify({ webhookId: randomUUID(), pad: 'x'.repeat(n) }));
    const signed = (body: Buffer) => ({ authorization: `Bearer ${token(body)}`, 'content-type': 'application/json' });
    const genuine = json(10);
    assert.equal(await post(target.url, genuine, signed(genuine)), 200);
    assert.equal(await post(target.url, genuine, signed(genuine)), 200, 'a copy: answered again');

    // A genuine token replayed with other bodies: the first is held; the second, under the same token, is hashed
    // and answered 503 (held, it would fit beside the first and be refused 403 on its hash).
    const big = Buffer.alloc(200_000, 0x41);
    const replayToken = signed(json(10));
    const first = held(target.url, big, replayToken);
    await until(() => target.bodyBytesInFlight!() === big.length - 1, 'the first replay held');
    const second = held(target.url, big, replayToken);
    // A forged signature: its body streams by, hashed, a 4 KiB prefix kept.
    const forged = held(target.url, big, { authorization: `Bearer ${token(big).slice(0, -4)}AAAA` });
    forged.finish();
    assert.equal(await forged.status, 403);
    assert.equal(target.history().at(-1)!.body.length, 4096, 'a refused body keeps its 4 KiB prefix');
    // Past the bytes all bodies may hold at once: 503.
    const other = json(250_000);
    assert.equal(await post(target.url, other, signed(other)), 503);
    second.finish();
    assert.equal(await second.status, 503, 'the second body under one token was not held');
    first.finish();
    assert.equal(await first.status, 403, 'the held one is refused on its hash');
    await until(() => target.bodyBytesInFlight!() === 0, 'the budget given back');
    assert.equal(await post(target.url, other, signed(other)), 200);
    first.close();
    second.close();

    assert.equal(await post(target.url, Buffer.alloc(300_001), signed(genuine)), 413);
    assert.equal(await post(target.url.replace('/webhooks', '/other'), genuine, signed(genuine)), 404);
    assert.equal(await post(target.url, genuine, { ...signed(genuine), host: 'evil.example:80' }), 421);
  });
});
