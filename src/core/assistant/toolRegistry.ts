// Every tool of the assistant, in the order a model should meet them, and the one way both faces call one: the input
// checked against its schema, the tool run, every error turned into what happened and what to do, and the result
// cleared of secrets.
import { ServiceError } from '../http/serviceErrors';
import { TransportError } from '../http/request';
import { english } from '../presentation/said';
import { validateSchema } from '../schemas/validateSchema';
import type { AssistantContext } from './assistantContext';
import { ToolRefused, type AssistantTool, type ToolPreview } from './assistantTool';
import { auditReceiver, checkContract } from './checkTools';
import { explainDelivery, getDelivery, listDeliveries, waitForDelivery } from './deliveryTools';
import { describeEnvironment } from './environmentTool';
import { finalAnswer } from './resultRedaction';
import { replayToApp, sendEvent } from './sendTools';
import { findWorkflows, startBilledWorkflow, startSandboxWorkflow, workflowStatus } from './workflowTools';

export const ASSISTANT_TOOLS: readonly AssistantTool<never, unknown>[] = [
  describeEnvironment,
  listDeliveries,
  getDelivery,
  explainDelivery,
  waitForDelivery,
  replayToApp,
  sendEvent,
  auditReceiver,
  findWorkflows,
  workflowStatus,
  startSandboxWorkflow,
  startBilledWorkflow,
  checkContract,
] as AssistantTool<never, unknown>[];

function findTool(name: string): AssistantTool<never, unknown> | undefined {
  return ASSISTANT_TOOLS.find((t) => t.name === name);
}

/** A tool's answer: its result, or why it could not (what happened, then what to do) with structured details. */
export type ToolOutcome =
  { ok: true; result: unknown } | { ok: false; error: string; details: Record<string, unknown> };

/** The input, checked: the schema's errors as one sentence, or undefined when it conforms. */
function inputProblem(tool: AssistantTool<never, unknown>, input: unknown): string | undefined {
  const errors = validateSchema(tool.inputSchema, input ?? {});
  if (errors.length === 0) return undefined;
  return `The input of ${tool.name} does not fit its schema: ${errors
    .slice(0, 5)
    .map((e) => e.replace(/^\$\.?/, '') || 'the input')
    .join('; ')}. Call it again with the fields its schema describes.`;
}

/** Runs a tool by name as a face does: never throws; the outcome is free of secrets and of raw controls. */
export async function runTool(
  name: string,
  input: unknown,
  ctx: AssistantContext,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const tool = findTool(name);
  let outcome: ToolOutcome;
  if (!tool) outcome = { ok: false, error: `There is no tool ${name}.`, details: {} };
  else {
    const problem = inputProblem(tool, input);
    if (problem) outcome = { ok: false, error: problem, details: {} };
    else
      try {
        outcome = { ok: true, result: await tool.run((input ?? {}) as never, ctx, signal) };
      } catch (err) {
        outcome = failure(err);
      }
  }
  // The one place every answer is finalized: secrets out by value and by shape, outside text's controls escaped.
  return finalAnswer(outcome, ctx.secrets());
}

/** A tool's preview in English, and `said`: the same as core's words, for a face that words them itself. */
export interface WordedPreview {
  title: string;
  message: string;
  said: ToolPreview;
}

/** What a sending or starting tool is about to do, free of secrets; undefined for a tool that only reads, or when
 * the preview cannot be made (the run then refuses with the reason). */
export async function previewTool(
  name: string,
  input: unknown,
  ctx: AssistantContext,
): Promise<WordedPreview | undefined> {
  const tool = findTool(name);
  if (!tool?.preview || inputProblem(tool, input)) return undefined;
  try {
    // Secrets out of the Said's values too: whatever words a face finds for them, the values stay cleared.
    const p = finalAnswer(await tool.preview((input ?? {}) as never, ctx), ctx.secrets());
    return { title: english(p.title), message: english(p.message), said: p };
  } catch {
    return undefined;
  }
}

function failure(err: unknown): ToolOutcome {
  if (err instanceof ToolRefused) return { ok: false, error: err.message, details: err.details };
  if (err instanceof ServiceError)
    return {
      ok: false,
      error: err.advice,
      details: {
        kind: err.kind,
        ...(err.status !== undefined ? { status: err.status } : {}),
        ...(err.code !== undefined ? { code: err.code } : {}),
        ...(err.correlationId !== undefined ? { correlationId: err.correlationId } : {}),
        billed: err.billed,
      },
    };
  if (err instanceof TransportError)
    return {
      ok: false,
      error: `${err.message}: check that the service is running and reachable, then try again.`,
      details: { kind: 'transport', reason: err.reason, ...(err.code ? { code: err.code } : {}) },
    };
  return { ok: false, error: `The tool failed: ${(err as Error)?.message ?? String(err)}`, details: {} };
}
