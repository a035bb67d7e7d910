// The bench's "spec minimum with the least history" is a lower bound for ours only if it does keep what it claims:
// the Host checked, every request kept with its token redacted, a refused body cut to 4 KiB, the bytes bounded.
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { request } from 'node:http';
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
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-length': String(body.length), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
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
    const { specMinimumWithHistory } = (await import(modulePath)) as { specMinimumWithHistory: (jwk: unknown, trust: unknown, budget: number) => Promise<Target> };
    // Room for two verified deliveries of about 2 KB (and 512 bytes of estimate each), not three.
    target = await specMinimumWithHistory(jwk, trust, 6000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const webhookId = randomUUID();
      ids.push(webhookId);
      const body = Buffer.from(JSON.stringify({ webhookId, topic: 't', pad: 'x'.repeat(2000) }));
      const bearer = `Bearer ${token(body)}`;
      assert.equal(await post(target.url, body, { authorization: bearer, 'content-type': 'application/json' }), 200);
      for (const kept of target.history()) assert.ok(!JSON.stringify(kept.headers).includes(bearer.slice(7)), 'the token is never kept');
    }
    let kept = target.history();
    assert.deepEqual(kept.map((k) => k.webhookId), ids.slice(1), 'the oldest went when the budget was reached');
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
});
