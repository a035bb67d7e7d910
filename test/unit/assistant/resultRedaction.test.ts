// No tool result carries a password, a token, a signing key or a control secret, wherever it hides.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { BODY_WITHHELD, finalAnswer, REDACTED, redactResult } from '../../../src/core/assistant/resultRedaction';
import { knownSecretValues, MAX_KNOWN_SECRETS, RecentSecrets } from '../../../src/core/assistant/knownSecrets';
import { answerBodyFields, sentCredentials } from '../../../src/core/webhooks/forwardAnswer';

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImFiYyJ9.eyJpc3MiOiJodHRwczovL2V4YW1wbGUiLCJleHAiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtYW5kLW1vcmU';

describe('assistant results: redaction', () => {
  it('fields named like credentials are replaced, at any depth, in any case', () => {
    const out = redactResult({
      environment: { password: 'hunter2', Controlsecret: 's3cr3t', nested: [{ access_token: 'abc', apiKey: 'k' }] },
      headers: { Cookie: 'a=b', 'x-api-key': 'key', 'set-cookie': 'sid=1', accept: 'text/plain' },
      refreshToken: 'r',
      credentials: { username: 'demo', password: 'p' },
    });
    assert.deepEqual(out, {
      environment: {
        password: REDACTED,
        Controlsecret: REDACTED,
        nested: [{ access_token: REDACTED, apiKey: REDACTED }],
      },
      headers: { Cookie: REDACTED, 'x-api-key': REDACTED, 'set-cookie': REDACTED, accept: 'text/plain' },
      refreshToken: REDACTED,
      credentials: REDACTED,
    });
  });

  it("the receiver's own record of a credential (scheme and length) is kept: it says why step 1 failed", () => {
    const out = redactResult({ headers: { authorization: 'Bearer <redacted, 812 characters>' } });
    assert.equal(out.headers.authorization, 'Bearer <redacted, 812 characters>');
    assert.equal(redactResult({ authorization: 'Bearer abc.def.ghi' }).authorization, REDACTED);
  });

  it('known secrets are replaced wherever a string carries them: a body, an error, an app answer', () => {
    const secret = 'c0ntr0l-s3cret-value';
    const out = redactResult(
      { body: { text: `{"note":"the secret is ${secret}"}` }, error: `failed with ${secret}`, list: [secret] },
      [secret],
    );
    assert.ok(!JSON.stringify(out).includes(secret));
    assert.equal(out.error, `failed with ${REDACTED}`);
  });

  it('JWTs, bearer credentials and private keys in text are replaced; the text around them stays', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const text = `token ${JWT} then Authorization: Bearer abcdefghijklmnopqrstu and ${pem.trim()} end`;
    const out = redactResult({ text });
    assert.ok(!out.text.includes(JWT));
    assert.ok(!out.text.includes('abcdefghijklmnopqrstu'));
    assert.ok(!out.text.includes('PRIVATE KEY-----\nMII'));
    assert.match(
      out.text,
      /^token <redacted JWT, \d+ characters> then Authorization: Bearer <redacted> and <redacted private key> end$/,
    );
  });

  it('a JWK keeps its public members and loses its private ones', () => {
    const out = redactResult({
      key: { kty: 'RSA', kid: 'k1', n: 'nnn', e: 'AQAB', d: 'ddd', p: 'ppp', q: 'qqq', dp: 'x', dq: 'y', qi: 'z' },
    });
    assert.deepEqual(out.key, { kty: 'RSA', kid: 'k1', n: 'nnn', e: 'AQAB' });
  });

  it('numbers, booleans and nulls pass; the input is not changed', () => {
    const input = { tokenCount: 3, secretKnown: false, password: null, status: 200 };
    const out = redactResult(input);
    assert.deepEqual(out, input);
    const obj = { password: 'p' };
    redactResult(obj);
    assert.equal(obj.password, 'p');
  });

  it('a base64 body whose bytes hold a known secret, or a JWT, is withheld with a note: base64 hid it from the text pass', () => {
    const secret = 'mcp-bearer-0123456789abcdef';
    const binary = (text: string) => Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(text)]).toString('base64');
    const out = redactResult(
      {
        answer: { status: 500, bodyBase64: binary(`echo ${secret}`) },
        body: { bytes: 9, base64: binary(`token=${JWT};`) },
        other: { bodyBase64: binary('nothing secret here') },
      },
      [secret],
    );
    assert.deepEqual(out.answer, { status: 500, bodyWithheld: BODY_WITHHELD });
    assert.deepEqual(out.body, { bytes: 9, withheld: BODY_WITHHELD });
    assert.equal(out.other.bodyBase64, binary('nothing secret here'));
  });

  it('known secrets: at least 8 characters, each once, longest first, bounded; signed tokens kept most recent first out', () => {
    assert.deepEqual(knownSecretValues(['short', undefined, 'exactly8', 'a-longer-secret', 'exactly8', 42]), [
      'a-longer-secret',
      'exactly8',
    ]);
    const many = Array.from({ length: MAX_KNOWN_SECRETS + 50 }, (_, i) => `secret-number-${i}`);
    assert.equal(knownSecretValues(many).length, MAX_KNOWN_SECRETS);
    const recent = new RecentSecrets(3);
    for (const t of ['token-one-1', 'token-two-2', 'tiny', 'token-three', 'token-four-4']) recent.add(t);
    assert.deepEqual(recent.values(), ['token-two-2', 'token-three', 'token-four-4']);
    // Ordinary words are never taken for a secret.
    assert.equal(redactResult({ text: 'the demo ran' }, ['demo']).text, 'the demo ran');
  });

  it("an app's answer is cleared before it is encoded: text redacted, a binary body with a credential withheld", () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl';
    const sent = sentCredentials({ authorization: `Bearer ${token}`, 'x-api-key': 'k3y-of-the-rule', accept: 'x/y' });
    assert.deepEqual(sent, [`Bearer ${token}`, token, 'k3y-of-the-rule']);
    assert.deepEqual(answerBodyFields(Buffer.from(`you sent ${token}`), false, sent), { body: 'you sent <redacted>' });
    const binary = Buffer.concat([Buffer.from([0xff]), Buffer.from(`k3y-of-the-rule`)]);
    const withheld = answerBodyFields(binary, false, sent);
    assert.ok('bodyWithheld' in withheld && /credential this process holds/.test(withheld.bodyWithheld));
    assert.deepEqual(answerBodyFields(Buffer.from([0xff, 1, 2]), false, sent), { bodyBase64: '/wEC' });
  });

  it('property: a final answer holds no control, C1, bidi control or line separator, keys included; other text stays', () => {
    const text = fc.string({ unit: 'binary', maxLength: 30 });
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 }))), (value) => {
        const out = finalAnswer({ result: value });
        const all = JSON.stringify(out);
        if (UNSAFE.test(all.replace(/\\u00[01][0-9a-f]|\\u007f/g, ''))) return false;
        // Without those characters (and without anything shaped like a secret), nothing changes.
        const clean = Object.entries(value).every(
          ([k, v]) => !UNSAFE.test(k) && ![v].flat().some((x) => UNSAFE.test(x)),
        );
        return !clean || JSON.stringify(out) === JSON.stringify({ result: value });
      }),
      { numRuns: 300, seed: 74 },
    );
  });
});
