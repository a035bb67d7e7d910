// `wfs start`: starts one billed workflow and prints the service's JSON on 202.
import { type StartOutcomeUnknown, prepareStart, startBilledWorkflow } from '../../core/workflows';
import { EXIT } from '../exitCodes';
import { readServiceTarget, signIn, workflowClient } from '../cliEnvironment';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';
import { requiredFlag, UsageError } from '../flags';
import { FOLLOW_FLAGS, followDurations, followWorkflow } from './statusCommand';
import { OutcomeUnknown, ServiceError, TransportError } from '../../core/http';
import { wfsCommandLine } from '../../core/presentation';
import { StoppedBeforeSent } from '../output';
import { explainStartRefusal } from '../startRefusal';

/** A start that may have billed a workflow although no answer says so: what happened, then the exact command. */
function outcomeUnknown(o: StartOutcomeUnknown): OutcomeUnknown {
  const what = {
    'stopped-after-send': 'the start was sent and the command was stopped before its answer came',
    'answer-lost': `the start was sent and its answer lost (${lostHow(o)})`,
    'service-error': `the service answered ${o.error instanceof ServiceError && o.error.status ? o.error.status : 'an error'} to the start`,
  }[o.cause];
  const fields = o.error instanceof ServiceError ? o.error : undefined;
  return new OutcomeUnknown(
    'outcome-unknown',
    `Outcome unknown: ${what}; a workflow may have been started and billed. Do not retry blindly: run \`${findCommandLine(o.correlationId)}\`, and start another only if none is found.`,
    {
      correlationId: o.correlationId,
      billed: 'possibly',
      status: fields?.status,
      code: fields?.code,
      problemType: fields?.problemType,
      instance: fields?.instance,
    },
  );
}

/** How the answer was lost, in words: a cut connection by its code, a timeout by the transport's message. */
function lostHow(o: StartOutcomeUnknown): string {
  const e = o.error;
  if (e instanceof TransportError && e.reason === 'network') return `the connection was cut: ${e.code ?? 'closed'}`;
  return o.detail;
}

/** The exact `wfs find` line for a correlationId, quoted for a POSIX shell where it needs quoting. */
function findCommandLine(correlationId: string): string {
  return wfsCommandLine('find', [['correlation-id', correlationId]]);
}

export const startCommand: CommandSpec = {
  name: 'start',
  synopsis:
    'start --session ID --service S --model M [--correlation-id C] [--follow [--deadline DURATION] [--give-up-after DURATION]]',
  description: [
    'Starts one BILLED workflow and prints {"event":"started","correlationId":…,"workflow":…,"messages":…,"links":…} on 202.',
    'Without --correlation-id a distinctive one is generated, so a 500 can always be resolved with `wfs find`.',
    'On 401/403 it takes one fresh token and retries once; on 429 it backs off (printing {"event":"backoff",…}) and resumes.',
    'It never retries 400, 404, 409 or 500. Every rule it can check locally is checked before it signs in.',
    'With --follow it then follows the workflow as `wfs status --follow` does, with the same lines and exit codes.',
  ].join('\n'),
  flags: {
    session: {
      type: 'string',
      value: 'ID',
      description: 'the session holding the staged loan (required)',
      required: true,
    },
    service: { type: 'string', value: 'S', description: 'product.service, e.g. Appraisal (required)', required: true },
    model: { type: 'string', value: 'M', description: 'product.model, e.g. Standard (required)', required: true },
    'correlation-id': {
      type: 'string',
      value: 'C',
      description: 'your own reference, at most 255 characters (default: generated)',
    },
    follow: { type: 'boolean', description: 'then follow the workflow to its end, as `wfs status --follow`' },
    ...FOLLOW_FLAGS,
  },
  env: SERVICE_ENV,
  exits: [
    [
      EXIT.outcomeUnknown,
      'outcome unknown: the start answered 500, its answer was lost, or the command was stopped while waiting for it, so a billed workflow may exist: run `wfs find --correlation-id C` with the correlationId in the error line',
    ],
    [EXIT.deadline, 'with --follow: the deadline came while the workflow was still running'],
    [EXIT.notComplete, 'with --follow: the workflow ended failed or cancelled'],
    [EXIT.interrupted, 'interrupted (SIGINT/SIGTERM) before the start was sent, or while following'],
  ],
  async run(flags, io) {
    const sessionId = requiredFlag(flags, 'session');
    const product = { service: requiredFlag(flags, 'service'), model: requiredFlag(flags, 'model') };
    const follow = flags.switches.has('follow');
    const { deadlineMs, giveUpMs } = followDurations(flags);
    for (const name of ['deadline', 'give-up-after'])
      if (flags.values.has(name) && !follow) throw new UsageError(`--${name} applies only with --follow`);
    const target = readServiceTarget(io.env);
    // Refused here, a request costs nothing on the wire: not even a sign-in.
    const prepared = prepareStart(
      { sessionId, product, correlationId: flags.values.get('correlation-id') },
      io.clock.now(),
    );
    const env = await signIn(target, io);
    const stop = new AbortController();
    let unsubscribe = io.onStop(() => stop.abort());
    try {
      const client = workflowClient(env);
      io.progress?.(`starting a billed workflow on ${sessionId} (correlationId ${prepared.correlationId})`);
      const outcome = await startBilledWorkflow(
        (req, options) => client.start(req, options),
        { sessionId, product, correlationId: prepared.correlationId },
        stop.signal,
      )
        .catch((err: unknown) => explainStartRefusal(err, product, env.baseUrl, io.env))
        .finally(() => io.progress?.(undefined));
      if (outcome.kind === 'not-sent')
        throw new StoppedBeforeSent('stopped before the start was sent: no workflow was started, nothing was billed');
      if (outcome.kind === 'outcome-unknown') throw outcomeUnknown(outcome);
      const result = outcome.result;
      const { correlationId, ...body } = result;
      io.emit({ event: 'started', correlationId, ...body });
      if (!follow) return EXIT.ok;
      unsubscribe(); // from here a stop cancels the follow, not the start
      unsubscribe = () => undefined;
      return await followWorkflow({
        client,
        target: body.workflow.workflowId,
        first: body,
        baseUrl: env.baseUrl,
        io,
        deadlineMs,
        giveUpMs,
        startedHere: true,
      });
    } finally {
      unsubscribe();
      env.tokens.dispose();
    }
  },
};
