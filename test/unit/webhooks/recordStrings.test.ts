// What the history keeps of values that repeat from one delivery to the next, counted in a real heap: a child
// process keeps deliveries sent over loopback HTTP, snapshots its heap and counts the copies of each value.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const RECORDS = 48;

describe('records share the strings that repeat', () => {
  let found: { kept: number; bodiesAsText: number; copies: Record<string, number> };

  before(async function () {
    this.timeout(60_000);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(__dirname, '..', 'helpers', 'recordStrings.js'), String(RECORDS)],
      { timeout: 55_000 },
    );
    found = JSON.parse(stdout) as typeof found;
    assert.equal(found.kept, RECORDS, 'every delivery is kept');
  });

  it('each ASCII body is kept as one string, not a Buffer', () => {
    assert.equal(found.bodiesAsText, RECORDS);
  });

  // Each value is in the heap where it came from (the sender's side of the child, the trust entry) and once for all
  // the records; a copy per record would be RECORDS copies more.
  for (const [value, where] of [
    ['issuer', "the claims' iss shares the trust entry's string"],
    ['audience', "the claims' aud shares the trust entry's string"],
    ['topic', 'the signed topic'],
    ['subTopic', 'the signed subTopic'],
    ['userAgent', 'a header value that repeats'],
    ['path', "the path shares the receiver's string"],
    ['credential', 'the redacted Authorization of tokens of one length'],
  ])
    it(`${where}: one copy for ${RECORDS} records`, () => {
      assert.ok(found.copies[value]! >= 1, `${value} is in the heap`);
      assert.ok(found.copies[value]! <= 2, `${value}: ${found.copies[value]} copies`);
    });
});
