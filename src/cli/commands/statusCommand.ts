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
export async function followWorkflow({
  client,
  target,
  first,
  baseUrl,
  io,
  deadlineMs,
  giveUpMs,
  startedHere,
}: FollowArgs): Promise<number> {
  const { emit } = io;
  const line = (e: WorkflowEnvelope) => ({ event: 'status', at: new Date(io.clock.now()).toISOString(), ...e });
  if (isTerminal(first.workflow.status)) return ended(first.workflow.status, emit);
  let lastStatus = first.workflow.status;
  let lastRun = first.workflow.runId;
  // Consecutive reads that could not reach the service: warned about once, then counted.
  let unreachable: { since: number; failures: number; error: TransportError } | undefined;
  let gaveUp = false;
  // While unreachable: a read again every UNREACHABLE_RETRY_MS, and the give-up at exactly giveUpMs after the first
  // failed read, not at the first scheduled read after it (which came up to 10 s late).
  let retryTimer: TimerHandle | undefined;
  let giveUpTimer: TimerHandle | undefined;
  const clearTimers = () => {
    io.clock.clearTimeout(retryTimer);
    io.clock.clearTimeout(giveUpTimer);
    retryTimer = giveUpTimer = undefined;
  };
  const follower = new WorkflowFollower({
    read: () => client.read(target),
    clock: io.clock,
    deadlineMs,
    onRead: (e) => {
      clearTimers();
      if (unreachable)
        emit({
          event: 'reconnected',
          failures: unreachable.failures,
          message: `reached the service again after ${unreachable.failures} failed read${unreachable.failures === 1 ? '' : 's'}`,
        });
      unreachable = undefined;
      if (e.workflow.status !== lastStatus || e.workflow.runId !== lastRun) emit(line(e));
      lastStatus = e.workflow.status;
      lastRun = e.workflow.runId;
    },
    onTransientError: (err) => {
      if (!isUnreachable(err)) {
        emit({ event: 'warning', message: `read failed, polling continues: ${err.message}` });
        return;
      }
      const now = io.clock.now();
      if (!unreachable) {
        unreachable = { since: now, failures: 0, error: err };
        emit({
          event: 'warning',
          kind: 'unreachable',
          message: `read failed, polling continues: ${err.message}; giving up after ${durationInWords(giveUpMs)} without an answer`,
        });
        giveUpTimer = io.clock.setTimeout(() => {
          gaveUp = true;
          follower.cancel();
        }, giveUpMs);
      }
      unreachable.failures++;
      unreachable.error = err;
      const left = unreachable.since + giveUpMs - now;
      io.clock.clearTimeout(retryTimer);
      if (left > 0)
        retryTimer = io.clock.setTimeout(() => follower.refreshSoon(), Math.min(UNREACHABLE_RETRY_MS, left));
    },
  });
  const unsubscribe = io.onStop(() => follower.cancel());
  const origin = new URL(baseUrl).origin;
  io.progress?.(() =>
    unreachable
      ? `cannot reach ${origin}: ${unreachable.failures} failed read${unreachable.failures === 1 ? '' : 's'}, still trying`
      : `following ${first.workflow.workflowId}: ${lastStatus}`,
  );
  const end = await follower.done.finally(() => {
    clearTimers();
    unsubscribe();
    io.progress?.(undefined);
  });
  if (end.reason === 'terminal') return ended(end.envelope.workflow.status, emit);
  if (end.reason === 'error') throw end.error;
  const resume = wfsCommandLine('status', [['follow'], ['workflow', target]]);
  if (end.reason === 'cancelled' && gaveUp && unreachable) {
    emit({
      event: 'error',
      kind: 'unreachable',
      origin,
      failures: unreachable.failures,
      lastStatus,
      workflowId: first.workflow.workflowId,
      code: unreachable.error.code,
      message: `could not reach ${origin} for ${Math.round((io.clock.now() - unreachable.since) / 1000)} s (${unreachable.failures} failed reads, last: ${errnoInWords(unreachable.error.code, origin) ?? unreachable.error.message}); the workflow was last seen ${lastStatus}. When the service is back, resume with: ${resume}`,
    });
    return EXIT.failed;
  }
  if (end.reason === 'cancelled') {
    // A stop ends the following, not the workflow: say which one goes on, as last seen, and how to follow it again.
    const id = first.workflow.workflowId;
    emit({
      event: 'error',
      kind: 'cancelled',
      workflowId: id,
      lastStatus,
      resume,
      message: `stopped following: the workflow ${id}${startedHere ? ' was started and' : ''} goes on at the service (last seen ${lastStatus}). Follow it again with: ${resume}`,
    });
    return EXIT.interrupted;
  }
  emit({
    event: 'error',
    kind: 'deadline',
    lastStatus,
    workflowId: first.workflow.workflowId,
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
