// The extension's views read the receiver's deliveries through DeliverySource: the same records and bodies as the
// history, and none of the history's ways to change it.
import assert from 'node:assert/strict';
import { deliverySource } from '../../../src/extension/receiver/deliverySource';
import { assistantFixture, type AssistantFixture } from '../assistant/assistantFixture';

describe('DeliverySource (the extension reads deliveries, never changes them)', () => {
  let f: AssistantFixture;
  beforeEach(async () => (f = await assistantFixture()));
  afterEach(() => f.stop());

  it('reads what the history holds, as it changes', async () => {
    const source = deliverySource(f.history);
    assert.equal(source.size, 0);
    assert.equal((await f.deliver({ topic: 'workflow/completed', n: 1 })).status, 200);
    assert.equal((await f.deliver('not signed', { token: null })).status, 403);
    assert.equal(source.size, 2);
    const [first, second] = source.all();
    assert.equal(source.find(first!.id), first);
    assert.deepEqual(
      source.query({ verified: false }).map((r) => r.id),
      [second!.id],
    );
    assert.equal((await source.body(second!.id))?.toString(), 'not signed');
    assert.equal(await source.body('no-such-id'), undefined);
    assert.equal(source.bytesInMemory, f.history.bytesInMemory);
    assert.ok(source.bytesInMemory > 0);
    assert.equal(source.bytesOnDisk, 0);
  });

  it('offers no way to change the history: not clear, add, load or close', () => {
    const source = deliverySource(f.history) as unknown as Record<string, unknown>;
    for (const name of ['clear', 'add', 'load', 'close', 'flush', 'on', 'file'])
      assert.equal(source[name], undefined, name);
  });
});
