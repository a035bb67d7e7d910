import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { nextDeliveryId } from '../../../src/core/webhooks/deliveryRecord';

describe('delivery record ids', () => {
  it('never repeat within a process, and are safe in a URL, an HTML attribute and a JSON line', () => {
    const ids = Array.from({ length: 100_000 }, nextDeliveryId);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of [ids[0]!, ids.at(-1)!]) assert.match(id, /^[A-Za-z0-9_-]{12}-[0-9a-z]+$/);
  });

  it('differ between processes: a restarted receiver never reuses the ids of the records it reloads', () => {
    const module = join(__dirname, '..', '..', '..', 'src', 'core', 'webhooks', 'deliveryRecord.js');
    const first = () =>
      execFileSync(
        process.execPath,
        ['-e', `process.stdout.write(require(${JSON.stringify(module)}).nextDeliveryId())`],
        { encoding: 'utf8' },
      );
    const a = first();
    const b = first();
    assert.match(a, /-1$/);
    assert.match(b, /-1$/);
    assert.notEqual(a, b);
  });
});
