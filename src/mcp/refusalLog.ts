// The log of requests refused at the door of `wfs mcp --http`. Any web page the user visits can send requests to
// 127.0.0.1, as many as it likes: a line for each would let it flood the log and push out what matters. So a line
// is written at most once per interval: the first refusal at once, then the latest one with how many were refused
// since the line before (a timer writes it when the interval ends, so a burst is counted even if nothing follows).
import type { Clock, TimerHandle } from '../core/time';

/** At most one refusal line per this many milliseconds. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/** A request refused at the door: never the token. */
export interface Refusal {
  status: number;
  reason: string;
  origin?: string;
  host?: string;
}

/** The latest refusal, and `count`: the requests refused since the previous line, this one included. */
export type RefusalLine = Refusal & { count: number };

export class RefusalLog {
  private lastLineAt?: number;
  private latest?: Refusal;
  private count = 0;
  private timer?: TimerHandle;

  constructor(
    private readonly clock: Clock,
    private readonly write: (line: RefusalLine) => void,
    private readonly intervalMs = REFUSAL_LOG_INTERVAL_MS,
  ) {}

  refused(r: Refusal): void {
    this.latest = r;
    this.count++;
    const now = this.clock.now();
    if (this.lastLineAt === undefined || now - this.lastLineAt >= this.intervalMs) return this.flush();
    this.timer ??= this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.flush();
      },
      this.lastLineAt + this.intervalMs - now,
    );
  }

  /** Writes what is still counted (at stop), and stops the timer. */
  close(): void {
    this.flush();
  }

  private flush(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.count === 0 || !this.latest) return;
    const line = { ...this.latest, count: this.count };
    this.count = 0;
    this.latest = undefined;
    this.lastLineAt = this.clock.now();
    this.write(line);
  }
}
