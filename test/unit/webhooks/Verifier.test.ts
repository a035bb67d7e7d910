// The seven steps, each failing on its own, the classic attacks, raw-bytes hashing, and the key-set cache limits.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { SignJWT, base64url, exportPKCS8, importPKCS8 } from 'jose';
import { ManualClock } from '../helpers/manualClock';
import {
  TrustedToken,
  Verifier,
  type HeadersVerdict,
  type TrustedIssuer,
  type VerificationResult,
} from '../../../src/core/webhooks/Verifier';
import { JwksCache } from '../../../src/core/webhooks/JwksCache';
import { KeySetServer, newRsaKey, type TestKey } from '../helpers/keySetServer';

const ISS = 'https://issuer.test/webhooks';
const AUD = 'my-receiver';
const BODY = Buffer.from(
  '{"webhookId":"3f1c2a8e-0b4e-4c39-9d3a-1f2e3d4c5b6a","topic":"workflow/completed","data":{"runId":"wfrun_1"}}',
);
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('Verifier', () => {
  let keys: KeySetServer;
  let other: KeySetServer;
  let key: TestKey;
  let clock: ManualClock;
  let verifier: Verifier;
  let issuers: TrustedIssuer[];
  const nowS = () => Math.floor(clock.now() / 1000);

  async function token(
    opts: {
      claims?: Record<string, unknown>;
      header?: Record<string, unknown>;
      signWith?: TestKey;
      drop?: string[];
    } = {},
  ): Promise<string> {
    const claims: Record<string, unknown> = {
      iss: ISS,
      aud: AUD,
      iat: nowS(),
      exp: nowS() + 300,
      body_sha256: sha(BODY),
      ...opts.claims,
    };
    for (const d of opts.drop ?? []) delete claims[d];
    const k = opts.signWith ?? key;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, ...opts.header } as never)
      .sign(k.privateKey);
  }
  /** Both doors, as the receiver takes them: the headers, then the body's digest. */
  const verify = async (auth: string | undefined, body: Buffer = BODY): Promise<VerificationResult> => {
    const v = await verifier.headers(auth);
    return v instanceof TrustedToken ? verifier.body(v, { size: body.length, sha256: sha(body) }) : v;
  };
  const failedStep = (r: VerificationResult) => r.checks.find((c) => !c.ok)?.step;

  before(async () => {
    key = await newRsaKey('k1');
  });
  beforeEach(async () => {
    keys = new KeySetServer();
    other = new KeySetServer();
    await keys.start();
    await other.start();
    keys.keys = [key.jwk];
    clock = new ManualClock();
    issuers = [
      { issuer: ISS, jwksUrl: keys.url, audience: AUD },
      { issuer: 'https://other.test', jwksUrl: other.url, audience: 'other-aud' },
    ];
    verifier = new Verifier({ issuers, clock });
  });
  afterEach(async () => {
    await keys.stop();
    await other.stop();
  });

  it('passes a genuine delivery: seven checks in order', async () => {
    const r = await verify(`Bearer ${await token()}`);
    assert.equal(r.ok, true);
    assert.deepEqual(
      r.checks.map((c) => [c.step, c.ok]),
      [1, 2, 3, 4, 5, 6, 7].map((s) => [s, true]),
    );
  });

  it('setIssuers: an issuer removed is refused at step 2; one whose key-set address changed gets a new cache', async () => {
    assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
    assert.equal(keys.requests, 1);
    verifier.setIssuers([issuers[1]!]);
    const r = await verify(`Bearer ${await token()}`);
    assert.equal(failedStep(r), 2);
    assert.equal(keys.requests, 1, 'no key-set request for an issuer no longer trusted');
    verifier.setIssuers([{ ...issuers[0]!, jwksUrl: `${keys.url}?moved` }, issuers[1]!]);
    assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
    assert.equal(keys.requests, 2, 'the moved key set is fetched anew: its cache is a new one');
    verifier.setIssuers([...verifier.issuers]);
    assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
    assert.equal(keys.requests, 2, 'an unchanged issuer keeps its cache: no new key-set request');
  });

  it("trustToken: one token of an issuer not otherwise trusted verifies (Test Public Address's probe); any other token of that issuer is refused at step 2", async () => {
    verifier.setIssuers([issuers[1]!]);
    const probe = await token();
    const untrust = verifier.trustToken(probe, [issuers[0]!]);
    assert.equal((await verify(`Bearer ${probe}`)).ok, true);
    clock.advance(1000);
    assert.equal(failedStep(await verify(`Bearer ${await token()}`)), 2, 'another token of the same issuer');
    untrust();
    assert.equal(failedStep(await verify(`Bearer ${probe}`)), 2, 'the probe itself, once its test is over');
  });

  describe('trustToken once: a token signed here verifies for one delivery only', () => {
    beforeEach(() => verifier.setIssuers([issuers[1]!]));

    it('the first delivery that verifies spends it; the next with it is refused at step 2; any other token of the issuer too', async () => {
      const signed = await token();
      verifier.trustToken(signed, [issuers[0]!], { once: true });
      assert.equal(failedStep(await verify(`Bearer ${signed}`, Buffer.from('another body'))), 6);
      assert.equal(verifier.pendingOnce.count, 1, 'a body that fails step 6 does not spend it');
      const v = await verifier.headers(`Bearer ${signed}`);
      assert.ok(v instanceof TrustedToken);
      assert.equal(v.signedHere, signed, 'the verdict says it was signed here');
      assert.equal(verifier.body(v, { size: BODY.length, sha256: sha(BODY) }).ok, true);
      assert.equal(verifier.pendingOnce.count, 0);
      const again = await verify(`Bearer ${signed}`);
      assert.equal(failedStep(again), 2, 'spent');
      assert.equal(failedStep(await verify(`Bearer ${await token({ claims: { jti: 'x' } })}`)), 2);
    });

    it('two copies verified by their headers while it was unspent: the second to reach step 6 is refused (spent), unless told not to spend', async () => {
      const signed = await token();
      verifier.trustToken(signed, [issuers[0]!], { once: true });
      const a = await verifier.headers(`Bearer ${signed}`);
      const b = await verifier.headers(`Bearer ${signed}`);
      assert.ok(a instanceof TrustedToken && b instanceof TrustedToken);
      const digest = { size: BODY.length, sha256: sha(BODY) };
      assert.equal(verifier.body(b, digest, false).ok, true, 'a copy that does not spend it');
      assert.equal(verifier.body(a, digest).ok, true);
      const late = verifier.body(b, digest);
      assert.equal(late.ok, false);
      assert.match(late.checks.find((c) => c.step === 2)!.detail, /signed here for one delivery, already spent/);
    });

    it("judged by its signer's key set alone: another key set trusted for the same issuer is not asked for its kid", async () => {
      // Two sandboxes under one issuer string: the environment's key set (other) and the signer's (keys).
      const envKey = await newRsaKey('env-1');
      other.keys = [envKey.jwk];
      verifier.setIssuers([{ issuer: ISS, jwksUrl: other.url, audience: AUD }]);
      const signed = await token();
      verifier.trustToken(signed, [issuers[0]!], { once: true });
      assert.equal((await verify(`Bearer ${signed}`)).ok, true);
      assert.equal(other.requests, 0, "the environment's key set was not asked for the signer's kid");
      const forged = await token({ signWith: envKey });
      verifier.trustToken(forged, [issuers[0]!], { once: true });
      assert.equal(failedStep(await verify(`Bearer ${forged}`)), 4, 'a forgery under the kid fails on its merits');
    });

    it('expires with its own exp (plus the 60 s tolerance); one already expired is kept a minute, refused at step 5', async () => {
      const signed = await token({ claims: { exp: nowS() + 30 } });
      verifier.trustToken(signed, [issuers[0]!], { once: true });
      clock.advance(91_000);
      assert.equal(failedStep(await verify(`Bearer ${signed}`)), 2, 'past exp + 60 s: not trusted any more');
      assert.equal(verifier.pendingOnce.count, 0);
      const expired = await token({ claims: { exp: nowS() - 120 } });
      verifier.trustToken(expired, [issuers[0]!], { once: true });
      assert.equal(failedStep(await verify(`Bearer ${expired}`)), 5, "judged by its signer's key set: expired");
      clock.advance(61_000);
      verifier.trustToken(await token(), [issuers[0]!], { once: true });
      assert.equal(verifier.pendingOnce.count, 1, 'the expired one was dropped after its minute');
    });

    it('bounded: at most 256 pending, the oldest dropped first; withdrawn by the function it returns', async () => {
      const first = await token({ claims: { jti: 'first' } });
      verifier.trustToken(first, [issuers[0]!], { once: true });
      const base = await token();
      for (let i = 0; i < 256; i++) verifier.trustToken(`${base}${i}`, [issuers[0]!], { once: true });
      assert.equal(verifier.pendingOnce.count, 256);
      assert.ok(verifier.pendingOnce.bytes < 1024 * 1024);
      assert.equal(failedStep(await verify(`Bearer ${first}`)), 2, 'the oldest was dropped');
      const last = await token({ claims: { jti: 'last' } });
      const withdraw = verifier.trustToken(last, [issuers[0]!], { once: true });
      withdraw();
      assert.equal(failedStep(await verify(`Bearer ${last}`)), 2);
      assert.equal(verifier.pendingOnce.count, 255);
    });

    it('bounded in bytes: a megabyte of pending tokens at most', async () => {
      const long = 'x'.repeat(300 * 1024);
      for (let i = 0; i < 5; i++) verifier.trustToken(`${long}${i}`, [issuers[0]!], { once: true });
      assert.ok(verifier.pendingOnce.bytes <= 1024 * 1024, String(verifier.pendingOnce.bytes));
      assert.equal(verifier.pendingOnce.count, 3);
    });
  });

  describe('one issuer at two key sets (two environments, e.g. two sandboxes)', () => {
    let second: TestKey;
    let staging: KeySetServer;
    beforeEach(async () => {
      // The same kid in both sets, different keys: what two sandboxes look like.
      second = await newRsaKey('k1');
      staging = new KeySetServer();
      await staging.start();
      staging.keys = [second.jwk];
      verifier.setIssuers([...issuers, { issuer: ISS, jwksUrl: staging.url, audience: 'staging-aud' }]);
    });
    afterEach(() => staging.stop());

    it("each delivery verifies against its own key set, with that entry's audience", async () => {
      const a = await verify(`Bearer ${await token()}`);
      assert.equal(a.ok, true, JSON.stringify(a.checks));
      assert.match(a.checks[2]!.detail, new RegExp(keys.url.replace(/[.?]/g, '\\$&')));
      const b = await verify(`Bearer ${await token({ signWith: second, claims: { aud: 'staging-aud' } })}`);
      assert.equal(b.ok, true, JSON.stringify(b.checks));
      assert.match(
        b.checks[2]!.detail,
        new RegExp(staging.url.replace(/[.?]/g, '\\$&')),
        'step 3 names the key set that verified it',
      );
    });

    it("an entry's key does not lend its trust to another entry's audience", async () => {
      const r = await verify(`Bearer ${await token({ signWith: second, claims: { aud: AUD } })}`);
      assert.equal(failedStep(r), 5);
      assert.match(r.checks.find((c) => !c.ok)!.detail, /staging-aud/);
    });

    it('a kid in neither set names both; a key in neither set fails step 4 after trying both', async () => {
      const unknown = await verify(`Bearer ${await token({ header: { kid: 'nope' } })}`);
      assert.equal(failedStep(unknown), 3);
      const detail = unknown.checks.find((c) => !c.ok)!.detail;
      assert.ok(detail.includes(keys.url) && detail.includes(staging.url), detail);
      const foreign = await verify(`Bearer ${await token({ signWith: await newRsaKey('k1') })}`);
      assert.equal(failedStep(foreign), 4);
      assert.match(foreign.checks.find((c) => !c.ok)!.detail, /any of 2 key sets/);
    });

    it('two audiences at one key set: a token for either verifies, with one key-set cache', async () => {
      verifier.setIssuers([issuers[0]!, { issuer: ISS, jwksUrl: keys.url, audience: 'second-aud' }]);
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
      assert.equal((await verify(`Bearer ${await token({ claims: { aud: 'second-aud' } })}`)).ok, true);
      assert.equal(failedStep(await verify(`Bearer ${await token({ claims: { aud: 'third-aud' } })}`)), 5);
      assert.equal(keys.requests, 1);
    });

    it("a kid cached in one key set is used without asking the other (issue #51: 8 deliveries from A fetched B 5 times, then B's rotation got 403)", async () => {
      const b1 = await newRsaKey('b1');
      staging.keys = [b1.jwk];
      for (let i = 0; i < 8; i++) {
        assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
        clock.advance(1000);
      }
      assert.equal(staging.requests, 1, 'the first delivery asked both; the next seven used the cached key');
      clock.advance(16_000);
      const b2 = await newRsaKey('b2');
      staging.keys = [b2.jwk, b1.jwk];
      const r = await verify(
        `Bearer ${await token({ signWith: b2, header: { kid: 'b2' }, claims: { aud: 'staging-aud' } })}`,
      );
      assert.equal(r.ok, true, JSON.stringify(r.checks));
      assert.equal(staging.requests, 2);
    });

    it('a signature the cached key does not verify asks the key set not consulted before deciding (two sets naming keys alike)', async () => {
      staging.keys = [];
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true, 'k1 cached in the first set only');
      staging.keys = [second.jwk]; // the second set rotates in a key under the same kid
      const fromStaging = `Bearer ${await token({ signWith: second, claims: { aud: 'staging-aud' } })}`;
      const early = await verify(fromStaging);
      assert.ok(
        early.retryAfterS !== undefined,
        `within the cooldown: answered later, never refused (${early.checks.find((c) => !c.ok)?.detail})`,
      );
      assert.ok(
        early.checks.find((c) => !c.ok)!.detail.includes(keys.url) &&
          early.checks.find((c) => !c.ok)!.detail.includes(staging.url),
        'names both key sets',
      );
      clock.advance(early.retryAfterS! * 1000);
      assert.equal((await verify(fromStaging)).ok, true);
      const foreign = await verify(`Bearer ${await token({ signWith: await newRsaKey('k1') })}`);
      assert.equal(failedStep(foreign), 4);
      assert.equal(foreign.retryAfterS, undefined);
    });

    it('each key set keeps its own request budget', async () => {
      for (let i = 0; i < 20; i++) await verify(`Bearer ${await token({ header: { kid: `flood-${i}` } })}`);
      assert.ok(keys.requests <= 5 && staging.requests <= 5, `${keys.requests} / ${staging.requests}`);
      assert.ok(staging.requests >= 1, 'the second set was asked too');
    });
  });

  it('concurrent deliveries, forged and genuine interleaved, each get their own verdict', async () => {
    const other = await newRsaKey('k1');
    const forged = await verify(`Bearer ${await token({ signWith: other })}`);
    assert.equal(failedStep(forged), 4);
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => token(i % 2 ? { signWith: other } : {})));
    const results = await Promise.all(tokens.map((t) => verify(`Bearer ${t}`)));
    assert.deepEqual(
      results.map((r) => r.ok),
      Array.from({ length: 20 }, (_, i) => i % 2 === 0),
    );
  });

  describe('the two doors: headers() before the body, body() with its digest', () => {
    /** Synchronous: the key is cached. */
    const now = (r: ReturnType<Verifier['headers']>): HeadersVerdict => {
      assert.ok(!(r instanceof Promise), 'decided from the cache, with no promise');
      return r;
    };
    const trusted = (v: HeadersVerdict): TrustedToken => {
      assert.ok(v instanceof TrustedToken, `through steps 1 to 5: ${JSON.stringify(v)}`);
      return v;
    };
    const digest = (b: Buffer) => ({ size: b.length, sha256: sha(b) });

    it('before the key set is fetched: a promise while it is, then the same verdicts (one fetch for both)', async () => {
      // Both tokens made first: the two verdicts are asked for back to back, while the one fetch is in flight.
      const [bad, genuine] = [await token({ signWith: await newRsaKey('k1') }), await token()];
      const forged = verifier.headers(`Bearer ${bad}`);
      const passed = verifier.headers(`Bearer ${genuine}`);
      assert.ok(forged instanceof Promise && passed instanceof Promise);
      assert.equal(failedStep((await forged) as VerificationResult), 4);
      const t = trusted(await passed);
      assert.equal(keys.requests, 1);
      assert.equal(verifier.body(t, digest(BODY)).ok, true);
    });

    it('a key set that cannot be fetched is refused at step 3, before the body', async () => {
      keys.keys = [];
      assert.equal(failedStep((await verifier.headers(`Bearer ${await token()}`)) as VerificationResult), 3);
    });

    it('from the cache: a signature that does not verify (step 4), another audience or an expired token (step 5) is refused before the body', async () => {
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true, 'the key is cached');
      const forged = now(verifier.headers(`Bearer ${await token({ signWith: await newRsaKey('k1') })}`));
      assert.ok(!(forged instanceof TrustedToken));
      assert.deepEqual(
        forged.checks.map((c) => [c.step, c.ok]),
        [
          [1, true],
          [2, true],
          [3, true],
          [4, false],
          [7, false],
        ],
      );
      const aud = now(verifier.headers(`Bearer ${await token({ claims: { aud: 'someone-else' } })}`));
      assert.equal(failedStep(aud as VerificationResult), 5);
      const expired = now(verifier.headers(`Bearer ${await token({ claims: { exp: nowS() - 61 } })}`));
      assert.equal(failedStep(expired as VerificationResult), 5);
      assert.equal(keys.requests, 1, 'from the cache');
    });

    it('passed, body() checks step 6 on the digest: a wrong body is refused there, the right one verified', async () => {
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
      const t = trusted(now(verifier.headers(`Bearer ${await token()}`)));
      // Steps 3 to 5 held at arrival: a body that takes past exp + 60 s to arrive is judged on its hash alone.
      clock.advance(400_000);
      const other = Buffer.from('{"another":"body"}');
      const refusal = verifier.body(t, digest(other));
      assert.equal(failedStep(refusal), 6);
      assert.match(refusal.checks.find((c) => !c.ok)!.detail, /does not match the 18 bytes received/);
      const r = verifier.body(t, digest(BODY));
      assert.equal(r.ok, true);
      assert.deepEqual(
        r.checks.map((c) => [c.step, c.ok]),
        [1, 2, 3, 4, 5, 6, 7].map((n) => [n, true]),
      );
      assert.deepEqual(r.claims, t.decoded.claims, 'the claims, for display');
    });

    it('a fault inside verification is a refusal, never thrown', async () => {
      const broken = new Verifier({
        issuers,
        clock,
        keySet: () => {
          throw new Error('no cache for you');
        },
      });
      const r = await broken.headers(`Bearer ${await token()}`);
      assert.ok(!(r instanceof TrustedToken));
      assert.equal(r.ok, false);
      assert.match(r.checks.at(-1)!.detail, /refused with 403: no cache for you/);
    });
  });

  describe('each step failing on its own', () => {
    const stepOne: [string, () => string | undefined][] = [
      ['no Authorization header', () => undefined],
      ['Basic credentials', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['Bearer with no token', () => 'Bearer'],
    ];
    for (const [name, auth] of stepOne)
      it(`1: ${name}`, async () => {
        assert.equal(failedStep(await verify(auth())), 1);
      });
    it('1: the scheme in lower case (bearer)', async () => {
      assert.equal(failedStep(await verify(`bearer ${await token()}`)), 1);
    });
    it('2: unknown issuer is refused with zero key-set requests', async () => {
      const r = await verify(`Bearer ${await token({ claims: { iss: 'https://evil.test' } })}`);
      assert.equal(failedStep(r), 2);
      assert.equal(keys.requests + other.requests, 0);
    });
    it('3: kid not in the key set', async () => {
      assert.equal(failedStep(await verify(`Bearer ${await token({ header: { kid: 'nope' } })}`)), 3);
    });
    it('4: signature broken', async () => {
      const t = await token();
      const [h, p, s] = t.split('.');
      // A middle character carries 6 data bits, so any other letter is still canonical base64url (step 2 passes);
      // the last one carries 2, and most replacements there are refused at step 2 instead (about 1 token in 256).
      const flipped = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11);
      assert.equal(failedStep(await verify(`Bearer ${h}.${p}.${flipped}`)), 4);
    });
    const stepFive: [string, () => Parameters<typeof token>[0]][] = [
      ['wrong audience', () => ({ claims: { aud: 'someone-else' } })],
      ['exp missing', () => ({ drop: ['exp'] })],
      ['exp a string', () => ({ claims: { exp: String(nowS() + 300) } })],
      ['exp 120 s past', () => ({ claims: { exp: nowS() - 120 } })],
    ];
    for (const [name, opts] of stepFive)
      it(`5: ${name}`, async () => {
        assert.equal(failedStep(await verify(`Bearer ${await token(opts())}`)), 5);
      });
    it('5: exp 30 s past is within the 60 s tolerance', async () => {
      assert.equal((await verify(`Bearer ${await token({ claims: { exp: nowS() - 30 } })}`)).ok, true);
    });
    const changed = Buffer.from(BODY);
    changed[10] ^= 1;
    const stepSix: [string, () => Parameters<typeof token>[0], Buffer][] = [
      ['body changed by one byte', () => ({}), changed],
      ['body_sha256 missing', () => ({ drop: ['body_sha256'] }), BODY],
      ['body_sha256 not lower-case hex', () => ({ claims: { body_sha256: sha(BODY).toUpperCase() } }), BODY],
    ];
    for (const [name, opts, body] of stepSix)
      it(`6: ${name}`, async () => {
        assert.equal(failedStep(await verify(`Bearer ${await token(opts())}`, body)), 6);
      });
    it('7: every failure ends in a recorded 403 decision', async () => {
      const r = await verify(undefined);
      assert.deepEqual(r.checks.at(-1), {
        step: 7,
        name: 'decision',
        ok: false,
        detail: 'refused with 403: step 1 (bearer token) failed',
        said: { message: 'refused with 403: step {0} ({1}) failed', values: [1, { message: 'bearer token' }] },
      });
    });
  });

  describe('classic attacks', () => {
    it('alg none', async () => {
      const h = base64url.encode(JSON.stringify({ alg: 'none', kid: 'k1' }));
      const p = base64url.encode(JSON.stringify({ iss: ISS, aud: AUD, exp: nowS() + 300, body_sha256: sha(BODY) }));
      assert.equal(failedStep(await verify(`Bearer ${h}.${p}.`)), 4);
    });
    it('HS256 signed with the RSA public key as the secret', async () => {
      const t = await new SignJWT({ iss: ISS, aud: AUD, exp: nowS() + 300, body_sha256: sha(BODY) })
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .sign(new TextEncoder().encode(key.spki));
      assert.equal(failedStep(await verify(`Bearer ${t}`)), 4);
    });
    for (const alg of ['RS512', 'PS256'] as const)
      it(`${alg} with the right key`, async () => {
        // The same RSA key material, imported for the other algorithm: only the pinned algorithm refuses it.
        const same = await importPKCS8(await exportPKCS8(key.privateKey), alg);
        const t = await new SignJWT({ iss: ISS, aud: AUD, exp: nowS() + 300, body_sha256: sha(BODY) })
          .setProtectedHeader({ alg, kid: 'k1' })
          .sign(same);
        const r = await verify(`Bearer ${t}`);
        assert.equal(failedStep(r), 4);
        assert.match(r.checks.find((c) => !c.ok)!.detail, /only RS256/);
      });
    it('a jku header pointing at another server is never contacted', async () => {
      const t = await token({ header: { jku: other.url } });
      assert.equal((await verify(`Bearer ${t}`)).ok, true, 'verified with the configured key set, jku ignored');
      const forged = await token({
        header: { jku: other.url, kid: 'attacker' },
        signWith: await newRsaKey('attacker'),
      });
      assert.equal((await verify(`Bearer ${forged}`)).ok, false);
      assert.equal(other.requests, 0);
    });
    it('a foreign key under a trusted kid', async () => {
      const foreign = await newRsaKey('k1');
      assert.equal(failedStep(await verify(`Bearer ${await token({ signWith: foreign })}`)), 4);
    });
    it('the audience of another trusted issuer', async () => {
      assert.equal(failedStep(await verify(`Bearer ${await token({ claims: { aud: 'other-aud' } })}`)), 5);
    });
    it('an RSA key under 2048 bits is refused (403), not thrown', async () => {
      // jose will not make or use such a key, so it is made and used with node:crypto directly.
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
      keys.keys = [key.jwk, { ...(publicKey.export({ format: 'jwk' }) as object), kid: 'small', use: 'sig' }];
      const now = nowS();
      const input = `${base64url.encode(JSON.stringify({ alg: 'RS256', kid: 'small' }))}.${base64url.encode(JSON.stringify({ iss: ISS, aud: AUD, exp: now + 300, body_sha256: sha(BODY) }))}`;
      const r = await verify(
        `Bearer ${input}.${cryptoSign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`,
      );
      assert.equal(r.ok, false);
      assert.equal(failedStep(r), 3);
      assert.match(r.checks.find((c) => !c.ok)!.detail, /1024 bits; RS256 needs at least 2048/);
    });
    it('a token with critical header parameters is refused', async () => {
      const t = await new SignJWT({ iss: ISS, aud: AUD, exp: nowS() + 300, body_sha256: sha(BODY) })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, crit: ['x-unknown'], 'x-unknown': 1 } as never)
        .sign(key.privateKey, { crit: { 'x-unknown': true } });
      const r = await verify(`Bearer ${t}`);
      assert.equal(failedStep(r), 4);
      assert.match(r.checks.find((c) => !c.ok)!.detail, /critical header parameters/);
    });
    it('a token with an empty signature is refused', async () => {
      const t = await token();
      assert.equal(failedStep(await verify(`Bearer ${t.slice(0, t.lastIndexOf('.') + 1)}`)), 4);
    });
  });

  describe('raw-bytes hashing', () => {
    it('odd whitespace in the body passes when the hash is over those bytes', async () => {
      const odd = Buffer.from('{ "a" :1 ,\n\t"b":[ 1,2 ] }');
      const r = await verify(`Bearer ${await token({ claims: { body_sha256: sha(odd) } })}`, odd);
      assert.equal(r.ok, true);
    });
    it('a re-serialised body fails against the hash of the bytes sent', async () => {
      const sent = Buffer.from('{ "a": 1 }');
      const reserialised = Buffer.from(JSON.stringify(JSON.parse(sent.toString())));
      assert.equal(
        failedStep(await verify(`Bearer ${await token({ claims: { body_sha256: sha(sent) } })}`, reserialised)),
        6,
      );
    });
  });

  describe('key-set cache', () => {
    it('300 concurrent deliveries on a cold cache make one key-set request', async () => {
      const t = `Bearer ${await token()}`;
      const results = await Promise.all(Array.from({ length: 300 }, () => verify(t)));
      assert.ok(results.every((r) => r.ok));
      assert.equal(keys.requests, 1);
    });
    it('a flood of unknown kids makes one key-set request per cooldown (15 s); none is verified, none spends the budget', async () => {
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
      for (let i = 0; i < 50; i++) {
        const r = await verify(`Bearer ${await token({ header: { kid: `unknown-${i}` } })}`);
        assert.equal(r.ok, false);
        assert.equal(failedStep(r), 3);
        assert.ok(r.retryAfterS! >= 1 && r.retryAfterS! <= 15, `undecided, answered later: ${r.retryAfterS}`);
      }
      assert.equal(keys.requests, 1, 'within the cooldown after a fetch, an unknown kid does not refetch');
      for (let s = 0; s < 60; s++) {
        clock.advance(1000);
        for (let i = 0; i < 10; i++)
          assert.equal((await verify(`Bearer ${await token({ header: { kid: `again-${s}-${i}` } })}`)).ok, false);
      }
      assert.equal(keys.requests, 1 + 4, 'one a cooldown: 4 in a minute, under the 5-a-minute budget');
    });
    it('a kid that a key set fetched after the delivery arrived does not hold is refused (403), naming the key set and what it holds', async () => {
      const r = await verify(`Bearer ${await token({ header: { kid: 'never' } })}`);
      assert.equal(failedStep(r), 3);
      assert.equal(r.retryAfterS, undefined, 'decided: a refusal');
      const detail = r.checks.find((c) => !c.ok)!.detail;
      assert.ok(detail.startsWith(`${keys.url}: no key with kid "never"`), detail);
      assert.match(detail, /fetched after the delivery arrived, holds 1 kid: "k1"/);
      assert.match(r.checks[r.checks.length - 1]!.detail, /refused with 403/);
    });
    it('key-set endpoint down: 503 with Retry-After (nothing decided), one request per cooldown, failures included', async () => {
      keys.failing = true;
      for (let i = 0; i < 20; i++) {
        const r = await verify(`Bearer ${await token()}`);
        assert.equal(r.ok, false);
        assert.equal(failedStep(r), 3);
        assert.ok(r.retryAfterS! >= 1, 'answered later, not refused');
        assert.match(
          r.checks.find((c) => !c.ok)!.detail,
          /could not be consulted: not fetched yet \(the last request failed: key set answered 503\)/,
        );
        assert.match(
          r.checks[r.checks.length - 1]!.detail,
          /^not decided: answered 503 with Retry-After \d+ s, because step 3 \(signing key\) could not consult the key set; the service sends the delivery again$/,
        );
      }
      assert.equal(keys.requests, 1);
      clock.advance(15_000);
      keys.failing = false;
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true, 'verified once the key set answers again');
      assert.equal(keys.requests, 2);
    });
    it('rotation after a flood of forged kids (issue #51): the genuine delivery under the new key is answered later, then verified on its resend', async () => {
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
      for (let i = 0; i < 6; i++)
        assert.equal((await verify(`Bearer ${await token({ header: { kid: `forged-${i}` } })}`)).ok, false);
      const k2 = await newRsaKey('k2');
      keys.keys = [k2.jwk, key.jwk];
      const genuine = `Bearer ${await token({ header: { kid: 'k2' }, signWith: k2 })}`;
      const first = await verify(genuine);
      assert.equal(first.ok, false);
      assert.ok(first.retryAfterS !== undefined, `never refused: ${first.checks.find((c) => !c.ok)?.detail}`);
      clock.advance(first.retryAfterS * 1000);
      const resent = await verify(genuine);
      assert.equal(resent.ok, true, JSON.stringify(resent.checks));
    });
    it('keeps the last good key set when a refresh fails', async () => {
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
      keys.failing = true;
      clock.advance(3600_000); // stale: an hourly refresh is due and fails
      assert.equal((await verify(`Bearer ${await token()}`)).ok, true);
      assert.equal(keys.requests, 2);
    });
    it('refreshes hourly, and picks up a rotated key through an unknown kid', async () => {
      await verify(`Bearer ${await token()}`);
      clock.advance(30 * 60_000);
      await verify(`Bearer ${await token()}`);
      assert.equal(keys.requests, 1, 'fresh for an hour');
      const k2 = await newRsaKey('k2');
      keys.keys = [k2.jwk, key.jwk];
      const r = await verify(`Bearer ${await token({ header: { kid: 'k2' }, signWith: k2 })}`);
      assert.equal(r.ok, true);
      assert.equal(keys.requests, 2);
      clock.advance(3600_000);
      await verify(`Bearer ${await token()}`);
      assert.equal(keys.requests, 3, 'hourly refresh');
    });
    it('JwksCache times out a key-set endpoint that never answers', async () => {
      // Accepts the request and never answers: only the cache's own timeout ends the wait.
      let requests = 0;
      const silent = createServer(() => void requests++);
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      try {
        const cache = new JwksCache({
          jwksUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/jwks`,
          clock,
          timeoutMs: 200,
        });
        await assert.rejects(
          cache.getKey('k1'),
          /could not be consulted: not fetched yet \(the last request failed: no answer .* within 200 ms\)/,
        );
        assert.equal(requests, 1);
      } finally {
        silent.closeAllConnections();
        await new Promise((r) => silent.close(r));
      }
    });
  });
});
