// Keeps a receiver registered with a sandbox that restarts. A sandbox forgets its registrations when it stops, so a
// receiver registered once would silently get no more workflow events after a restart. The watch asks the sandbox
// for its registrations on a bounded schedule (every `everyMs` while it answers; while it does not, sooner at first,
// never more often than once a second), and registers again when this receiver is missing from the list. Each change
// is told once: lost, back and registered again, or answering but refusing (a new secret).
import { TypedEmitter } from '../events/TypedEmitter';
import type { Clock, TimerHandle } from '../time/clock';

export interface RegistrationWatchOptions {
  clock: Clock;
  /** The receiver's address, as registered. */
  url: string;
  /** Who is asked, for messages: "the sandbox at http://127.0.0.1:4010". */
  name: string;
  /** The addresses registered now; throws when the sandbox cannot be asked. */
  registered(): Promise<string[]>;
  register(url: string): Promise<void>;
  /** Whether an error means nothing answered (as opposed to an answer that refused). */
  isUnreachable(err: unknown): boolean;
  /** The interval while the sandbox answers (default 5 s). */
  everyMs?: number;
}

export type RegistrationWatchEvents = {
  /** The sandbox stopped answering: its registrations go with it. */
  lost: [message: string];
  /** This receiver was missing from the sandbox's list and is registered again. */
  registered: [message: string];
  /** The sandbox answers but refused the check or the registration (e.g. it started with a new secret). */
  refused: [message: string];
};

type State = 'registered' | 'lost' | 'refused';

export class RegistrationWatch extends TypedEmitter<RegistrationWatchEvents> {
  private timer?: TimerHandle;
  private state: State = 'registered';
  private failures = 0;
  private stopped = false;
  private checking?: Promise<void>;

  constructor(private readonly o: RegistrationWatchOptions) {
    super();
  }

  start(): void {
    this.stopped = false;
    this.schedule(this.o.everyMs ?? 5000);
  }

  stop(): void {
    this.stopped = true;
    this.o.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One check now (also what the schedule runs); concurrent callers share it. */
  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.o.clock.clearTimeout(this.timer);
    this.timer = this.o.clock.setTimeout(() => void this.check().then(() => this.schedule(this.nextDelay())), ms);
  }

  /** While the sandbox is away: 1 s, 2 s, 4 s… up to the interval, so a restart is noticed soon. */
  private nextDelay(): number {
    const every = this.o.everyMs ?? 5000;
    if (this.state === 'registered') return every;
    return Math.min(every, 1000 * 2 ** Math.min(this.failures - 1, 10));
  }

  private async checkOnce(): Promise<void> {
    try {
      const list = await this.o.registered();
      if (!list.includes(this.o.url)) {
        await this.o.register(this.o.url);
        this.failures = 0;
        this.state = 'registered';
        this.emit(
          'registered',
          `${this.o.name} came back without this receiver's registration: registered ${this.o.url} again, so its workflow events arrive here`,
        );
        return;
      }
      if (this.state !== 'registered') this.state = 'registered';
      this.failures = 0;
    } catch (err) {
      this.failures++;
      const unreachable = this.o.isUnreachable(err);
      const next: State = unreachable ? 'lost' : 'refused';
      if (next === this.state) return;
      this.state = next;
      if (unreachable)
        this.emit(
          'lost',
          `${this.o.name} does not answer (${(err as Error).message}): this receiver keeps listening, and registers again when it is back`,
        );
      else
        this.emit(
          'refused',
          `${this.o.name} answers but refused to register this receiver again (${(err as Error).message}): if it was started with a new secret, restart wfs listen with the export line it printed`,
        );
    }
  }
}
