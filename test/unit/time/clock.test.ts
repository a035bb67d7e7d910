import assert from 'node:assert/strict';
import { OffsetClock } from '../../../src/core/time/clock';
import { ManualClock } from '../helpers/manualClock';

describe('ManualClock', () => {
  it('fires due timers in order of due time and only when advanced past them', () => {
    const clock = new ManualClock(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b'), 200);
    clock.setTimeout(() => fired.push('a'), 100);
    const c = clock.setTimeout(() => fired.push('c'), 150);
    clock.clearTimeout(c);
    clock.advance(99);
    assert.deepEqual(fired, []);
    clock.advance(101);
    assert.deepEqual(fired, ['a', 'b']);
    assert.equal(clock.now(), 1200);
  });
  it('runs timers scheduled by timers within the same advance', () => {
    const clock = new ManualClock(0);
    const at: number[] = [];
    clock.setTimeout(() => {
      at.push(clock.now());
      clock.setTimeout(() => at.push(clock.now()), 10);
    }, 10);
    clock.advance(25);
    assert.deepEqual(at, [10, 20]);
  });
});

describe('OffsetClock', () => {
  it('advance moves now forward and fires timers that fall due', () => {
    const base = new ManualClock(0);
    const clock = new OffsetClock(base);
    let fired = false;
    clock.setTimeout(() => (fired = true), 60_000);
    clock.advance(59_000);
    assert.equal(fired, false);
    assert.equal(clock.now(), 59_000);
    clock.advance(1_000);
    assert.equal(fired, true);
    assert.equal(base.pendingCount, 0, 'the underlying timer is cleared');
  });
  it('refuses to move backwards', () => {
    assert.throws(() => new OffsetClock(new ManualClock(0)).advance(-1), RangeError);
  });
});
