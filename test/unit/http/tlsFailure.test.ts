// A TLS failure at the user's app is named by its cause, with the fix in the words of the face that made the request:
// each code Node and OpenSSL give maps to its problem and sentence; anything else is not called a TLS failure.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { errorCode, namedTlsFailure, tlsProblemOf } from '../../../src/core/http/tlsFailure';

const err = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...extra });
const TARGET = 'https://localhost:3443/webhooks?token=secret';

describe('namedTlsFailure: each code in words, with its fix', () => {
  const cases: [string, string, RegExp][] = [
    [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'self-signed',
      /^your app at https:\/\/localhost:3443 presented a self-signed certificate: add `ca` to the forward rule with the root that signed it, or that certificate itself \(mkcert -CAROOT/,
    ],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'unknown-authority', /signed by an authority this process does not know: add `ca`/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unknown-authority', /signed by an authority this process does not know/],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'unknown-authority', /signed by an authority this process does not know/],
    ['UNABLE_TO_GET_ISSUER_CERT', 'unknown-authority', /an authority this process does not know/],
    ['CERT_UNTRUSTED', 'unknown-authority', /an authority this process does not know/],
    ['CERT_HAS_EXPIRED', 'expired', /presented an expired certificate: make a new one \(e\.g\. mkcert localhost/],
    ['CERT_NOT_YET_VALID', 'not-yet-valid', /not valid yet: check this machine's clock/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'wrong-name', /for other names, not localhost: make one that names localhost/],
    [
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'not-tls',
      /does not speak TLS on that port: if it serves plain http, use an http:\/\/ URL/,
    ],
  ];
  for (const [code, problem, words] of cases)
    it(`${code} → ${problem}`, () => {
      const named = namedTlsFailure(err(code), TARGET, { remedy: 'rule' })!;
      assert.equal(named.problem, problem);
      assert.equal(named.code, code);
      assert.match(named.message, words);
      assert.ok(named.message.endsWith(`(${code})`), 'the code is kept, for searches');
      assert.doesNotMatch(named.message, /secret|webhooks/, 'only the origin is said');
    });

  it('outside a forward rule, the root goes in NODE_EXTRA_CA_CERTS; `who` names the receiver', () => {
    const named = namedTlsFailure(err('DEPTH_ZERO_SELF_SIGNED_CERT'), TARGET, {
      remedy: 'environment',
      who: 'your receiver',
    })!;
    assert.match(named.message, /^your receiver at https:\/\/localhost:3443 presented a self-signed certificate: give/);
    assert.match(named.message, /NODE_EXTRA_CA_CERTS/);
    assert.doesNotMatch(named.message, /forward rule/);
  });

  it('an unknown authority despite a `ca` file names that file', () => {
    const named = namedTlsFailure(err('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), TARGET, {
      remedy: 'rule',
      caFile: '/home/me/rootCA.pem',
    })!;
    assert.match(named.message, /does not know \(not the one in ca \/home\/me\/rootCA\.pem\)/);
  });

  it("a wrong name says the names the certificate holds; odd characters from the app's certificate are left out", () => {
    const held = namedTlsFailure(
      err('ERR_TLS_CERT_ALTNAME_INVALID', { cert: { subjectaltname: 'DNS:other.example, IP Address:10.0.0.1' } }),
      'https://127.0.0.1:3443/',
      { remedy: 'rule' },
    )!;
    assert.match(held.message, /for other names \(DNS:other\.example, IP Address:10\.0\.0\.1\), not 127\.0\.0\.1/);
    const odd = namedTlsFailure(
      err('ERR_TLS_CERT_ALTNAME_INVALID', { cert: { subjectaltname: 'DNS:x\u001b[31m' } }),
      'https://127.0.0.1:3443/',
      { remedy: 'rule' },
    )!;
    assert.doesNotMatch(odd.message, /\u001b|DNS:x/);
  });

  it("the cause's code counts (undici may wrap the socket's error)", () => {
    const wrapped = Object.assign(new Error('fetch failed'), { cause: err('CERT_HAS_EXPIRED') });
    assert.equal(errorCode(wrapped), 'CERT_HAS_EXPIRED');
    assert.equal(namedTlsFailure(wrapped, TARGET, { remedy: 'rule' })?.problem, 'expired');
  });

  it('anything else is not a TLS failure', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'UND_ERR_SOCKET', 'toString', '__proto__'])
      assert.equal(namedTlsFailure(err(code), TARGET, { remedy: 'rule' }), undefined, code);
    assert.equal(namedTlsFailure(new Error('no code'), TARGET, { remedy: 'rule' }), undefined);
    assert.equal(namedTlsFailure(undefined, TARGET, { remedy: 'rule' }), undefined);
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (code) => {
        const problem = tlsProblemOf(code);
        return problem === undefined || namedTlsFailure(err(code), TARGET, { remedy: 'rule' })?.problem === problem;
      }),
      { numRuns: 200, seed: 1 },
    );
  });
});
