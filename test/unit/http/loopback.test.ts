import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isLoopbackHost, testEndpointIsLocal } from '../../../src/core/http/loopback';
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

// "Is the test endpoint on this machine" (so it may deliver to loopback http addresses) is one predicate: the CLI,
// the editor's Send Test Webhook, its fixture sends and the contract check all ask it (issue #75).
describe('testEndpointIsLocal', () => {
  const examples: [string, boolean][] = [
    ['http://127.0.0.1:4010', true],
    ['http://localhost:4010/base', true],
    ['http://[::1]:4010', true],
    ['http://127.8.9.10', true],
    ['https://127.0.0.1:4010', false],
    ['https://api.example.com', false],
    ['http://api.example.com', false],
    ['http://127.0.0.1.nip.io', false],
    ['http://localhost.:4010', false],
    ['localhost:4010', false],
    ['not a url', false],
    ['', false],
  ];
  for (const [url, local] of examples)
    it(`${JSON.stringify(url)}: ${local}`, () => assert.equal(testEndpointIsLocal(url), local));

  const loopbackHost = fc.oneof(
    fc.constantFrom('localhost', 'LocalHost', '[::1]'),
    fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `127.${a}.${b}.${c}`),
  );
  const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
  const path = fc.stringMatching(/^(\/[a-z0-9._~-]{0,8}){0,3}$/);
  const url = (scheme: string, host: string, p: number | undefined, tail: string) =>
    `${scheme}://${host}${p === undefined ? '' : `:${p}`}${tail}`;

  it('plain http on any loopback host, port and path is local; the same over https is not', () => {
    fc.assert(
      fc.property(loopbackHost, port, path, (host, p, tail) => {
        assert.equal(testEndpointIsLocal(url('http', host, p, tail)), true);
        assert.equal(testEndpointIsLocal(url('https', host, p, tail)), false);
      }),
      { numRuns: 200, seed: 1 },
    );
  });

  it('any other host name is a service elsewhere, whatever the scheme; any string at all is answered, never thrown', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}(\.[a-z][a-z0-9-]{0,10}){1,3}$/);
    fc.assert(
      fc.property(name, fc.constantFrom('http', 'https'), port, path, (host, scheme, p, tail) =>
        assert.equal(testEndpointIsLocal(url(scheme, host, p, tail)), false),
      ),
      { numRuns: 200, seed: 1 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const local = testEndpointIsLocal(s);
        // Local means exactly: it parses, plain http, and its host is this machine by the one loopback check.
        assert.equal(local, URL.canParse(s) && new URL(s).protocol === 'http:' && isLoopbackHost(new URL(s).hostname));
      }),
      { numRuns: 200, seed: 1 },
    );
  });
});
