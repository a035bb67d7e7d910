// Live status for many workflows at once, by the spec's schedule (2 s, 2 s, 5 s, then 10 s, until a terminal
// status or the deadline). One read at a time across all of them, since the rate limit counts every request.
// Pausing (the view is hidden) keeps each workflow's place in its schedule; resuming reads what fell due.
import type { ServiceError } from '../http/serviceErrors';
import type { Clock, TimerHandle } from '../time/clock';
import { DEFAULT_POLL_DEADLINE_MS, FINAL_READ_ERRORS, pollDelayMs } from './pollSchedule';
import { isTerminal, type WorkflowEnvelope } from './workflowTypes';

export type PollOutcome =
  | { kind: 'read'; envelope: WorkflowEnvelope; check: number }
  | { kind: 'transient-error'; error: Error; check: number }
  /** Polling ended for this workflow: terminal status, deadline, or an error after which reads cannot succeed. */
  | { kind: 'stopped'; reason: 'terminal' | 'deadline' | 'error'; error?: Error };

export interface WorkflowPollerOptions {
  clock: Clock;
  read: (workflowId: string) => Promise<WorkflowEnvelope>;
  onOutcome: (workflowId: string, outcome: PollOutcome) => void;
  deadlineMs?: number;
}

interface Followed {
  startedAt: number;
  /** The next check's number (1-based). */
  check: number;
  dueAt: number;
}

export class WorkflowPoller {
  private readonly followed = new Map<string, Followed>();
  private timer?: TimerHandle;
  private paused = false;
  private reading = false;
  private disposed = false;

  constructor(private readonly options: WorkflowPollerOptions) {}

  get followedIds(): string[] {
    return [...this.followed.keys()];
  }

  /** Starts following (or keeps following) a workflow started at `startedAt`. */
  follow(workflowId: string, startedAt = this.options.clock.now()): void {
    if (this.disposed || this.followed.has(workflowId)) return;
    // A workflow remembered from earlier joins its schedule where elapsed time puts it.
    let check = 1;
    let dueAt = startedAt + pollDelayMs(1);
    const now = this.options.clock.now();
    while (dueAt < now) dueAt += pollDelayMs(++check);
    this.followed.set(workflowId, { startedAt, check, dueAt });
    this.arm();
  }

  unfollow(workflowId: string): void {
    this.followed.delete(workflowId);
    this.arm();
  }

  /** Reads this workflow next, whatever its schedule says (a manual refresh, or a webhook said it changed). */
  refreshSoon(workflowId: string): void {
    const f = this.followed.get(workflowId);
    if (!f) return;
    f.dueAt = this.options.clock.now();
    this.arm();
  }

  pause(): void {
    this.paused = true;
    this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.arm();
  }

  dispose(): void {
    this.disposed = true;
    this.pause();
    this.followed.clear();
  }

  private arm(): void {
    this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.paused || this.reading || this.disposed || this.followed.size === 0) return;
    let next: [string, Followed] | undefined;
    for (const e of this.followed) if (!next || e[1].dueAt < next[1].dueAt) next = e;
    const [id, f] = next!;
    const deadline = f.startedAt + (this.options.deadlineMs ?? DEFAULT_POLL_DEADLINE_MS);
    const now = this.options.clock.now();
    if (f.dueAt > deadline) {
      this.timer = this.options.clock.setTimeout(
        () => this.stop(id, { kind: 'stopped', reason: 'deadline' }),
        Math.max(0, deadline - now),
      );
      return;
    }
    this.timer = this.options.clock.setTimeout(() => void this.check(id), Math.max(0, f.dueAt - now));
  }

  private stop(id: string, outcome: PollOutcome): void {
    this.followed.delete(id);
    this.options.onOutcome(id, outcome);
    this.arm();
  }

  private async check(id: string): Promise<void> {
    const f = this.followed.get(id);
    if (!f || this.paused || this.disposed) return;
    this.reading = true;
    let outcome: PollOutcome;
    try {
      outcome = { kind: 'read', envelope: await this.options.read(id), check: f.check };
    } catch (err) {
      outcome = { kind: 'transient-error', error: err as Error, check: f.check };
    } finally {
      this.reading = false;
    }
    if (this.disposed || this.followed.get(id) !== f) return this.arm();
    // An error after which reads cannot succeed is reported once, as the stop: not first as a transient one.
    if (outcome.kind === 'transient-error' && FINAL_READ_ERRORS.has((outcome.error as ServiceError).kind))
      return this.stop(id, { kind: 'stopped', reason: 'error', error: outcome.error });
    this.options.onOutcome(id, outcome);
    if (outcome.kind === 'read' && isTerminal(outcome.envelope.workflow.status))
      return this.stop(id, { kind: 'stopped', reason: 'terminal' });
    f.check++;
    f.dueAt = this.options.clock.now() + pollDelayMs(f.check);
    this.arm();
  }
}
