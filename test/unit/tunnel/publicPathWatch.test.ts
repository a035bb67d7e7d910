// The public path watch on a manual clock: the first check, the schedule, a failure confirmed before it is said,
// "reaching" again after a stop, a wake seen as a timer jump, and the 3-minute promise with the default timings.
import assert from 'node:assert/strict';
import { PublicPathWatch, type PathCheckReason } from '../../../src/core/tunnel/publicPathWatch';
import type { PathCheckResult } from '../../../src/core/tunnel/publicPathProbe';
import { ManualClock } from '../helpers/manualClock';

const OK: PathCheckResult = { ok: true, detail: 'through and back' };
const DOWN: PathCheckResult = { ok: false, failedHop: 'connect', detail: 'no connection (ECONNREFUSED)' };

/** A watch whose checks answer what `path.up` says, each after `takesMs` of clock time; every event is logged. */
function watched(clock: ManualClock, opts: { takesMs?: number; intervalMs?: number } = {}) {
  const path = { up: true };
  const checks: { at: number; reason: PathCheckReason; ok: boolean }[] = [];
  const log: string[] = [];
  const watch = new PublicPathWatch({
    clock,
    intervalMs: opts.intervalMs,
    check: () =>
      new Promise((resolve) => {
        const answer = () => resolve(path.up ? OK : DOWN);
        if (opts.takesMs) clock.setTimeout(answer, opts.takesMs);
        else answer();
      }),
  });
  watch.on('check', (e) => checks.push({ at: e.at, reason: e.reason, ok: e.result.ok }));
  watch.on('stopped', (e) => log.push(`stopped@${e.at} last=${e.lastReachedAt ?? '-'}`));
  watch.on('reaching', (e) => log.push(`reaching@${e.at}${e.downMs !== undefined ? ` down=${e.downMs}` : ''}`));
  watch.on('wake', (e) => log.push(`wake@${e.at} slept=${e.sleptMs}`));
  return { watch, path, checks, log };
}

describe('PublicPathWatch', () => {
  let clock: ManualClock;
  let t0: number;
  beforeEach(() => {
    clock = new ManualClock();
    t0 = clock.now();
  });

  it('checks at once, says "reaching" once, then checks every interval (2 minutes by default)', async () => {
    const { watch, checks, log } = watched(clock);
    watch.start();
    await clock.advanceAsync(0);
    assert.deepEqual(log, [`reaching@${t0}`]);
    await clock.advanceAsync(6 * 60_000);
    assert.deepEqual(
      checks.map((c) => [(c.at - t0) / 1000, c.reason]),
      [
        [0, 'start'],
        [120, 'interval'],
        [240, 'interval'],
        [360, 'interval'],
      ],
    );
    assert.equal(log.length, 1, 'nothing more to say while it keeps working');
    watch.stop();
  });

  it('one failed check is confirmed 15 s later before "stopped" is said; a blip says nothing', async () => {
    const { watch, path, checks, log } = watched(clock);
    watch.start();
    await clock.advanceAsync(0);
    path.up = false;
    await clock.advanceAsync(120_000);
    assert.equal(watch.state, 'reaching', 'one failure is not yet a stop');
    path.up = true;
    await clock.advanceAsync(15_000);
    assert.deepEqual(
      checks.slice(1).map((c) => [(c.at - t0) / 1000, c.reason, c.ok]),
      [
        [120, 'interval', false],
        [135, 'confirm', true],
      ],
    );
    assert.deepEqual(log, [`reaching@${t0}`]);
    assert.equal(watch.state, 'reaching');
    watch.stop();
  });

  it('two failures in a row say "stopped" once; checks every 30 s while down; "reaching" again with the time down', async () => {
    const { watch, path, checks, log } = watched(clock);
    watch.start();
    await clock.advanceAsync(0);
    path.up = false;
    await clock.advanceAsync(135_000);
    assert.equal(watch.state, 'not-reaching');
    assert.deepEqual(log, [`reaching@${t0}`, `stopped@${t0 + 135_000} last=${t0}`]);
    await clock.advanceAsync(90_000);
    assert.deepEqual(
      checks.slice(3).map((c) => (c.at - t0) / 1000),
      [165, 195, 225],
      'every 30 s while it does not reach',
    );
    assert.equal(log.length, 2, '"stopped" is said once, not at every failed check');
    path.up = true;
    await clock.advanceAsync(30_000);
    assert.deepEqual(log.slice(2), [`reaching@${t0 + 255_000} down=120000`]);
    await clock.advanceAsync(120_000);
    assert.equal(checks.at(-1)!.reason, 'interval', 'back on the 2-minute schedule');
    assert.equal((checks.at(-1)!.at - t0) / 1000, 375);
    watch.stop();
  });

  it('a path that never reached is said "stopped" after the first check and its confirmation', async () => {
    const { watch, path, log } = watched(clock);
    path.up = false;
    watch.start();
    await clock.advanceAsync(15_000);
    assert.deepEqual(log, [`stopped@${t0 + 15_000} last=-`]);
    watch.stop();
  });

  it('with the defaults and checks that each wait their 10 s timeout, a path that stops is said within 3 minutes', async () => {
    const { watch, path, log } = watched(clock, { takesMs: 10_000 });
    watch.start();
    await clock.advanceAsync(10_000);
    assert.deepEqual(log, [`reaching@${t0 + 10_000}`]);
    // The worst moment: just after a check that carried through.
    path.up = false;
    const stoppedAt = clock.now();
    await clock.advanceAsync(180_000);
    const said = log.find((l) => l.startsWith('stopped@'));
    assert.ok(said, log.join('\n'));
    const after = Number(said.slice('stopped@'.length, said.indexOf(' '))) - stoppedAt;
    assert.ok(after <= 180_000, `said ${after / 1000} s after the path stopped`);
    assert.equal(after, 155_000, 'interval 120 + timeout 10 + confirm 15 + timeout 10');
    watch.stop();
  });

  it('a timer jump (the machine slept) checks at once, not at the next interval', async () => {
    const { watch, checks, log } = watched(clock);
    watch.start();
    await clock.advanceAsync(30_000);
    clock.suspend(45 * 60_000);
    // The first tick after the wake, 10 s of monotonic time later.
    await clock.advanceAsync(10_000);
    const wokeAt = t0 + 45 * 60_000 + 40_000;
    assert.deepEqual(log.slice(1), [`wake@${wokeAt} slept=${45 * 60_000}`]);
    assert.deepEqual(checks.at(-1), { at: wokeAt, reason: 'wake', ok: true });
    watch.stop();
  });

  it('a wake whose check fails is confirmed and said "stopped" within the confirmation delay', async () => {
    const { watch, path, log } = watched(clock);
    watch.start();
    await clock.advanceAsync(0);
    path.up = false;
    clock.suspend(8 * 3600_000);
    await clock.advanceAsync(10_000 + 15_000);
    assert.deepEqual(
      log.slice(1).map((l) => l.replace(/@\d+/, '')),
      [`wake slept=${8 * 3600_000}`, `stopped last=${t0}`],
    );
    watch.stop();
  });

  it('ticks on time never look like a wake, over a day', async () => {
    const { watch, log } = watched(clock);
    watch.start();
    await clock.advanceAsync(24 * 3600_000);
    assert.deepEqual(log, [`reaching@${t0}`]);
    watch.stop();
  });

  it('a check asked for during one runs right after it, once; stop() leaves no timer and ignores a late answer', async () => {
    const { watch, checks } = watched(clock, { takesMs: 5_000 });
    watch.start();
    watch.checkNow('asked');
    watch.checkNow('asked');
    await clock.advanceAsync(10_000);
    assert.deepEqual(
      checks.map((c) => [(c.at - t0) / 1000, c.reason]),
      [
        [5, 'start'],
        [10, 'asked'],
      ],
    );
    watch.checkNow('asked');
    watch.stop();
    await clock.advanceAsync(10 * 60_000);
    assert.equal(checks.length, 2, 'the answer after stop() is not judged');
    assert.equal(clock.pendingCount, 0);
  });

  it('a short interval (the tests of wfs listen use 1 s) shortens the confirmation, the down checks and the ticks', async () => {
    const { watch, path, checks, log } = watched(clock, { intervalMs: 1000 });
    watch.start();
    await clock.advanceAsync(0);
    path.up = false;
    await clock.advanceAsync(2000);
    assert.deepEqual(
      checks.map((c) => (c.at - t0) / 1000),
      [0, 1, 2],
    );
    assert.equal(log.at(-1), `stopped@${t0 + 2000} last=${t0}`);
    watch.stop();
  });
});
