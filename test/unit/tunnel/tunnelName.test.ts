// The name asked of a localtunnel server is checked before anything is opened.
import assert from 'node:assert/strict';
import { tunnelNameProblem } from '../../../src/core/tunnel/tunnelName';

describe('tunnelNameProblem', () => {
  it('accepts the DNS labels a localtunnel server gives: 4 to 63 lower-case letters, digits and inner hyphens', () => {
    for (const ok of ['abcd', 'wfs-demo-7', '0000', 'a'.repeat(63)]) assert.equal(tunnelNameProblem(ok), undefined, ok);
  });

  it('refuses the rest, quoting the name (cut when long)', () => {
    for (const bad of ['abc', 'a'.repeat(64), 'My_Name', '-abcd', 'abcd-', 'ab cd', 'ab.cd', '../x', ''])
      assert.match(tunnelNameProblem(bad) ?? '', /^is not a name a localtunnel server gives/, bad);
    assert.ok(tunnelNameProblem('x'.repeat(1000))!.length < 250);
  });
});
