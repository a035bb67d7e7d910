// Each verification step on its own: what it passes on, and the step and reason it fails with.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  answeredChecks,
  bearerToken,
  bodyHashHolds,
  claimsHold,
  passedCheck,
  refusedChecks,
  StepFailed,
  trustedEntries,
  TOLERANCE_S,
} from '../../../src/core/webhooks/verificationSteps';

const issuer = { issuer: 'https://issuer.test', jwksUrl: 'https://issuer.test/jwks', audience: 'receiver' };

describe('verification steps', () => {
  it('1: a bearer token, or step 1 with the scheme named (and cut short)', () => {
    assert.equal(bearerToken('Bearer a.b.c'), 'a.b.c');
    const none = bearerToken(undefined) as StepFailed;
    assert.deepEqual([none.step, none.detail], [1, 'no Authorization header']);
    const basic = bearerToken(`Basic${'x'.repeat(40)} abc`) as StepFailed;
    assert.equal(basic.step, 1);
    assert.match(basic.detail, /scheme: Basicx{15}\)$/);
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
    assert.equal(claimsHold({ aud: ['x', 'receiver'], exp: now - TOLERANCE_S }, issuer, now, 'k1'), undefined, 'inside the tolerance');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ aud: 'other', exp: now }, /^audience "other" is not the one registered/],
      [{ aud: 'receiver' }, /^exp is missing/],
      [{ aud: 'receiver', exp: '1' }, /^exp is not a number/],
      // The time it went by, so a machine whose clock is off is seen as such.
      [{ aud: 'receiver', exp: now - TOLERANCE_S - 1 }, /^expired 61 s ago by this machine's clock \(1970-01-12T13:46:40Z; tolerance 60 s\): a replayed or held-up delivery, or a clock that is off$/],
      [{ aud: 'receiver', exp: now + 999, nbf: now + TOLERANCE_S + 5 }, /^not valid before 1000065, 65 s from now by this machine's clock \(1970-01-12T13:46:40Z\): a clock that is off, here or at the sender$/],
    ];
    for (const [claims, detail] of cases) {
      const f = claimsHold(claims, issuer, now, 'k1')!;
      assert.equal(f.step, 5);
      assert.match(f.detail, detail);
      assert.equal(f.kid, 'k1', 'the passed steps before it name the key');
    }
  });

  it('6: the hash of the raw bytes, or step 6 carrying the hash it computed', () => {
    const body = Buffer.from('{"a":1}');
    const sha = createHash('sha256').update(body).digest('hex');
    assert.equal(bodyHashHolds({ body_sha256: sha }, body, issuer, 'k'), sha);
    const wrong = bodyHashHolds({ body_sha256: sha }, Buffer.from('{"a":2}'), issuer, 'k') as StepFailed;
    assert.equal(wrong.step, 6);
    assert.match(wrong.bodySha256!, /^[0-9a-f]{64}$/);
    assert.notEqual(wrong.bodySha256, sha);
    assert.match((bodyHashHolds({ body_sha256: sha.toUpperCase() }, body, issuer, 'k') as StepFailed).detail, /not 64 lower-case hex digits/);
    assert.match((bodyHashHolds({}, body, issuer, 'k') as StepFailed).detail, /missing/);
  });

  it('a refusal lists the steps before it as passed, the failure, then the decision', () => {
    const checks = refusedChecks(new StepFailed(4, 'bad signature', issuer, 'k1'));
    assert.deepEqual(checks.map((c) => [c.step, c.ok]), [[1, true], [2, true], [3, true], [4, false], [7, false]]);
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
