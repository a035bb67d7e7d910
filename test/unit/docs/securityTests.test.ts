// docs/security.md names, for each "cannot", the test that performs the attack: each one named must exist, or the
// table promises a check nobody runs.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../..');

describe('docs/security.md', () => {
  it('every test file it names exists', () => {
    const doc = readFileSync(join(ROOT, 'docs/security.md'), 'utf8');
    const named = [...doc.matchAll(/`(test\/[\w./-]+\.(?:ts|mjs))`/g)].map((m) => m[1]!);
    assert.ok(named.length > 20, `only ${named.length} tests named`);
    assert.deepEqual(
      named.filter((f) => !existsSync(join(ROOT, f))),
      [],
    );
  });

  it('has the table of where outside bytes land, one row a place', () => {
    const doc = readFileSync(join(ROOT, 'docs/security.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Where outside bytes land'), doc.indexOf('## Secrets'));
    for (const place of ['pattern', 'files', 'terminal', "model's context", 'questions', 'shells', 'your app'])
      assert.match(section, new RegExp(`^\\| [^|]*${place}`, 'm'), place);
  });
});
