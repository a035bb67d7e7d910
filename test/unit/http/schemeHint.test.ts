import assert from 'node:assert/strict';
import { missingSchemeHint } from '../../../src/core/http/schemeHint';

describe('missingSchemeHint', () => {
  it('names the address with its scheme: http for loopback, https for the rest', () => {
    assert.equal(missingSchemeHint('api.example.com'), ' (it lacks its scheme: write https://api.example.com)');
    assert.equal(
      missingSchemeHint('api.example.com/workflow-services-ws'),
      ' (it lacks its scheme: write https://api.example.com/workflow-services-ws)',
    );
    assert.equal(missingSchemeHint('localhost:8080'), ' (it lacks its scheme: write http://localhost:8080)');
    assert.equal(missingSchemeHint('127.0.0.1:43001'), ' (it lacks its scheme: write http://127.0.0.1:43001)');
    assert.equal(missingSchemeHint('[::1]:43001'), ' (it lacks its scheme: write http://[::1]:43001)');
    assert.equal(
      missingSchemeHint('localhost.example.com'),
      ' (it lacks its scheme: write https://localhost.example.com)',
    );
  });

  it('says nothing when a scheme is there or the value is no address at all', () => {
    for (const v of ['https://api.example.com', 'ftp://x', 'file:///etc/passwd', 'not a url', '', '<script>', 'a b:1'])
      assert.equal(missingSchemeHint(v), '', v);
  });
});
