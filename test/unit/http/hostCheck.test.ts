// Host checks of our loopback servers: names that are loopback (any port, IPv6 in brackets), plus given names.
import assert from 'node:assert/strict';
import { hostName, isAllowedHost } from '../../../src/core/http/hostCheck';

describe('hostCheck', () => {
  it('reads the host name from a Host header: port and IPv6 brackets removed, lower case', () => {
    assert.equal(hostName('127.0.0.1:4010'), '127.0.0.1');
    assert.equal(hostName('[::1]:4010'), '::1');
    assert.equal(hostName('LocalHost'), 'localhost');
    assert.equal(hostName(undefined), '');
  });

  it('allows loopback names and the given extra names, and nothing else', () => {
    for (const ok of ['127.0.0.1:1', '127.8.9.10', '[::1]:80', 'localhost:3000', 'localhost'])
      assert.ok(isAllowedHost(ok), ok);
    for (const no of [
      'rebind.attacker.example',
      'rebind.attacker.example:4010',
      '127.0.0.1.attacker.example',
      'localhost.attacker.example',
      '',
      '0.0.0.0:1',
      '10.0.0.1',
    ])
      assert.ok(!isAllowedHost(no), no);
    assert.ok(isAllowedHost('abc.loca.lt', ['abc.loca.lt']));
    assert.ok(isAllowedHost('wfs-sandbox.test:8080', ['wfs-sandbox.test']));
    assert.ok(!isAllowedHost('other.loca.lt', ['abc.loca.lt']));
  });
});
