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
    const t = setTimeout(
      () => {
        this.timers.delete(id);
        fn();
      },
      Math.max(0, ms),
    );
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
