// Sessions and workflows held by the sandbox, and the workflow lifecycle: processing → complete or failed
// after a configurable delay, each change announced as a signed webhook (data.runId = the workflow's runId).
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../time/clock';
import { messageTimestamp, triggeredAtTimestamp } from '../time/timestamps';
import { DEMO_LOAN, EMPTY_SESSION_ID, SANDBOX_TENANT, STAGED_SESSION_ID, type SandboxProduct } from './sandboxSeed';
import type { WebhookEvent } from '../schemas/serviceTypes';

/** The events the sandbox sends for a workflow, `workflow/<name>`: at a start or reconfirm, and at its end. */
export const SANDBOX_EVENT_NAMES = ['started', 'completed', 'failed', 'cancelled'] as const;
type SandboxEventName = (typeof SANDBOX_EVENT_NAMES)[number];

export type WorkflowStatus = 'processing' | 'complete' | 'failed' | 'cancelled';

export interface SandboxSession {
  sessionId: string;
  /** The staged loan; null when the session is empty. */
  loan: Record<string, unknown> | null;
}

export interface SandboxWorkflow {
  workflowId: string;
  runId: string;
  status: WorkflowStatus;
  sessionId: string;
  correlationId?: string;
  product: { service: string; model: string };
  productType: string;
  productName: string;
  reconfirmAvailable?: boolean;
  ordered?: string;
  fulfilled?: string;
  completed?: string;
  serviceable?: boolean;
  referenceNumber?: string;
}

interface WorkflowRecord {
  workflow: SandboxWorkflow;
  definition: SandboxProduct;
  actor: string;
  timer?: TimerHandle;
}

// The sandbox runs in the extension host by default: what it remembers is bounded. A workflow record and a billing
// entry are small and of bounded size (ids, a correlationId of at most 255 characters, a product from the
// catalogue), so a count bounds their bytes; staged loans can be up to the body cap each, so they are counted in
// bytes (sandboxControlRoutes.ts).
/** Workflows remembered; beyond it the oldest finished one is forgotten (a read then answers 404). */
export const MAX_SANDBOX_WORKFLOWS = 10_000;
/** Billing entries listed by GET /sandbox/billing; the oldest go first. */
export const MAX_BILLING_ENTRIES = 10_000;
/** Sessions the control API may create, and the bytes (as JSON) of the loans staged in all of them. */
export const MAX_SANDBOX_SESSIONS = 1_000;
export const MAX_STAGED_LOAN_BYTES = 64 * 1024 * 1024;

export interface BillingEntry {
  workflowId: string;
  runId: string;
  correlationId?: string;
  product: { service: string; model: string };
  at: string;
  kind: 'start' | 'reconfirm';
}

/** A workflow event is a webhook event as the spec shapes it (one type for it, in core/schemas). */
export type WorkflowEvent = WebhookEvent;

function shortId(prefix: string): string {
  return prefix + randomBytes(10).toString('hex');
}

export class SandboxWorkflows {
  readonly sessions = new Map<string, SandboxSession>();
  /** Each session's staged loan, in bytes of JSON. */
  private readonly loanBytes = new Map<string, number>();
  private readonly workflows = new Map<string, WorkflowRecord>();
  readonly billing: BillingEntry[] = [];
  /** Set by the control API: the next workflows to finish end failed instead. */
  failNext = 0;

  constructor(
    private readonly clock: Clock,
    public workflowDurationMs: number,
    private readonly onEvent: (event: WorkflowEvent) => void,
  ) {
    this.seed();
  }

  seed(): void {
    this.loanBytes.clear();
    this.stage(STAGED_SESSION_ID, structuredClone(DEMO_LOAN));
    this.stage(EMPTY_SESSION_ID, null);
  }

  /** Creates the session or replaces its loan; a refusal says which bound it would pass (nothing is changed). */
  stage(sessionId: string, loan: Record<string, unknown> | null): { ok: true } | { ok: false; reason: string } {
    if (!this.sessions.has(sessionId) && this.sessions.size >= MAX_SANDBOX_SESSIONS)
      return {
        ok: false,
        reason: `the sandbox holds at most ${MAX_SANDBOX_SESSIONS} sessions: POST /sandbox/reset, or restart it`,
      };
    const bytes = loan === null ? 0 : Buffer.byteLength(JSON.stringify(loan));
    let total = bytes;
    for (const [id, n] of this.loanBytes) if (id !== sessionId) total += n;
    if (total > MAX_STAGED_LOAN_BYTES)
      return {
        ok: false,
        reason: `the sandbox holds at most ${MAX_STAGED_LOAN_BYTES / 1024 / 1024} MiB of staged loans, and this one would make ${total} bytes: unstage others (DELETE /sandbox/sessions/ID/loan) or POST /sandbox/reset`,
      };
    const existing = this.sessions.get(sessionId);
    if (existing) existing.loan = loan;
    else this.sessions.set(sessionId, { sessionId, loan });
    this.loanBytes.set(sessionId, bytes);
    return { ok: true };
  }

  reset(): void {
    for (const r of this.workflows.values()) this.clock.clearTimeout(r.timer);
    this.workflows.clear();
    this.sessions.clear();
    this.billing.length = 0;
    this.failNext = 0;
    this.seed();
  }

  stop(): void {
    for (const r of this.workflows.values()) this.clock.clearTimeout(r.timer);
  }

  get(workflowId: string): SandboxWorkflow | undefined {
    return this.workflows.get(workflowId)?.workflow;
  }

  all(): SandboxWorkflow[] {
    return [...this.workflows.values()].map((r) => r.workflow);
  }

  findByCorrelationId(correlationId: string): SandboxWorkflow[] {
    return this.all().filter((w) => w.correlationId === correlationId);
  }

  /** Starts a billed workflow against the session's current snapshot. */
  start(
    session: SandboxSession,
    definition: SandboxProduct,
    correlationId: string | undefined,
    actor: string,
  ): SandboxWorkflow {
    const workflow: SandboxWorkflow = {
      workflowId: shortId('wf_'),
      runId: shortId('wfrun_'),
      status: 'processing',
      sessionId: session.sessionId,
      ...(correlationId !== undefined ? { correlationId } : {}),
      product: { service: definition.service, model: definition.model },
      productType: definition.service,
      productName: definition.model,
      reconfirmAvailable: false,
    };
    const record: WorkflowRecord = { workflow, definition, actor };
    this.workflows.set(workflow.workflowId, record);
    this.forgetOldest();
    this.bill(workflow, 'start');
    this.schedule(record);
    this.emitEvent(record, 'started');
    return workflow;
  }

  /** A new execution of the same workflow: new runId, same workflowId (spec: Workflow.workflowId). */
  reconfirm(workflowId: string): SandboxWorkflow | undefined {
    const record = this.workflows.get(workflowId);
    if (!record || record.workflow.reconfirmAvailable !== true) return undefined;
    const w = record.workflow;
    w.runId = shortId('wfrun_');
    w.status = 'processing';
    w.reconfirmAvailable = false;
    delete w.fulfilled;
    delete w.completed;
    this.bill(w, 'reconfirm');
    this.schedule(record);
    this.emitEvent(record, 'started');
    return w;
  }

  /** Control API: end a processing workflow now. */
  finish(workflowId: string, status: Exclude<WorkflowStatus, 'processing'>): SandboxWorkflow | undefined {
    const record = this.workflows.get(workflowId);
    if (!record) return undefined;
    this.clock.clearTimeout(record.timer);
    this.complete(record, status);
    return record.workflow;
  }

  private bill(w: SandboxWorkflow, kind: BillingEntry['kind']): void {
    this.billing.push({
      workflowId: w.workflowId,
      runId: w.runId,
      correlationId: w.correlationId,
      product: { ...w.product },
      at: messageTimestamp(this.clock.now()),
      kind,
    });
    if (this.billing.length > MAX_BILLING_ENTRIES) this.billing.splice(0, this.billing.length - MAX_BILLING_ENTRIES);
  }

  /** Over the cap, the oldest finished workflows are forgotten (processing ones finish first: their timer holds them).
   * */
  private forgetOldest(): void {
    if (this.workflows.size <= MAX_SANDBOX_WORKFLOWS) return;
    for (const [id, r] of this.workflows) {
      if (this.workflows.size <= MAX_SANDBOX_WORKFLOWS) break;
      if (r.workflow.status !== 'processing') this.workflows.delete(id);
    }
  }

  private schedule(record: WorkflowRecord): void {
    record.timer = this.clock.setTimeout(() => {
      const failed = this.failNext > 0;
      if (failed) this.failNext--;
      this.complete(record, failed ? 'failed' : record.definition.outcome);
    }, this.workflowDurationMs);
  }

  private complete(record: WorkflowRecord, status: Exclude<WorkflowStatus, 'processing'>): void {
    const w = record.workflow;
    if (w.status !== 'processing') return;
    const now = messageTimestamp(this.clock.now());
    w.status = status;
    w.ordered ??= now;
    w.referenceNumber ??= 'REF-' + randomBytes(4).readUInt32BE(0).toString().padStart(10, '0');
    if (status === 'complete') {
      w.fulfilled = now;
      w.completed = now;
      w.serviceable = true;
      if (record.definition.reconfirmable) w.reconfirmAvailable = true;
    } else {
      w.serviceable = false;
    }
    this.emitEvent(record, status === 'complete' ? 'completed' : (status as SandboxEventName));
  }

  private emitEvent(record: WorkflowRecord, name: SandboxEventName): void {
    const w = record.workflow;
    this.onEvent({
      webhookId: randomUUID(),
      topic: `workflow/${name}`,
      subTopic: `status:workflow/${name}`,
      tenantId: SANDBOX_TENANT,
      triggeredAt: triggeredAtTimestamp(this.clock.now(), randomBytes(2).readUInt16BE(0) % 10000),
      actorId: record.actor,
      data: {
        workflowId: w.workflowId,
        runId: w.runId,
        sessionId: w.sessionId,
        status: w.status,
        ...(w.correlationId !== undefined ? { correlationId: w.correlationId } : {}),
        productType: w.productType,
        productName: w.productName,
      },
    });
  }
}
