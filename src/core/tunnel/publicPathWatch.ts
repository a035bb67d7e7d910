// Whether the public address still carries deliveries to the receiver, checked end to end while one is in use: a
// check at once, then every few minutes, and at once when the machine wakes. A tunnel dropped while the laptop slept,
// or a URL that stopped routing, loses deliveries without a sound; this says so, and says so again when the path is
// back. Two failed checks in a row say it stopped (one may be a blip), so with the default interval a path that stops
// is reported within about 2½ minutes (interval + two checks' timeouts + the confirming delay).
//
// Sleep is seen as a timer jump: timers count monotonic time, which stands still while the machine sleeps, while the
// clock's now() is wall time. A tick that finds far more time passed than its own interval means the machine slept.
import { TypedEmitter } from '../events/TypedEmitter';
import type { Clock, TimerHandle } from '../time/clock';
import { said, saidOf } from '../presentation/said';
import { pathCheckDetail, type PathCheckResult } from './publicPathProbe';

export type PublicPathState = 'unknown' | 'reaching' | 'not-reaching';
/** Why a check ran: the first, the schedule, the confirmation of a failure, a wake, or asked (a tunnel reconnected). */
export type PathCheckReason = 'start' | 'interval' | 'confirm' | 'wake' | 'asked';

const DEFAULT_PATH_CHECK_INTERVAL_MS = 120_000;

export interface PublicPathWatchOptions {
  clock: Clock;
  /** One end-to-end check (probePublicPath); a rejection counts as a failed check. */
  check(): Promise<PathCheckResult>;
  /** Between checks while the path carries deliveries (default 2 minutes). */
  intervalMs?: number;
  /** After one failed check, the next comes this soon (default 15 s, at most the interval). */
  confirmMs?: number;
  /** Between checks while it does not (default 30 s, at most the interval): "back" is said soon. */
  downIntervalMs?: number;
  /** How often the wake detector looks at the clock (default 10 s, at most the interval). */
  tickMs?: number;
  /** A tick this much later than due means the machine slept (default 30 s, at least three ticks). */
  wakeGapMs?: number;
}

interface PathCheckEvent {
  at: number;
  reason: PathCheckReason;
  result: PathCheckResult;
}

interface PathStoppedEvent {
  at: number;
  /** The last check that carried through, if one ever did. */
  lastReachedAt?: number;
  result: PathCheckResult;
}

interface PathReachingEvent {
  at: number;
  /** Since the path was said to have stopped; undefined for the run's first check that carried through. */
  downMs?: number;
  result: PathCheckResult;
}

export interface PublicPathWatchEvents {
  check: [PathCheckEvent];
  stopped: [PathStoppedEvent];
  /** The path carries deliveries: the first time, or again after "stopped". */
  reaching: [PathReachingEvent];
  wake: [{ at: number; sleptMs: number }];
}

export class PublicPathWatch extends TypedEmitter<PublicPathWatchEvents> {
  private current: PublicPathState = 'unknown';
  private failures = 0;
  private active = false;
  private checking = false;
  private pending?: PathCheckReason;
  private checkTimer?: TimerHandle;
  private tickTimer?: TimerHandle;
  private lastTick = 0;
  private lastReachedAt?: number;
  private stoppedAt?: number;
  private readonly intervalMs: number;
  private readonly confirmMs: number;
  private readonly downIntervalMs: number;
  private readonly tickMs: number;
  private readonly wakeGapMs: number;

  constructor(private readonly options: PublicPathWatchOptions) {
    super();
    this.intervalMs = Math.max(1, options.intervalMs ?? DEFAULT_PATH_CHECK_INTERVAL_MS);
    this.confirmMs = Math.min(options.confirmMs ?? 15_000, this.intervalMs);
    this.downIntervalMs = Math.min(options.downIntervalMs ?? 30_000, this.intervalMs);
    this.tickMs = Math.min(options.tickMs ?? 10_000, this.intervalMs);
    this.wakeGapMs = Math.max(options.wakeGapMs ?? 30_000, 3 * this.tickMs);
  }

  get state(): PublicPathState {
    return this.current;
  }

  /** Checks at once, then on the schedule, until stop(). */
  start(): void {
    if (this.active) return;
    this.active = true;
    this.lastTick = this.options.clock.now();
    this.scheduleTick();
    this.checkNow('start');
  }

  stop(): void {
    this.active = false;
    this.options.clock.clearTimeout(this.checkTimer);
    this.options.clock.clearTimeout(this.tickTimer);
    this.checkTimer = this.tickTimer = undefined;
    this.pending = undefined;
  }

  /** Checks now (one check at a time: asked during one, the next follows it at once). */
  checkNow(reason: PathCheckReason = 'asked'): void {
    if (!this.active) return;
    if (this.checking) {
      this.pending ??= reason;
      return;
    }
    this.options.clock.clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
    this.checking = true;
    void this.runCheck(reason);
  }

  private async runCheck(reason: PathCheckReason): Promise<void> {
    let result: PathCheckResult;
    try {
      result = await this.options.check();
    } catch (err) {
      result = { ok: false, ...pathCheckDetail(said('the check could not be made: {0}', saidOf(err))) };
    }
    this.checking = false;
    if (!this.active) return;
    const at = this.options.clock.now();
    this.emit('check', { at, reason, result });
    this.judge(at, result);
    const next = this.pending;
    this.pending = undefined;
    if (next) this.checkNow(next);
    else this.scheduleCheck();
  }

  /** One result moves the state: a success is "reaching"; the second failure in a row is
   * "not reaching". */
  private judge(at: number, result: PathCheckResult): void {
    if (result.ok) {
      this.failures = 0;
      this.lastReachedAt = at;
      const was = this.current;
      this.current = 'reaching';
      if (was === 'not-reaching') this.emit('reaching', { at, downMs: at - (this.stoppedAt ?? at), result });
      if (was === 'unknown') this.emit('reaching', { at, result });
      return;
    }
    this.failures++;
    if (this.current === 'not-reaching' || this.failures < 2) return;
    this.current = 'not-reaching';
    this.stoppedAt = at;
    this.emit('stopped', { at, lastReachedAt: this.lastReachedAt, result });
  }

  private scheduleCheck(): void {
    const delay =
      this.current === 'not-reaching' ? this.downIntervalMs : this.failures > 0 ? this.confirmMs : this.intervalMs;
    const reason: PathCheckReason = this.failures === 1 && this.current !== 'not-reaching' ? 'confirm' : 'interval';
    this.checkTimer = this.options.clock.setTimeout(() => {
      this.checkTimer = undefined;
      this.checkNow(reason);
    }, delay);
  }

  private scheduleTick(): void {
    this.tickTimer = this.options.clock.setTimeout(() => {
      if (!this.active) return;
      const now = this.options.clock.now();
      const late = now - this.lastTick - this.tickMs;
      this.lastTick = now;
      this.scheduleTick();
      if (late <= this.wakeGapMs) return;
      this.emit('wake', { at: now, sleptMs: late });
      this.checkNow('wake');
    }, this.tickMs);
  }
}
