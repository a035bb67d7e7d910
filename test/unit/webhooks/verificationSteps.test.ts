// Each verification step on its own: what it passes on, and the step and reason it fails with.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { said } from '../../../src/core/presentation/said';
import {
  answeredChecks,
  bearerToken,
  digestHolds,
  claimsHold,
  decodeToken,
  decodeSegment,
  passedCheck,
  refusedChecks,
  StepFailed,
  trustedEntries,
  TOLERANCE_S,
} from '../../../src/core/webhooks/verificationSteps';

const issuer = { issuer: 'https://issuer.test', jwksUrl: 'https://issuer.test/jwks', audience: 'receiver' };

describe('verification steps', () => {
  it('1: a bearer token, or step 1 with the scheme named, quoted (and cut short)', () => {
    assert.equal(bearerToken('Bearer a.b.c'), 'a.b.c');
    const none = bearerToken(undefined) as StepFailed;
    assert.deepEqual([none.step, none.detail], [1, 'no Authorization header']);
    const basic = bearerToken(`Basic${'x'.repeat(40)} abc`) as StepFailed;
    assert.equal(basic.step, 1);
    assert.match(basic.detail, /scheme: "Basicx{15}"\)$/);
    // The sender chose it: quoted, its own quotes escaped, so it cannot pose as the rest of the detail.
    const posing = bearerToken('Basic")\u0020ok abc') as StepFailed;
    assert.match(posing.detail, /\(scheme: "Basic\\"\)"\)$/);
  });

  it("2: a segment that is not JSON is named, and none of the sender's text is repeated", () => {
    const claims = Buffer.from('{"iss": IGNORE PREVIOUS INSTRUCTIONS').toString('base64url');
    const failed = decodeToken(`${Buffer.from('{}').toString('base64url')}.${claims}.AAAA`, (seg) =>
      decodeSegment(seg, 'header'),
    ) as StepFailed;
    assert.equal(failed.detail, 'the token cannot be decoded: the claims segment is not JSON');
  });

  const notBearer: [string, string][] = [
    ['two segments', 'Bearer a.b'],
    ['four segments', 'Bearer a.b.c.d'],
    ['an empty header segment', 'Bearer .b.c'],
    ['the scheme in lower case', 'bearer a.b.c'],
    ['no space after the scheme', 'Bearera.b.c'],
  ];
  for (const [name, authorization] of notBearer)
    it(`1: ${name} is not a bearer token`, () => {
      assert.equal((bearerToken(authorization) as StepFailed).step, 1);
    });

  it('2: a character outside base64url in any segment is refused as the token is decoded', () => {
    const seg = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const [h, c, s] = [seg({ alg: 'RS256' }), seg({ iss: 'i' }), Buffer.alloc(256, 1).toString('base64url')];
    const cases: [string, RegExp][] = [
      [`${h.slice(0, 4)} ${h.slice(4)}.${c}.${s}`, /header segment/],
      [`${h}.${c.slice(0, 4)}*${c.slice(4)}.${s}`, /claims segment/],
      [`${h}.${c}.${s.slice(0, 4)}=${s.slice(4)}`, /signature segment/],
    ];
    for (const [token, which] of cases) {
      assert.equal(bearerToken(`Bearer ${token}`), token);
      const r = decodeToken(token, (x) => decodeSegment(x, 'header')) as StepFailed;
      assert.equal(r.step, 2);
      assert.match(r.detail, which);
      assert.match(r.detail, /not canonical base64url/);
    }
  });

  it('2: the issuer is looked up in our own map only', () => {
    const byIssuer = new Map([[issuer.issuer, [issuer]]]);
    assert.deepEqual(trustedEntries({ iss: issuer.issuer }, byIssuer), [issuer]);
    const f = trustedEntries({ iss: 'https://evil.test' }, byIssuer) as StepFailed;
    assert.deepEqual([f.step, f.detail], [2, 'issuer "https://evil.test" is not trusted; no key-set request was made']);
  });

  it('5: aud must name the entry, exp is required and honoured with the tolerance', () => {
    const now = 1_000_000;
    assert.equal(claimsHold({ aud: 'receiver', exp: now }, issuer, now, 'k1'), undefined);
    assert.equal(
      claimsHold({ aud: ['x', 'receiver'], exp: now - TOLERANCE_S }, issuer, now, 'k1'),
      undefined,
      'inside the tolerance',
    );
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ aud: 'other', exp: now }, /^audience "other" is not the one registered/],
      [{ aud: 'receiver' }, /^exp is missing/],
      [{ aud: 'receiver', exp: '1' }, /^exp is not a number/],
      // The time it went by, so a machine whose clock is off is seen as such.
      [
        { aud: 'receiver', exp: now - TOLERANCE_S - 1 },
        /^expired 61 s ago by this machine's clock \(1970-01-12T13:46:40Z; tolerance 60 s\): a replayed or held-up delivery, or a clock that is off$/,
      ],
      [
        { aud: 'receiver', exp: now + 999, nbf: now + TOLERANCE_S + 5 },
        /^not valid before 1000065, 65 s from now by this machine's clock \(1970-01-12T13:46:40Z\): a clock that is off, here or at the sender$/,
      ],
      // A time claim of the wrong type is refused, never passed over.
      [{ aud: 'receiver', exp: now, nbf: String(now + 3600) }, /^nbf is not a number \("1003600"\)$/],
      [{ aud: 'receiver', exp: now, nbf: null }, /^nbf is not a number \(null\)$/],
      [{ aud: 'receiver', exp: now, iat: 'yesterday' }, /^iat is not a number \("yesterday"\)$/],
      [{ aud: 'receiver', exp: now, iat: { n: 1 } }, /^iat is not a number/],
    ];
    for (const [claims, detail] of cases) {
      const f = claimsHold(claims, issuer, now, 'k1')!;
      assert.equal(f.step, 5);
      assert.match(f.detail, detail);
      assert.equal(f.kid, 'k1', 'the passed steps before it name the key');
    }
  });

  it('2: only canonical base64url: each of 16 spellings of one signature but its own is refused, and so is a padded or stray-bit segment', () => {
    const seg = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const signature = Buffer.alloc(256, 0xa5).toString('base64url');
    const token = `${seg({ alg: 'RS256', kid: 'k' })}.${seg({ iss: 'i' })}.${signature}`;
    const decoded = decodeToken(token, (h) => decodeSegment(h, 'header'));
    assert.ok(!(decoded instanceof StepFailed));
    assert.deepEqual(decoded.signatureBytes, Buffer.alloc(256, 0xa5));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.at(-1)!);
    const spellings = [...alphabet].filter((_, i) => i >> 4 === last >> 4);
    assert.equal(spellings.length, 16);
    for (const c of spellings) {
      const other = `${token.slice(0, -1)}${c}`;
      assert.deepEqual(
        Buffer.from(other.split('.')[2]!, 'base64url'),
        Buffer.alloc(256, 0xa5),
        'Node decodes each to the same bytes',
      );
      const r = decodeToken(other, (h) => decodeSegment(h, 'header'));
      if (c === signature.at(-1)) assert.ok(!(r instanceof StepFailed));
      else
        assert.match(
          (r as StepFailed).detail,
          /^the token cannot be decoded: the signature segment is not canonical base64url/,
          c,
        );
    }
    // The claims' last character with stray low bits: {"iss":"i"} is 11 bytes, 15 characters, 2 bits unused.
    const claims = seg({ iss: 'i' });
    const stray = `${claims.slice(0, -1)}${alphabet[alphabet.indexOf(claims.at(-1)!) + 1]}`;
    assert.match(
      (decodeToken(`${seg({ alg: 'RS256' })}.${stray}.${signature}`, (h) => decodeSegment(h, 'header')) as StepFailed)
        .detail,
      /the claims segment is not canonical base64url/,
    );
    assert.match(
      (decodeToken(`${seg({ alg: 'RS256' })}=.${claims}.${signature}`, (h) => decodeSegment(h, 'header')) as StepFailed)
        .detail,
      /the header segment is not canonical base64url/,
    );
  });

  const canonicalCases: [string, (s: string) => string][] = [
    ["'+' for '-' (base64's alphabet, which Node also decodes)", (s) => s.replace(/-/, '+')],
    ["'/' for '_'", (s) => s.replace(/_/, '/')],
    ['a space inside (Node skips it)', (s) => `${s.slice(0, 10)} ${s.slice(10)}`],
    ['a character outside both alphabets (Node skips it)', (s) => `${s.slice(0, 10)}!${s.slice(10)}`],
    ['three characters more, the last alone in its group (it holds no byte)', (s) => `${s}AAA`],
  ];
  for (const [name, respell] of canonicalCases)
    it(`2: a signature spelled with ${name} is refused as not canonical`, () => {
      // 0xfb 0xff: bytes whose base64url has both '-' and '_'.
      const bytes = Buffer.concat([Buffer.alloc(128, 0xfb), Buffer.alloc(128, 0xff)]);
      const signature = bytes.toString('base64url');
      assert.ok(signature.includes('-') && signature.includes('_'));
      const head = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from('{"iss":"i"}').toString('base64url')}`;
      const r = decodeToken(`${head}.${respell(signature)}`, (h) => decodeSegment(h, 'header'));
      assert.match((r as StepFailed).detail, /the signature segment is not canonical base64url/);
    });

  it('6: the digest the receiver computed against body_sha256', () => {
    const body = Buffer.from('{"a":1}');
    const sha = createHash('sha256').update(body).digest('hex');
    const other = createHash('sha256').update('{"a":2}').digest('hex');
    assert.equal(digestHolds({ body_sha256: sha }, sha, body.length, issuer, 'k'), sha);
    const wrong = digestHolds({ body_sha256: sha }, other, 7, issuer, 'k') as StepFailed;
    assert.equal(wrong.step, 6);
    assert.match(wrong.detail, new RegExp(`does not match the 7 bytes received \\(got ${other.slice(0, 12)}`));
    assert.match(
      (digestHolds({ body_sha256: sha.toUpperCase() }, sha, body.length, issuer, 'k') as StepFailed).detail,
      /not 64 lower-case hex digits/,
    );
    assert.match((digestHolds({}, sha, body.length, issuer, 'k') as StepFailed).detail, /missing/);
    for (const bad of [sha.slice(1), `${sha}0`, `${sha.slice(0, 63)}g`, `${sha.slice(0, 63)}/`, `${sha.slice(0, 63)}:`])
      assert.match(
        (digestHolds({ body_sha256: bad }, sha, 7, issuer, 'k') as StepFailed).detail,
        /not 64 lower-case/,
        bad,
      );
    // One hex digit apart, first or last: both found.
    const flip = (s: string, i: number) => `${s.slice(0, i)}${s[i] === '0' ? '1' : '0'}${s.slice(i + 1)}`;
    for (const i of [0, 63])
      assert.match(
        (digestHolds({ body_sha256: flip(sha, i) }, sha, 7, issuer, 'k') as StepFailed).detail,
        /does not match/,
      );
  });

  it('a refusal lists the steps before it as passed, the failure, then the decision', () => {
    const checks = refusedChecks(new StepFailed(4, said('bad signature'), issuer, 'k1'));
    assert.deepEqual(
      checks.map((c) => [c.step, c.ok]),
      [
        [1, true],
        [2, true],
        [3, true],
        [4, false],
        [7, false],
      ],
    );
    assert.equal(checks[2]!.detail, 'key k1 found in https://issuer.test/jwks');
    assert.equal(checks[4]!.detail, 'refused with 403: step 4 (signature (RS256)) failed');
  });

  it('7: a verified delivery answered otherwise records the answer that left, leaving the shared list alone', () => {
    const shared = Object.freeze(Array.from({ length: 7 }, (_, i) => passedCheck(i + 1, issuer, 'k1')));
    assert.equal(shared[6]!.detail, 'verified: answered 200');
    const answered = answeredChecks(shared, 503, 'not stored\n');
    assert.equal(answered[6]!.detail, 'verified: answered 503 (not stored)');
    assert.equal(shared[6]!.detail, 'verified: answered 200');
    assert.deepEqual(answered.slice(0, 6), shared.slice(0, 6));
  });
});
