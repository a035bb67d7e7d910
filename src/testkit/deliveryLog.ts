// What a test kit receiver holds of its deliveries for the test: a list bounded in bytes (the oldest let go first),
// read by any number of async iterators, and by next() calls, each taking the first matching delivery no earlier
// call took. A wait that times out says what did arrive, since "nothing came" is rarely the whole story.
import type { Clock, TimerHandle } from '../core/time';
import { terminalSafe } from '../core/presentation';
import type { NextDeliveryOptions, ReceivedDelivery } from './types';

interface Held {
  seq: number;
  delivery: ReceivedDelivery;
  bytes: number;
  taken: boolean;
}

const DEFAULT_NEXT_TIMEOUT_MS = 10_000;
/** The arrivals a timeout message lists (the latest): enough to see the pattern, short enough to read. */
const LISTED = 20;
/** Estimated bytes of a held delivery's objects beyond its JSON text. */
const HELD_OVERHEAD_BYTES = 512;

export class DeliveryLog {
  private readonly held: Held[] = [];
  private nextSeq = 0;
  private bytes = 0;
  private dropped = 0;
  private closed = false;
  /** Called at each arrival and at close: waits under way look again. */
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly o: {
      clock: Clock;
      maxBytes: number;
      /** The receiver's URL, for messages. */
      url: string;
      /** What the receiver was told meanwhile (its sandbox gone, back, refusing), said after a wait that timed out. */
      notices?: readonly string[];
    },
  ) {}

  add(delivery: ReceivedDelivery): void {
    if (this.closed) return;
    const bytes = Buffer.byteLength(JSON.stringify(delivery)) + HELD_OVERHEAD_BYTES;
    this.held.push({ seq: this.nextSeq++, delivery, bytes, taken: false });
    this.bytes += bytes;
    // The newest stays even when it alone is over the bound: a test waiting for it must get it.
    while (this.bytes > this.o.maxBytes && this.held.length > 1) {
      this.bytes -= this.held.shift()!.bytes;
      this.dropped++;
    }
    this.wake();
  }

  /** Ends the iterators and rejects the waits under way; what is held stays readable. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  async *iterate(): AsyncGenerator<ReceivedDelivery, void, undefined> {
    let seq = this.held[0]?.seq ?? this.nextSeq;
    for (;;) {
      const h = this.held.find((x) => x.seq >= seq);
      if (h) {
        seq = h.seq + 1;
        yield h.delivery;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => {
        const waker = () => {
          this.wakers.delete(waker);
          resolve();
        };
        this.wakers.add(waker);
      });
    }
  }

  next(options: NextDeliveryOptions = {}): Promise<ReceivedDelivery> {
    const { topic, timeoutMs = DEFAULT_NEXT_TIMEOUT_MS } = options;
    if (topic !== undefined && typeof topic !== 'string')
      return Promise.reject(new TypeError('next({ topic }): topic is a string, e.g. "workflow/completed"'));
    if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0))
      return Promise.reject(new RangeError('next({ timeoutMs }): a number of milliseconds, 0 or more'));
    const matches = (d: ReceivedDelivery) => topic === undefined || (d.verified && d.topic === topic);
    return new Promise((resolve, reject) => {
      let timer: TimerHandle | undefined;
      const finish = () => {
        this.o.clock.clearTimeout(timer);
        this.wakers.delete(look);
      };
      const look = (): boolean => {
        const h = this.held.find((x) => !x.taken && matches(x.delivery));
        if (h) {
          h.taken = true;
          finish();
          resolve(h.delivery);
        } else if (this.closed) {
          finish();
          reject(new Error(`next(${wanted(topic)}): the receiver at ${this.o.url} was closed before it came`));
        }
        return h !== undefined || this.closed;
      };
      if (look()) return;
      this.wakers.add(look);
      timer = this.o.clock.setTimeout(() => {
        finish();
        reject(new Error(this.timeoutMessage(topic, timeoutMs)));
      }, timeoutMs);
    });
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }

  /** What the wait wanted, every arrival held (the latest LISTED) or what to check, and what the receiver was told. */
  private timeoutMessage(topic: string | undefined, timeoutMs: number): string {
    const notices = (this.o.notices ?? []).map((n) => `\n  ${terminalSafe(n)}`).join('');
    return this.arrivals(topic, timeoutMs) + (notices ? `\nMeanwhile:${notices}` : '');
  }

  private arrivals(topic: string | undefined, timeoutMs: number): string {
    const head = `next(${wanted(topic)}) waited ${timeoutMs} ms at ${this.o.url}, and no ${topic === undefined ? 'delivery' : `verified delivery of topic ${JSON.stringify(terminalSafe(topic))}`} came that an earlier next() had not taken.`;
    const all = this.held.length + this.dropped;
    if (all === 0)
      return `${head} Nothing arrived at all: deliveries go to ${this.o.url} (a sandbox sends a workflow's events to the receivers that trust it, once the workflow is started on it).`;
    const listed = this.held.slice(-LISTED).map((h) => `\n  - ${describe(h)}`);
    const earlier = all - listed.length;
    return [
      `${head} What arrived (${all}, oldest first)${earlier ? `; the ${earlier} earliest not listed` : ''}${this.dropped ? ` (${this.dropped} let go to keep memoryBytes)` : ''}:`,
      ...listed,
    ].join('');
  }
}

function wanted(topic: string | undefined): string {
  return topic === undefined ? '' : `{ topic: ${JSON.stringify(terminalSafe(topic))} }`;
}

/** One arrival in a line: its topic and webhookId (from the signed body), what was answered, or why it was refused.
 * Outside text (a body's topic, a refusal's detail) is made safe for a terminal and cut. */
function describe(h: Held): string {
  const d = h.delivery;
  const cut = (s: string) => terminalSafe(s.length > 200 ? `${s.slice(0, 200)}…` : s);
  if (!d.verified) return `refused, answered ${d.status}: ${cut(d.refusal ?? d.note ?? 'not verified')}`;
  const what = `${cut(d.topic ?? '(no topic)')} ${cut(d.webhookId ?? '(no webhookId)')}`;
  const app = d.answer ? `, the app answered ${d.answer.status ?? cut(d.answer.error ?? 'nothing')}` : '';
  const taken = h.taken ? ' (taken by an earlier next())' : '';
  return `${what}: verified${d.duplicate ? ', a duplicate' : ''}, answered ${d.status}${app}${taken}`;
}
