// The workflow tools: find by correlationId, read one, start one on the Sandbox (nothing billed), and a billed start
// that a person must confirm (billedStartRule.ts). Each uses the user's sign-in of the environment in use.
import { serviceOrigin } from '../environments/environment';
import { EMPTY_SESSION_ID, STAGED_SESSION_ID } from '../sandbox/sandboxSeed';
import { findByCorrelationId } from '../workflows/correlationId';
import { prepareStart } from '../workflows/WorkflowClient';
import { isTerminal, type Workflow, type WorkflowEnvelope } from '../workflows/workflowTypes';
import type { AssistantContext, BilledStartDetails } from './assistantContext';
import { READS, ToolRefused, titled, type AssistantTool } from './assistantTool';
import { said } from '../presentation/said';
import { billedStartValues, decideBilledStart } from './billedStartRule';
import { checkAskable, personQuestion } from './personQuestion';

/** Messages kept of a workflow's envelope. */
const MAX_MESSAGES = 20;

export interface WorkflowView {
  workflowId: string;
  runId: string;
  status: string;
  terminal: boolean;
  sessionId: string;
  correlationId: string | null;
  product: { service: string; model: string };
  reconfirmAvailable?: boolean;
  referenceNumber?: unknown;
}

function workflowView(w: Workflow): WorkflowView {
  return {
    workflowId: w.workflowId,
    runId: w.runId,
    status: w.status,
    terminal: isTerminal(w.status),
    sessionId: w.sessionId,
    correlationId: w.correlationId ?? null,
    product: { service: w.product?.service, model: w.product?.model },
    ...(w.reconfirmAvailable !== undefined ? { reconfirmAvailable: w.reconfirmAvailable } : {}),
    ...(w.referenceNumber !== undefined ? { referenceNumber: w.referenceNumber } : {}),
  };
}

function envelopeView(e: WorkflowEnvelope): { workflow: WorkflowView; messages: { code: string; text: string }[] } {
  return {
    workflow: workflowView(e.workflow),
    messages: (e.messages ?? []).slice(0, MAX_MESSAGES).map((m) => ({ code: m.code, text: m.text ?? '' })),
  };
}

export interface FindResult {
  environment: string;
  correlationId: string;
  workflows: WorkflowView[];
  note?: string;
}

export const findWorkflows: AssistantTool<{ correlationId: string }, FindResult> = {
  name: 'wfs_find_workflows',
  ...titled(said('Find workflows by correlationId')),
  summary: 'Find the workflows started with a correlationId in the environment in use.',
  description: [
    'Finds the workflows the service holds for a correlationId, in the environment in use: ids, runId (the one',
    'webhook events carry in data.runId), status and product. Use it after a start whose outcome is unknown (a 500, a',
    'lost answer) before anything is started again: a start is billed.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['correlationId'],
    properties: {
      correlationId: { type: 'string', minLength: 1, maxLength: 300, description: 'The correlationId the start sent.' },
    },
  },
  annotations: { ...READS, openWorldHint: true },
  effect: 'reads',
  async run(input, ctx) {
    const env = ctx.environment();
    const client = await ctx.workflows();
    const { found, searched } = await findByCorrelationId((id) => client.find(id), input.correlationId);
    return {
      environment: env.name,
      correlationId: searched,
      workflows: found.map(workflowView),
      ...(found.length === 0
        ? { note: `${env.name} holds no workflow with this correlationId: no start carrying it was made there.` }
        : {}),
    };
  },
};

export const workflowStatus: AssistantTool<
  { workflowId: string },
  { environment: string; workflow: WorkflowView; messages: { code: string; text: string }[] }
> = {
  name: 'wfs_workflow_status',
  ...titled(said('Read a workflow')),
  summary: "Read one workflow's status, runId and messages from the service.",
  description: [
    'Reads one workflow from the service in the environment in use: its status (processing, complete, failed,',
    'cancelled), runId, product, session, and the messages of the answer. A delivery ties to a workflow through',
    'data.runId; this reads by workflowId (wf_…), which the start or wfs_find_workflows gives.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['workflowId'],
    properties: {
      workflowId: { type: 'string', minLength: 1, maxLength: 300, description: 'The workflowId, e.g. "wf_…".' },
    },
  },
  annotations: { ...READS, openWorldHint: true },
  effect: 'reads',
  async run(input, ctx) {
    if (/^https?:\/\//i.test(input.workflowId))
      throw new ToolRefused('Give the workflowId (wf_…), not a link: the link is built on the environment in use.');
    const env = ctx.environment();
    const client = await ctx.workflows();
    return { environment: env.name, ...envelopeView(await client.read(input.workflowId)) };
  },
};

export interface StartInput {
  sessionId?: string;
  service?: string;
  model?: string;
  correlationId?: string;
}

export type StartOutcome =
  | {
      started: true;
      environment: string;
      billed: boolean;
      correlationId: string;
      workflow: WorkflowView;
      next: string;
    }
  | { started: 'unknown'; environment: string; correlationId: string; message: string };

/** Sends one prepared start through the core's billed start and says what came of it; an unknown is never retried. */
async function sendStart(
  ctx: AssistantContext,
  d: BilledStartDetails,
  billed: boolean,
  stop?: AbortSignal,
): Promise<StartOutcome> {
  // The start goes to the environment that was confirmed, or nowhere: it may have changed while the person answered.
  const now = ctx.environment();
  if (now.name !== d.environment || serviceOrigin(now) !== d.serviceOrigin)
    throw new ToolRefused(
      `The environment changed from ${d.environment} (${d.serviceOrigin}) to ${now.name} (${serviceOrigin(now)}) while the start was being confirmed: nothing was started or billed. Ask again to confirm the start on ${now.name}.`,
      { started: false, reason: 'environment-changed', environment: now.name },
    );
  const client = await ctx.workflows();
  const outcome = await client.start(
    { sessionId: d.sessionId, product: d.product, correlationId: d.correlationId },
    stop,
  );
  if (outcome.kind === 'started')
    return {
      started: true,
      environment: d.environment,
      billed,
      correlationId: d.correlationId,
      workflow: workflowView(outcome.result.workflow),
      next: 'wfs_workflow_status reads it; wfs_wait_for_delivery (topic "workflow/*") waits for its events.',
    };
  if (outcome.kind === 'not-sent')
    throw new ToolRefused(
      `Not started: the call was cancelled before the start was sent. Nothing was ${billed ? 'billed' : 'started'}.`,
      { started: false, correlationId: d.correlationId },
    );
  return {
    started: 'unknown',
    environment: d.environment,
    correlationId: d.correlationId,
    message: `Outcome unknown: ${outcome.detail}; a workflow may have been started${billed ? ' and billed' : ''}. Do not start again: call wfs_find_workflows with correlationId ${d.correlationId} first, and start another only if none is found.`,
  };
}

function details(
  input: Required<Pick<StartInput, 'sessionId' | 'service' | 'model'>> & StartInput,
  ctx: AssistantContext,
): BilledStartDetails {
  const env = ctx.environment();
  // Every local rule is checked before anything is asked or sent.
  const p = prepareStart(
    {
      sessionId: input.sessionId,
      product: { service: input.service, model: input.model },
      correlationId: input.correlationId,
    },
    ctx.clock.now(),
  );
  const d = {
    environment: env.name,
    serviceOrigin: serviceOrigin(env),
    sessionId: p.sessionId,
    product: { service: p.service, model: p.model },
    correlationId: p.correlationId,
  };
  // The model wrote these values, and a person is shown them: one that cannot be shown as it is is refused here,
  // before any confirmation is asked (VS Code's, an MCP elicitation) and before anything is sent.
  checkAskable(billedStartValues(d));
  return d;
}

const startProperties = {
  sessionId: { type: 'string', minLength: 1, maxLength: 255, description: 'The session holding the staged loan.' },
  service: { type: 'string', minLength: 1, maxLength: 100, description: 'product.service, e.g. "Appraisal".' },
  model: { type: 'string', minLength: 1, maxLength: 100, description: 'product.model, e.g. "Standard".' },
  correlationId: {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    description: 'Your own reference to find it by; default: a distinctive generated one.',
  },
};

export const startSandboxWorkflow: AssistantTool<StartInput, StartOutcome> = {
  name: 'wfs_start_sandbox_workflow',
  ...titled(said('Start a workflow on the Sandbox')),
  summary: 'Start a workflow on the Sandbox, where nothing is billed.',
  description: [
    'Starts a workflow on the Sandbox, the simulator on this machine, where nothing is billed: it runs for a few',
    'seconds, ends complete (or failed), and sends signed workflow events (workflow/completed…) to the receiver.',
    `Defaults: session ${STAGED_SESSION_ID} (a staged loan; ${EMPTY_SESSION_ID} is empty), Appraisal / Standard.`,
    'Refused when the environment in use is not the Sandbox: there a start is billed (wfs_start_billed_workflow).',
  ].join(' '),
  inputSchema: { type: 'object', additionalProperties: false, properties: startProperties },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  effect: 'starts',
  async preview(input, ctx) {
    const d = details({ sessionId: STAGED_SESSION_ID, service: 'Appraisal', model: 'Standard', ...input }, ctx);
    return {
      title: said('Start a Sandbox workflow (not billed)'),
      message: personQuestion(said('Start this workflow? The Sandbox bills nothing.'), billedStartValues(d)),
    };
  },
  async run(input, ctx, signal) {
    const env = ctx.environment();
    if (!env.isSandbox)
      throw new ToolRefused(
        `The environment in use is ${env.name}, not the Sandbox: a start there is billed. ${env.toSandbox ?? 'Switch to the Sandbox to try it for free.'} Or use wfs_start_billed_workflow, which asks the user first.`,
      );
    const d = details({ sessionId: STAGED_SESSION_ID, service: 'Appraisal', model: 'Standard', ...input }, ctx);
    return sendStart(ctx, d, false, signal);
  },
};

export const startBilledWorkflow: AssistantTool<
  Required<Pick<StartInput, 'sessionId' | 'service' | 'model'>> & StartInput,
  StartOutcome
> = {
  name: 'wfs_start_billed_workflow',
  ...titled(said('Start a billed workflow (asks the user)')),
  summary: 'Start a billed workflow, only after you confirm it in a dialog.',
  description: [
    'Starts one BILLED workflow in the environment in use, only after the user confirms that very start (environment,',
    'product, session) in a dialog. Where the client cannot ask the user, nothing is started: the result holds the',
    'exact `wfs start` command for the user to run. If the outcome is unknown, never start again: call',
    'wfs_find_workflows with the correlationId. On the Sandbox use wfs_start_sandbox_workflow instead.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['sessionId', 'service', 'model'],
    properties: startProperties,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  effect: 'starts',
  async preview(input, ctx) {
    const d = details(input, ctx);
    return {
      title: said('Start a BILLED workflow'),
      message: personQuestion(
        said('Start this workflow? The service bills it; you are asked again to confirm the billed start itself.'),
        billedStartValues(d),
      ),
    };
  },
  async run(input, ctx, signal) {
    ctx.checkSending();
    const d = details(input, ctx);
    const decision = decideBilledStart(await ctx.confirmBilledStart(d), d);
    if (!decision.start)
      throw new ToolRefused(decision.message, {
        started: false,
        reason: decision.reason,
        environment: d.environment,
        product: d.product,
        sessionId: d.sessionId,
        correlationId: d.correlationId,
        ...(decision.command ? { command: decision.command } : {}),
      });
    return sendStart(ctx, d, !ctx.environment().isSandbox, signal);
  },
};
