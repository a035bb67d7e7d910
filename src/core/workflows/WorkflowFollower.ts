// Follows one workflow until a terminal status, the deadline, an error after which reads cannot succeed, or
// cancel: the CLI's `wfs status --follow`. It is WorkflowPoller (the extension's engine) with one workflow, so the
// schedule, the deadline and the final-error rules exist once.
import type { Clock } from '../time/clock';
import { WorkflowPoller } from './WorkflowPoller';
import type { WorkflowEnvelope } from './workflowTypes';

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

const ONE = 'followed';

export class WorkflowFollower {
  private readonly poller: WorkflowPoller;
  private settle!: (end: FollowEnd) => void;
  private last?: WorkflowEnvelope;
  readonly done: Promise<FollowEnd>;

  constructor(options: FollowOptions) {
    this.done = new Promise((resolve) => (this.settle = resolve));
    this.poller = new WorkflowPoller({
      clock: options.clock,
      deadlineMs: options.deadlineMs,
      read: () => options.read(),
      onOutcome: (_id, outcome) => {
        if (outcome.kind === 'read') {
          this.last = outcome.envelope;
          options.onRead?.(outcome.envelope, outcome.check);
        } else if (outcome.kind === 'transient-error') options.onTransientError?.(outcome.error, outcome.check);
        else if (outcome.reason === 'terminal') this.finish({ reason: 'terminal', envelope: this.last! });
        else if (outcome.reason === 'deadline') this.finish({ reason: 'deadline', envelope: this.last });
        else this.finish({ reason: 'error', error: outcome.error!, envelope: this.last });
      },
    });
    this.poller.follow(ONE, options.clock.now());
  }

  /** Reads again now, whatever the schedule says (the service was unreachable: is it back?). */
  refreshSoon(): void {
    this.poller.refreshSoon(ONE);
  }

  cancel(): void {
    this.finish({ reason: 'cancelled', envelope: this.last });
  }

  private finish(end: FollowEnd): void {
    this.poller.dispose();
    this.settle(end);
  }
}
