import assert from 'node:assert/strict';
import { redactHeaders } from '../../../src/core/webhooks/deliveryRecord';

describe('redactHeaders', () => {
  const token = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl';

  it('keeps a credential header only as its scheme and length, whatever the case of its name', () => {
    const out = redactHeaders({
      Authorization: `Bearer ${token}`,
      'PROXY-AUTHORIZATION': `Basic ${token}`,
      'proxy-authorization': token,
    });
    assert.deepEqual(out, {
      Authorization: `Bearer <redacted, ${token.length + 7} characters>`,
      'PROXY-AUTHORIZATION': `Basic <redacted, ${token.length + 6} characters>`,
      // No scheme: the first 20 characters of the value stand for one, and nothing more of it.
      'proxy-authorization': `${token.slice(0, 20)} <redacted, ${token.length} characters>`,
    });
    assert.ok(!JSON.stringify(out).includes(token));
  });

  it('says the scheme and length of each credential, when the one before had the same length', () => {
    // Each pair is alike in length (and in where its first space is): a text remembered from the one before must not
    // stand for the next.
    const cases: [string, string][] = [
      [`Bearer ${token}`, `Bearer <redacted, ${token.length + 7} characters>`],
      [`Bearer ${token.replace(/.$/, 'x')}`, `Bearer <redacted, ${token.length + 7} characters>`],
      [`Beaver ${token}`, `Beaver <redacted, ${token.length + 7} characters>`],
      [`Bearer${token} `, `Bearer${token.slice(0, 14)} <redacted, ${token.length + 7} characters>`],
      [`${token}Bearer `, `${token.slice(0, 20)} <redacted, ${token.length + 7} characters>`],
      [`${token.replace(/^e/, 'E')}Bearer `, `E${token.slice(1, 20)} <redacted, ${token.length + 7} characters>`],
      [`Bearer ${token}x`, `Bearer <redacted, ${token.length + 8} characters>`],
    ];
    for (const [value, text] of cases) assert.equal(redactHeaders({ authorization: value }).authorization, text, value);
  });

  it('copies other headers, joins repeated ones, and skips absent and inherited ones', () => {
    const headers = Object.assign(Object.create({ inherited: 'no' }) as Record<string, string | string[] | undefined>, {
      'content-type': 'application/json',
      'set-cookie': ['a=1', 'b=2'],
      'x-absent': undefined,
      'x-authorization': 'not a credential header',
    });
    assert.deepEqual(redactHeaders(headers), {
      'content-type': 'application/json',
      'set-cookie': 'a=1, b=2',
      'x-authorization': 'not a credential header',
    });
  });

  it('keeps only the request own headers, even when something in the host made a property of every object enumerable', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 'from Object.prototype';
    try {
      redactHeaders({ host: 'a' });
      assert.deepEqual(Object.keys(redactHeaders({ host: 'a' })), ['host']);
    } finally {
      delete proto.polluted;
    }
  });
});
