// `wfs status`: reads a workflow once, or follows it by the spec's poll schedule.
import { isTerminal, type WorkflowClient, type WorkflowEnvelope, WorkflowFollower } from '../../core/workflows';
import { EXIT } from '../exitCodes';
import { readServiceTarget, signIn, workflowClient } from '../cliEnvironment';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';
import { durationFlag, durationInWords, requiredFlag, UsageError, type ParsedFlags } from '../flags';
import type { TimerHandle } from '../../core/time';
import type { CliIO, Emit } from '../output';
import { TransportError } from '../../core/http';
import { wfsCommandLine } from '../../core/presentation';
import { errnoInWords } from '../errnoWords';

export const DEFAULT_GIVE_UP_SECONDS = 60;
export const DEFAULT_DEADLINE_SECONDS = 600;
/** The longest --deadline and --give-up-after: a week. */
const MAX_FOLLOW_MS = 7 * 86_400_000;
/** While reads cannot reach the service, how often it tries again (the spec's schedule can wait 10 s). */
const UNREACHABLE_RETRY_MS = 2000;

/** The help of --deadline and --give-up-after, for status and start alike. */
export const FOLLOW_FLAGS = {
  deadline: {
    type: 'string',
    value: 'DURATION',
    description: `with --follow: stop polling after this long, e.g. 90s, 10m, 1h (a bare number is seconds; default ${DEFAULT_DEADLINE_SECONDS / 60}m)`,
  },
  'give-up-after': {
    type: 'string',
    value: 'DURATION',
    description: `with --follow: stop (exit 1) once reads have failed to reach the service for this long (default ${DEFAULT_GIVE_UP_SECONDS}s)`,
  },
} as const;

/** --deadline and --give-up-after, in milliseconds: durations with a unit, or bare seconds as before. */
export function followDurations(flags: ParsedFlags): { deadlineMs: number; giveUpMs: number } {
  return {
    deadlineMs: durationFlag(flags, 'deadline', 's', 1000, MAX_FOLLOW_MS) ?? DEFAULT_DEADLINE_SECONDS * 1000,
    giveUpMs: durationFlag(flags, 'give-up-after', 's', 1000, MAX_FOLLOW_MS) ?? DEFAULT_GIVE_UP_SECONDS * 1000,
  };
}

/** A read that never got an answer from the service: a refused or cut connection, an unknown host, a timeout. */
function isUnreachable(err: Error): err is TransportError {
  return err instanceof TransportError && (err.reason === 'network' || err.reason === 'timeout');
}

export const statusCommand: CommandSpec = {
  name: 'status',
  synopsis: 'status --workflow ID_OR_URL [--follow] [--deadline DURATION] [--give-up-after DURATION]',
  description: [
    'Reads the workflow once and prints {"event":"status","at":…,"workflow":…,"links":…}, by id or by its self link',
    "(a link must be on WFS_BASE_URL's origin: the token is never sent elsewhere).",
    "With --follow it polls by the spec's schedule (2 s, 2 s, 5 s, then every 10 s) and prints a line whenever the status",
    'or runId changes, until a terminal status or the deadline (exit 4). It exits 0 when the workflow ends complete, and 6',
    'when it ends failed or cancelled, after an error line naming the status.',
    'When reads cannot reach the service, it warns once ({"event":"warning","kind":"unreachable",…}) and keeps polling; after',
    '--give-up-after seconds of nothing but failed connections it stops with exit 1, the last status it saw and the command',
    'to resume. At the deadline (exit 4) it prints the command that follows it further.',
  ].join('\n'),
  flags: {
    workflow: {
      type: 'string',
      value: 'ID_OR_URL',
      description: 'a workflow id (wf_…) or its self link (required)',
      required: true,
    },
    follow: { type: 'boolean', description: 'poll until the workflow reaches a terminal status' },
    ...FOLLOW_FLAGS,
  },
  env: SERVICE_ENV,
  exits: [
    [
      EXIT.failed,
      'the service refused or failed, or could not be reached; with --follow: for --give-up-after seconds in a row',
    ],
    [EXIT.deadline, '--follow reached its deadline while the workflow was still running'],
    [EXIT.notComplete, '--follow saw the workflow end failed or cancelled'],
    [EXIT.interrupted, '--follow was interrupted (SIGINT/SIGTERM)'],
  ],
  async run(flags, io) {
    const { emit } = io;
    const target = requiredFlag(flags, 'workflow');
    const follow = flags.switches.has('follow');
    const { deadlineMs, giveUpMs } = followDurations(flags);
    if (flags.values.has('deadline') && !follow) throw new UsageError('--deadline applies only with --follow');
    if (flags.values.has('give-up-after') && !follow)
      throw new UsageError('--give-up-after applies only with --follow');
    const service = readServiceTarget(io.env);
    const env = await signIn(service, io);
    try {
      const client = workflowClient(env);
      client.resolveWorkflowUrl(target); // a foreign link is refused before the read
      const first = await client.read(target);
      const line = (e: WorkflowEnvelope) => ({ event: 'status', at: new Date(env.clock.now()).toISOString(), ...e });
      emit(line(first));
      if (!follow) return EXIT.ok;
      return await followWorkflow({ client, target, first, baseUrl: env.baseUrl, io, deadlineMs, giveUpMs });
    } finally {
      env.tokens.dispose();
    }
  },
};

export interface FollowArgs {
  client: WorkflowClient;
  /** The id or self link the user gave: what the resume command repeats. */
  target: string;
  /** The workflow as last read (or as the start answered it). */
  first: WorkflowEnvelope;
  baseUrl: string;
  io: CliIO;
  deadlineMs: number;
  giveUpMs: number;
  /** Followed right after this command started it (`start --follow`): a stop then says it was started. */
  startedHere?: boolean;
}

/** Follows a workflow to its end (status --follow, start --follow): a line per change, the exit code of its end. */
export async function followWorkflow(args: FollowArgs): Promise<number> {
  const { client, target, first, baseUrl, io, deadlineMs, giveUpMs } = args;
  const { emit } = io;
  const line = (e: WorkflowEnvelope) => ({ event: 'status', at: new Date(io.clock.now()).toISOString(), ...e });
  if (isTerminal(first.workflow.status)) return ended(first.workflow.status, emit);
  const seen = { status: first.workflow.status, runId: first.workflow.runId };
  const outage = new Outage(
    io,
    giveUpMs,
    () => follower.cancel(),
    () => follower.refreshSoon(),
  );
  const follower = new WorkflowFollower({
    read: () => client.read(target),
    clock: io.clock,
    deadlineMs,
    onRead: (e) => {
      outage.ended();
      if (e.workflow.status !== seen.status || e.workflow.runId !== seen.runId) emit(line(e));
      seen.status = e.workflow.status;
      seen.runId = e.workflow.runId;
    },
    onTransientError: (err) => {
      if (isUnreachable(err)) outage.failed(err);
      else emit({ event: 'warning', message: `read failed, polling continues: ${err.message}` });
    },
  });
  const unsubscribe = io.onStop(() => follower.cancel());
  const origin = new URL(baseUrl).origin;
  io.progress?.(() =>
    outage.current
      ? `cannot reach ${origin}: ${outage.current.failures} failed read${outage.current.failures === 1 ? '' : 's'}, still trying`
      : `following ${first.workflow.workflowId}: ${seen.status}`,
  );
  const end = await follower.done.finally(() => {
    outage.clearTimers();
    unsubscribe();
    io.progress?.(undefined);
  });
  if (end.reason === 'terminal') return ended(end.envelope.workflow.status, emit);
  if (end.reason === 'error') throw end.error;
  return stoppedFollowing(args, end.reason, seen.status, outage, origin);
}

/** Reads in a row that could not reach the service: warned about once, then counted; read again every
 * UNREACHABLE_RETRY_MS, and given up at exactly giveUpMs after the first failed read, not at the first scheduled read
 * after it (which came up to 10 s late). */
class Outage {
  current: { since: number; failures: number; error: TransportError } | undefined;
  gaveUp = false;
  private retryTimer: TimerHandle | undefined;
  private giveUpTimer: TimerHandle | undefined;

  constructor(
    private readonly io: CliIO,
    private readonly giveUpMs: number,
    private readonly giveUp: () => void,
    private readonly readAgain: () => void,
  ) {}

  failed(err: TransportError): void {
    const { clock, emit } = this.io;
    const now = clock.now();
    if (!this.current) {
      this.current = { since: now, failures: 0, error: err };
      emit({
        event: 'warning',
        kind: 'unreachable',
        message: `read failed, polling continues: ${err.message}; giving up after ${durationInWords(this.giveUpMs)} without an answer`,
      });
      this.giveUpTimer = clock.setTimeout(() => {
        this.gaveUp = true;
        this.giveUp();
      }, this.giveUpMs);
    }
    this.current.failures++;
    this.current.error = err;
    const left = this.current.since + this.giveUpMs - now;
    clock.clearTimeout(this.retryTimer);
    if (left > 0) this.retryTimer = clock.setTimeout(this.readAgain, Math.min(UNREACHABLE_RETRY_MS, left));
  }

  /** A read answered: the outage, if any, is over and said so. */
  ended(): void {
    this.clearTimers();
    const was = this.current;
    this.current = undefined;
    if (was)
      this.io.emit({
        event: 'reconnected',
        failures: was.failures,
        message: `reached the service again after ${was.failures} failed read${was.failures === 1 ? '' : 's'}`,
      });
  }

  clearTimers(): void {
    this.io.clock.clearTimeout(this.retryTimer);
    this.io.clock.clearTimeout(this.giveUpTimer);
    this.retryTimer = this.giveUpTimer = undefined;
  }
}

/** Following stopped before the workflow ended (a stop, the give-up, the deadline): the workflow goes on at the
 * service, so each line says how it was last seen and the command that follows it again. */
function stoppedFollowing(
  { target, first, io, deadlineMs, startedHere }: FollowArgs,
  reason: 'cancelled' | 'deadline',
  lastStatus: string,
  outage: Outage,
  origin: string,
): number {
  const { emit } = io;
  const workflowId = first.workflow.workflowId;
  const resume = wfsCommandLine('status', [['follow'], ['workflow', target]]);
  const down = outage.current;
  if (reason === 'cancelled' && outage.gaveUp && down) {
    emit({
      event: 'error',
      kind: 'unreachable',
      origin,
      failures: down.failures,
      lastStatus,
      workflowId,
      code: down.error.code,
      message: `could not reach ${origin} for ${Math.round((io.clock.now() - down.since) / 1000)} s (${down.failures} failed reads, last: ${errnoInWords(down.error.code, origin) ?? down.error.message}); the workflow was last seen ${lastStatus}. When the service is back, resume with: ${resume}`,
    });
    return EXIT.failed;
  }
  if (reason === 'cancelled') {
    emit({
      event: 'error',
      kind: 'cancelled',
      workflowId,
      lastStatus,
      resume,
      message: `stopped following: the workflow ${workflowId}${startedHere ? ' was started and' : ''} goes on at the service (last seen ${lastStatus}). Follow it again with: ${resume}`,
    });
    return EXIT.interrupted;
  }
  emit({
    event: 'error',
    kind: 'deadline',
    lastStatus,
    workflowId,
    resume,
    message: `the workflow is still ${lastStatus} after the ${durationInWords(deadlineMs)} deadline; polling stopped, the workflow goes on. Follow it further with: ${resume}`,
  });
  return EXIT.deadline;
}

/** A followed workflow's end: 0 when complete; otherwise an error line naming the status, and EXIT.notComplete. */
function ended(status: string, emit: Emit): number {
  if (status === 'complete') return EXIT.ok;
  emit({
    event: 'error',
    kind: 'workflow-not-complete',
    status,
    message: `the workflow ended ${status}, not complete`,
  });
  return EXIT.notComplete;
}
