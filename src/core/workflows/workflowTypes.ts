// The Workflow resource and the start/read envelopes (spec: Resources and their fields).
import type { ServiceMessage } from '../http/bodyKind';

export type WorkflowStatus = 'processing' | 'complete' | 'failed' | 'cancelled';

const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['complete', 'failed', 'cancelled']);

export function isTerminal(status: string | undefined): boolean {
  return status !== undefined && TERMINAL_STATUSES.has(status);
}

export interface Product {
  service: string;
  model: string;
}

export interface Workflow {
  workflowId: string;
  runId: string;
  status: WorkflowStatus | string;
  sessionId: string;
  correlationId?: string;
  product: Product;
  productType: string;
  productName: string;
  reconfirmAvailable?: boolean;
  ordered?: unknown;
  fulfilled?: unknown;
  completed?: unknown;
  serviceable?: unknown;
  referenceNumber?: unknown;
}

export interface WorkflowLinks {
  self: { href: string };
  reconfirm: { href: string; method: string };
}

export interface WorkflowEnvelope {
  workflow: Workflow;
  messages?: ServiceMessage[];
  links?: WorkflowLinks;
}

/** Ids and the status longer than this are not an answer of the service (they are kept, exact, per workflow). */
const MAX_ID_CHARS = 1024;
const idOk = (v: unknown, required: boolean) =>
  v === undefined ? !required : typeof v === 'string' && v.length <= MAX_ID_CHARS;

/** Checks the parts of a workflow envelope we rely on; anything else passes through untouched. */
export function readWorkflowEnvelope(json: unknown): WorkflowEnvelope | undefined {
  const o = json as Record<string, unknown> | undefined;
  const w = o?.workflow as Record<string, unknown> | undefined;
  if (!w || !idOk(w.workflowId, true) || !idOk(w.status, true)) return undefined;
  if (!idOk(w.runId, false) || !idOk(w.sessionId, false) || !idOk(w.correlationId, false)) return undefined;
  return o as unknown as WorkflowEnvelope;
}
