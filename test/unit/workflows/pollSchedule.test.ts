// The polling schedule: when a followed workflow is read again.
import assert from 'node:assert/strict';
import { pollDelayMs } from '../../../src/core/workflows/pollSchedule';
import { pollTimes } from '../helpers/pollTimes';

describe('poll schedule', () => {
  it('2 s for the first two checks, then 5 s, then 10 s thereafter', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 50].map(pollDelayMs), [2000, 2000, 5000, 10_000, 10_000, 10_000]);
  });
  it('checks at 2, 4, 9, 19, 29 … s; 62 checks in 10 minutes', () => {
    const t = pollTimes(600_000);
    assert.deepEqual(t.slice(0, 6), [2000, 4000, 9000, 19_000, 29_000, 39_000]);
    assert.equal(t.length, 62);
    assert.equal(t.at(-1), 599_000);
  });
});
