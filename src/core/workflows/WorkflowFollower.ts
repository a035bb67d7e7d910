// Follows one workflow by the poll schedule until a terminal status, the deadline, or cancel.
import type { ServiceError } from '../http/serviceErrors';
import type { Clock, TimerHandle } from '../time/clock';
import { DEFAULT_POLL_DEADLINE_MS, FINAL_READ_ERRORS, pollDelayMs } from './pollSchedule';
import { isTerminal, type WorkflowEnvelope } from './workflowTypes';

export type FollowEnd =
  | { reason: 'terminal'; envelope: WorkflowEnvelope }
  | { reason: 'deadline'; envelope?: WorkflowEnvelope }
  | { reason: 'cancelled'; envelope?: WorkflowEnvelope }
  | { reason: 'error'; error: Error; envelope?: WorkflowEnvelope };

export interface FollowOptions {
  read: () => Promise<WorkflowEnvelope>;
  clock: Clock;
  deadlineMs?: number;
  /** Every successful read. */
  onRead?: (envelope: WorkflowEnvelope, check: number) => void;
  /** A read that failed but polling goes on (e.g. a dropped connection). */
  onTransientError?: (error: Error, check: number) => void;
}


export class WorkflowFollower {
  private timer?: TimerHandle;
  private settle?: (end: FollowEnd) => void;
  private last?: WorkflowEnvelope;
  private stopped = false;
  private readonly startedAt: number;
  readonly done: Promise<FollowEnd>;

  constructor(private readonly options: FollowOptions) {
    this.done = new Promise((resolve) => (this.settle = resolve));
    this.startedAt = options.clock.now();
    this.scheduleCheck(1);
  }

  cancel(): void {
    this.finish({ reason: 'cancelled', envelope: this.last });
  }

  private scheduleCheck(check: number): void {
    const deadline = this.options.deadlineMs ?? DEFAULT_POLL_DEADLINE_MS;
    const elapsed = this.options.clock.now() - this.startedAt;
    const delay = pollDelayMs(check);
    if (elapsed + delay > deadline) {
      this.timer = this.options.clock.setTimeout(() => this.finish({ reason: 'deadline', envelope: this.last }), Math.max(0, deadline - elapsed));
      return;
    }
    this.timer = this.options.clock.setTimeout(() => void this.check(check), delay);
  }

  private async check(check: number): Promise<void> {
    if (this.stopped) return;
    try {
      const envelope = await this.options.read();
      if (this.stopped) return;
      this.last = envelope;
      this.options.onRead?.(envelope, check);
      if (isTerminal(envelope.workflow.status)) return this.finish({ reason: 'terminal', envelope });
    } catch (err) {
      if (this.stopped) return;
      const kind = (err as ServiceError).kind;
      if (kind && FINAL_READ_ERRORS.has(kind)) return this.finish({ reason: 'error', error: err as Error, envelope: this.last });
      this.options.onTransientError?.(err as Error, check);
    }
    this.scheduleCheck(check + 1);
  }

  private finish(end: FollowEnd): void {
    if (this.stopped) return;
    this.stopped = true;
    this.options.clock.clearTimeout(this.timer);
    this.settle?.(end);
  }
}
