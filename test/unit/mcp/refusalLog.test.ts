// Issue #74, hole 10: requests refused at the door of `wfs mcp --http` are logged at most once every 10 s, the first
// at once, each line with the count refused since the line before; a burst is counted even when nothing follows.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RefusalLog, type RefusalLine } from '../../../src/mcp/refusalLog';
import { ManualClock } from '../helpers/manualClock';

const refusal = (n: number) => ({ status: 401, reason: `no token ${n}` });

describe('RefusalLog (issue #74, hole 10)', () => {
  let clock: ManualClock;
  let lines: (RefusalLine & { at: number })[];
  let log: RefusalLog;
  beforeEach(() => {
    clock = new ManualClock();
    lines = [];
    log = new RefusalLog(clock, (l) => lines.push({ ...l, at: clock.now() }));
  });

  it('the first refusal is logged at once, with a count of 1', () => {
    log.refused({ status: 403, reason: 'foreign Host', host: 'evil.example' });
    assert.deepEqual(lines, [{ status: 403, reason: 'foreign Host', host: 'evil.example', count: 1, at: clock.now() }]);
  });

  it('200 refusals in a burst: one line at once, one when the 10 s are over, counting the other 199', () => {
    const start = clock.now();
    for (let i = 0; i < 200; i++) log.refused(refusal(i));
    assert.equal(lines.length, 1);
    clock.advance(9_999);
    assert.equal(lines.length, 1);
    clock.advance(1);
    assert.equal(lines.length, 2);
    assert.deepEqual(lines[1], { ...refusal(199), count: 199, at: start + 10_000 });
    clock.advance(60_000);
    assert.equal(lines.length, 2, 'nothing more was refused: nothing more is written');
  });

  it('a refusal after a quiet interval is logged at once again', () => {
    log.refused(refusal(1));
    clock.advance(10_000);
    log.refused(refusal(2));
    assert.deepEqual(
      lines.map((l) => l.count),
      [1, 1],
    );
  });

  it('close() writes what is still counted, and no timer writes after it', () => {
    log.refused(refusal(1));
    log.refused(refusal(2));
    log.refused(refusal(3));
    log.close();
    assert.deepEqual(
      lines.map((l) => [l.reason, l.count]),
      [
        ['no token 1', 1],
        ['no token 3', 2],
      ],
    );
    clock.advance(20_000);
    assert.equal(lines.length, 2);
  });

  it('property: lines are 10 s apart at least, and their counts add up to every refusal', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4_000 }), { minLength: 1, maxLength: 300 }), (gaps) => {
        const c = new ManualClock();
        const out: number[] = [];
        const counts: number[] = [];
        const l = new RefusalLog(c, (line) => {
          out.push(c.now());
          counts.push(line.count);
        });
        for (const gap of gaps) {
          c.advance(gap);
          l.refused(refusal(0));
        }
        c.advance(10_000);
        for (let i = 1; i < out.length; i++) assert.ok(out[i]! - out[i - 1]! >= 10_000, `${out}`);
        assert.equal(
          counts.reduce((a, b) => a + b, 0),
          gaps.length,
        );
      }),
      { numRuns: 200, seed: 10 },
    );
  });
});
