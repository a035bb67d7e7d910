// Sessions and workflows held by the sandbox, and the workflow lifecycle: processing → complete or failed
// after a configurable delay, each change announced as a signed webhook (data.runId = the workflow's runId).
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../time/clock';
import { messageTimestamp, triggeredAtTimestamp } from '../time/timestamps';
import { DEMO_LOAN, EMPTY_SESSION_ID, SANDBOX_TENANT, STAGED_SESSION_ID, type SandboxProduct } from './sandboxSeed';

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
  snapshot: Record<string, unknown>;
  actor: string;
  timer?: TimerHandle;
}

export interface BillingEntry {
  workflowId: string;
  runId: string;
  correlationId?: string;
  product: { service: string; model: string };
  at: string;
  kind: 'start' | 'reconfirm';
}

export interface WorkflowEvent {
  webhookId: string;
  topic: string;
  subTopic: string;
  tenantId: string;
  triggeredAt: string;
  actorId: string;
  data: Record<string, unknown>;
}

function shortId(prefix: string): string {
  return prefix + randomBytes(10).toString('hex');
}

export class SandboxWorkflows {
  readonly sessions = new Map<string, SandboxSession>();
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
    this.sessions.set(STAGED_SESSION_ID, { sessionId: STAGED_SESSION_ID, loan: structuredClone(DEMO_LOAN) });
    this.sessions.set(EMPTY_SESSION_ID, { sessionId: EMPTY_SESSION_ID, loan: null });
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
  start(session: SandboxSession, definition: SandboxProduct, correlationId: string | undefined, actor: string): SandboxWorkflow {
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
    const record: WorkflowRecord = { workflow, definition, snapshot: structuredClone(session.loan ?? {}), actor };
    this.workflows.set(workflow.workflowId, record);
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
    this.billing.push({ workflowId: w.workflowId, runId: w.runId, correlationId: w.correlationId, product: { ...w.product }, at: messageTimestamp(this.clock.now()), kind });
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
    this.emitEvent(record, status === 'complete' ? 'completed' : status);
  }

  private emitEvent(record: WorkflowRecord, name: string): void {
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
