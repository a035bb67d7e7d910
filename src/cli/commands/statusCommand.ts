// `wfs status`: reads a workflow once, or follows it by the spec's poll schedule.
import { WorkflowClient } from '../../core/workflows/WorkflowClient';
import { WorkflowFollower } from '../../core/workflows/WorkflowFollower';
import { isTerminal, type WorkflowEnvelope } from '../../core/workflows/workflowTypes';
import { signedInEnvironment } from '../cliEnvironment';
import { intFlag, parseFlags, UsageError } from '../flags';
import type { CliIO } from '../output';

export const EXIT_DEADLINE = 4;

export async function statusCommand(argv: string[], io: CliIO): Promise<number> {
  const { emit } = io;
  const flags = parseFlags(argv, { values: ['workflow', 'deadline'], switches: ['follow'] });
  const target = flags.values.get('workflow');
  if (!target) throw new UsageError('--workflow is required');
  const deadlineSeconds = intFlag(flags, 'deadline', 1, 7 * 86400) ?? 600;
  if (flags.values.has('deadline') && !flags.switches.has('follow')) throw new UsageError('--deadline applies only with --follow');
  const env = await signedInEnvironment(io.env, io.clock);
  try {
    const client = new WorkflowClient({ baseUrl: env.baseUrl, userAlias: env.userAlias, tokens: env.tokens, gate: env.tokens.gate, clock: env.clock });
    const first = await client.read(target);
    const line = (e: WorkflowEnvelope) => ({ event: 'status', at: new Date(env.clock.now()).toISOString(), ...e });
    emit(line(first));
    if (!flags.switches.has('follow') || isTerminal(first.workflow.status)) return 0;
    let lastStatus = first.workflow.status;
    let lastRun = first.workflow.runId;
    const follower = new WorkflowFollower({
      read: () => client.read(target),
      clock: env.clock,
      deadlineMs: deadlineSeconds * 1000,
      onRead: (e) => {
        if (e.workflow.status !== lastStatus || e.workflow.runId !== lastRun) emit(line(e));
        lastStatus = e.workflow.status;
        lastRun = e.workflow.runId;
      },
      onTransientError: (err) => emit({ event: 'warning', message: `read failed, polling continues: ${err.message}` }),
    });
    const unsubscribe = io.onStop(() => follower.cancel());
    // Keeps the process alive while the follower's (unref'd) timers wait.
    const keepAlive = setInterval(() => undefined, 60_000);
    const end = await follower.done.finally(() => {
      clearInterval(keepAlive);
      unsubscribe();
    });
    if (end.reason === 'terminal') return 0;
    if (end.reason === 'error') throw end.error;
    if (end.reason === 'cancelled') {
      emit({ event: 'error', kind: 'cancelled', message: 'following was cancelled' });
      return 130;
    }
    emit({ event: 'error', kind: 'deadline', message: `the workflow is still ${lastStatus} after the ${deadlineSeconds} s deadline; polling stopped` });
    return EXIT_DEADLINE;
  } finally {
    env.tokens.dispose();
  }
}
