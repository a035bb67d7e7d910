// A virtual clock for tests: time moves only when a test advances it, and due timers fire in order. It lives
// here, not in src/: nothing in the product uses it.
import type { Clock, TimerHandle } from '../../../src/core/time/clock';

let nextTimerId = 1_000_000_000;

interface PendingTimer {
  id: number;
  due: number;
  seq: number;
  fn: () => void;
}

/** A virtual clock: time moves only when advance() is called; due timers fire in order. */
export class ManualClock implements Clock {
  private current: number;
  private readonly pending = new Map<number, PendingTimer>();
  private seq = 0;

  constructor(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = nextTimerId++;
    this.pending.set(id, { id, due: this.current + Math.max(0, ms), seq: this.seq++, fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.pending.delete(handle.id);
  }

  /** Number of timers still waiting. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Moves time forward by ms, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.earliestDue(target);
      if (!next) break;
      this.pending.delete(next.id);
      this.current = Math.max(this.current, next.due);
      next.fn();
    }
    this.current = target;
  }

  /** Like advance(), but lets promise callbacks run between timers (for code that awaits between steps). */
  async advanceAsync(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await flushMicrotasks();
      const next = this.earliestDue(target);
      if (!next) break;
      this.pending.delete(next.id);
      this.current = Math.max(this.current, next.due);
      next.fn();
    }
    this.current = target;
    await flushMicrotasks();
  }

  /** The machine sleeps for ms: wall time (now()) jumps, while timers, which count monotonic time, fire that much
   * later than they would have. */
  suspend(ms: number): void {
    this.current += ms;
    for (const t of this.pending.values()) t.due += ms;
  }

  private earliestDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.pending.values()) {
      if (t.due > limit) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
