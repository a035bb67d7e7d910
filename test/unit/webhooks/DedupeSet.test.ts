import assert from 'node:assert/strict';
import { DedupeSet, MAX_HELD_ID_CHARS, dedupeKey } from '../../../src/core/webhooks/DedupeSet';

describe('DedupeSet', () => {
  it('remembers ids up to its capacity and forgets the oldest first', () => {
    const s = new DedupeSet(3);
    for (const id of ['a', 'b', 'c']) s.add(id);
    assert.deepEqual(
      ['a', 'b', 'c'].map((id) => s.has(id)),
      [true, true, true],
    );
    s.add('d');
    assert.equal(s.has('a'), false, 'the oldest is forgotten');
    assert.deepEqual(
      ['b', 'c', 'd'].map((id) => s.has(id)),
      [true, true, true],
    );
    assert.equal(s.size, 3);
  });

  it('adding an id it holds changes nothing: it keeps its place and evicts no other', () => {
    const s = new DedupeSet(2);
    s.add('a');
    s.add('b');
    s.add('a');
    assert.equal(s.size, 2);
    assert.ok(s.has('a') && s.has('b'));
    s.add('c');
    assert.equal(s.has('a'), false, 'a is still the oldest');
    assert.ok(s.has('b') && s.has('c'));
  });

  it('keeps exactly the newest cap ids over many wraps of its ring', () => {
    const s = new DedupeSet(100);
    for (let i = 0; i < 1050; i++) s.add(`id-${i}`);
    assert.equal(s.size, 100);
    for (let i = 0; i < 1050; i++) assert.equal(s.has(`id-${i}`), i >= 950, `id-${i}`);
  });

  it('refuses a capacity that is not a positive integer', () => {
    assert.throws(() => new DedupeSet(0), RangeError);
    assert.throws(() => new DedupeSet(1.5), RangeError);
  });

  it('a long id is held as its hash: the same id is the same key, and 10,000 ids of 1 MB hold 71 characters each', () => {
    const long = 'x'.repeat(1024 * 1024);
    assert.equal(dedupeKey(long), dedupeKey(`${long}`));
    assert.notEqual(dedupeKey(long), dedupeKey(`${long}y`));
    assert.equal(dedupeKey(long).length, 71);
    const uuid = '7f9c2a4e-1b3d-4c5e-8f6a-0b1c2d3e4f5a';
    assert.equal(dedupeKey(uuid), uuid, 'a usual id is held as it is');
    assert.equal(dedupeKey('y'.repeat(MAX_HELD_ID_CHARS)), 'y'.repeat(MAX_HELD_ID_CHARS));
  });
});
