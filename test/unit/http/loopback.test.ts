import assert from 'node:assert/strict';
import { isLoopbackHost } from '../../../src/core/http/loopback';
import { isAllowedHost } from '../../../src/core/http/hostCheck';
import { missingSchemeHint } from '../../../src/core/http/schemeHint';

// The one loopback check: credentials over plain http, Host checks, `wfs listen --host` and the scheme hint all
// ask it, so they cannot disagree about what this machine is.
describe('isLoopbackHost', () => {
  const loopback = ['localhost', 'LOCALHOST', '127.0.0.1', '127.0.0.2', '127.255.255.255', '::1', '[::1]'];
  const notLoopback = [
    'localhost.',
    'localhost.example.com',
    '127.evil.example',
    '127.0.0.256',
    '127.1',
    '128.0.0.1',
    '0.0.0.0',
    '::',
    '[::2]',
    'example.com',
    '',
  ];
  for (const h of loopback) it(`${JSON.stringify(h)} is this machine`, () => assert.equal(isLoopbackHost(h), true));
  for (const h of notLoopback)
    it(`${JSON.stringify(h)} is not this machine`, () => assert.equal(isLoopbackHost(h), false));

  it('the Host check and the scheme hint agree with it', () => {
    for (const h of loopback.filter((x) => !x.includes(':') || x.startsWith('['))) {
      assert.equal(isAllowedHost(`${h}:80`), true, h);
      assert.match(missingSchemeHint(`${h}:80`), /write http:\/\//, h);
    }
    for (const h of ['127.evil.example', '127.0.0.256', 'localhost.example.com']) {
      assert.equal(isAllowedHost(`${h}:80`), false, h);
      assert.match(missingSchemeHint(`${h}:80`), /write https:\/\//, h);
    }
  });
});
