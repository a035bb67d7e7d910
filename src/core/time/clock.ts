// Time is injected everywhere so tests never wait on the wall clock.

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

let nextTimerId = 1;

/** The real clock. Timers are unref'd so a forgotten timer never keeps a process (or the extension host's shutdown)
 * waiting; the CLI holds its process open itself until a command has an outcome (src/cli/main.ts). */
export class SystemClock implements Clock {
  private readonly timers = new Map<number, NodeJS.Timeout>();

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = nextTimerId++;
    const t = setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, Math.max(0, ms));
    t.unref?.();
    this.timers.set(id, t);
    return { id };
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const t = this.timers.get(handle.id);
    if (t) clearTimeout(t);
    this.timers.delete(handle.id);
  }
}

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

/**
 * Real time plus an offset that can only grow: the sandbox's "advance the clock" control.
 * Timers are kept here so an advance fires the ones that fall due at once.
 */
export class OffsetClock implements Clock {
  private offset = 0;
  private readonly pending = new Map<number, { due: number; fn: () => void; base: TimerHandle }>();

  constructor(private readonly base: Clock = new SystemClock()) {}

  now(): number {
    return this.base.now() + this.offset;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = nextTimerId++;
    const due = this.now() + Math.max(0, ms);
    const base = this.base.setTimeout(() => this.fire(id), Math.max(0, ms));
    this.pending.set(id, { due, fn, base });
    return { id };
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const p = this.pending.get(handle.id);
    if (p) this.base.clearTimeout(p.base);
    this.pending.delete(handle.id);
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.offset += ms;
    const due = [...this.pending.entries()].filter(([, p]) => p.due <= this.now()).sort((a, b) => a[1].due - b[1].due);
    for (const [id] of due) this.fire(id);
  }

  private fire(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.base.clearTimeout(p.base);
    p.fn();
  }
}
