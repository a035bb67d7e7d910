// Time is injected everywhere so tests never wait on the wall clock.

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

/** The real clock. Timers are unref'd so a forgotten timer never keeps a process (or the extension host's shutdown)
 * waiting; the CLI holds its process open itself until a command has an outcome (src/cli/main.ts). */
export class SystemClock implements Clock {
  /** Keyed by the handle itself: a handle from another clock never clears one of these. */
  private readonly timers = new Map<TimerHandle, NodeJS.Timeout>();
  private nextId = 1;

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle: TimerHandle = { id: this.nextId++ };
    const t = setTimeout(
      () => {
        this.timers.delete(handle);
        fn();
      },
      Math.max(0, ms),
    );
    t.unref?.();
    this.timers.set(handle, t);
    return handle;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const t = this.timers.get(handle);
    if (t) clearTimeout(t);
    this.timers.delete(handle);
  }
}

/**
 * Real time plus an offset that can only grow: the sandbox's "advance the clock" control.
 * Timers are kept here so an advance fires the ones that fall due at once.
 */
export class OffsetClock implements Clock {
  private offset = 0;
  /** Keyed by the handle itself: a handle from another clock never clears one of these. */
  private readonly pending = new Map<TimerHandle, { due: number; fn: () => void; base: TimerHandle }>();
  private nextId = 1;

  constructor(private readonly base: Clock = new SystemClock()) {}

  now(): number {
    return this.base.now() + this.offset;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle: TimerHandle = { id: this.nextId++ };
    const due = this.now() + Math.max(0, ms);
    const base = this.base.setTimeout(() => this.fire(handle), Math.max(0, ms));
    this.pending.set(handle, { due, fn, base });
    return handle;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const p = this.pending.get(handle);
    if (p) this.base.clearTimeout(p.base);
    this.pending.delete(handle);
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.offset += ms;
    const due = [...this.pending.entries()].filter(([, p]) => p.due <= this.now()).sort((a, b) => a[1].due - b[1].due);
    for (const [handle] of due) this.fire(handle);
  }

  private fire(handle: TimerHandle): void {
    const p = this.pending.get(handle);
    if (!p) return;
    this.pending.delete(handle);
    this.base.clearTimeout(p.base);
    p.fn();
  }
}
