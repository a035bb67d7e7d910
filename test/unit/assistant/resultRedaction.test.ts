// No tool result carries a password, a token, a signing key or a control secret, wherever it hides.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { REDACTED, redactResult } from '../../../src/core/assistant/resultRedaction';

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
});
