// A spinner line for waits on a terminal (a start waiting for its answer, a follow between polls, a 429 backoff,
// a sandbox starting): one line, redrawn in place, erased before any other line is printed and drawn again after it.
// Only for text on a terminal: JSON lines and pipes never get it (output.ts decides).
import type { Style } from './style';
import { terminalSafe } from '../../core/presentation';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const ERASE = '\r\x1b[K';

/** The words of a wait: fixed, or computed at each frame (a countdown). */
export type ProgressText = string | (() => string);

export class ProgressLine {
  private text?: ProgressText;
  private since = 0;
  private frame = 0;
  private drawn = false;
  private timer?: NodeJS.Timeout;
  /** A backoff's countdown, shown over the wait it interrupts until it ends. */
  private over?: { text: ProgressText; until: number };

  constructor(
    private readonly write: (s: string) => void,
    private readonly style: Style,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = 100,
  ) {}

  /** Shows this wait (its elapsed time counts from the first time it is set), or clears the line (undefined). */
  set(text: ProgressText | undefined): void {
    if (text === undefined) {
      this.text = undefined;
      this.over = undefined;
      this.hide();
      this.stop();
      return;
    }
    if (typeof text !== 'string' || text !== this.text) this.since = this.now();
    this.text = text;
    this.start();
    this.draw();
  }

  /** A wait of `ms` inside the current one (a 429 backoff): its countdown is shown until it ends. */
  interrupt(ms: number, words: (secondsLeft: string) => string): void {
    const until = this.now() + ms;
    this.over = { text: () => words(Math.max(0, (until - this.now()) / 1000).toFixed(1)), until };
    this.start();
    this.draw();
  }

  /** Erases the line before another line is written. */
  hide(): void {
    if (this.drawn) this.write(ERASE);
    this.drawn = false;
  }

  /** Draws the line again after another line was written. */
  show(): void {
    if (this.text !== undefined || this.over) this.draw();
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.frame = (this.frame + 1) % FRAMES.length;
      this.draw();
    }, this.intervalMs);
    // A spinner never keeps the process alive.
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private draw(): void {
    if (this.over && this.now() >= this.over.until) this.over = undefined;
    const current = this.over?.text ?? this.text;
    if (current === undefined) {
      this.hide();
      this.stop();
      return;
    }
    // A wait's words may name an address or an id given from outside: never a control on the line being redrawn.
    const words = terminalSafe(typeof current === 'string' ? current : current());
    const elapsed = this.over ? '' : ` ${this.style.dim(`${Math.floor((this.now() - this.since) / 1000)} s`)}`;
    this.write(`${ERASE}${this.style.cyan(FRAMES[this.frame]!)} ${words}${elapsed}`);
    this.drawn = true;
  }
}
