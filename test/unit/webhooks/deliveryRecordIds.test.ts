import assert from 'node:assert/strict';
import { DeliveryIds } from '../../../src/core/webhooks/deliveryRecord';

describe('delivery record ids', () => {
  it('never repeat from one source, and are safe in a URL, an HTML attribute and a JSON line', () => {
    const source = new DeliveryIds();
    const ids = Array.from({ length: 100_000 }, () => source.next());
    assert.equal(new Set(ids).size, ids.length);
    for (const id of [ids[0]!, ids.at(-1)!]) assert.match(id, /^[A-Za-z0-9_-]{12}-[0-9a-z]+$/);
  });

  it('differ between sources: a restarted receiver never reuses the ids of the records it reloads', () => {
    const a = new DeliveryIds().next();
    const b = new DeliveryIds().next();
    assert.match(a, /-1$/);
    assert.match(b, /-1$/);
    assert.notEqual(a, b);
  });
});
