// Host checks of our loopback servers: names that are loopback (any port, IPv6 in brackets), plus given names.
import assert from 'node:assert/strict';
import { allowedHostProblem, hostName, isAllowedHost } from '../../../src/core/http/hostCheck';

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

describe('allowedHostProblem', () => {
  it('takes host names and IP addresses', () => {
    for (const ok of ['app', 'wfs-listen', 'my_app', 'listen.internal', '10.0.0.5', '::1', '[fd00::5]'])
      assert.equal(allowedHostProblem(ok), undefined, ok);
  });
  it('says what is wrong with a URL, a port or an empty name', () => {
    assert.match(allowedHostProblem('http://app:3000')!, /not a host name \(a URL or a path\?\).*--allow-host app$/);
    assert.match(allowedHostProblem('app:3000')!, /without a port/);
    assert.match(allowedHostProblem(' ')!, /is empty/);
    assert.match(allowedHostProblem('a b')!, /not a host name/);
  });
});
