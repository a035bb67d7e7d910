// What the explorer remembers per environment: the sessions a user added (no endpoint lists them) and the
// workflows started here with their last known state. Plain data, persisted by the host (VS Code globalState).
// Every method takes the Environment value: its name is the persisted key (a user's sessions are theirs whatever
// the address), its key says which service the workflows were read from, so a value only ever sees its own.
import type { Environment } from '../environments/environment';
import type { ServiceMessage } from '../http/bodyKind';
import { isTerminal, type Product, type WorkflowEnvelope } from './workflowTypes';
import { boundedEnvelope } from './boundedEnvelope';
import { TypedEmitter } from '../events/TypedEmitter';
import { SaidError, type Said } from '../presentation/said';

/** Why polling stopped before a terminal status, kept as a reason so each display words it in the language of its
 * moment (a reason written as text would stay in the language it was written in). */
export type PollingStopReason = 'deadline' | 'error';

/** What the store keeps of an error met while polling: its English, and core's Said when core said it. */
export function errorMark(err: unknown): { lastError: string; lastErrorSaid?: Said } {
  if (err instanceof SaidError) return { lastError: err.message, lastErrorSaid: err.said };
  return { lastError: err instanceof Error ? err.message : String(err) };
}

export interface TrackedWorkflow {
  workflowId: string;
  runId: string;
  sessionId: string;
  correlationId: string;
  product: Product;
  productName?: string;
  status: string;
  reconfirmAvailable: boolean;
  /** Epoch ms of the start (or of adding it here). */
  startedAt: number;
  /** Epoch ms of the last successful read. */
  lastPolledAt?: number;
  /** Why polling stopped before a terminal status: a PollingStopReason; a record from an older version may hold the
   * reason's words as text, shown as they are. */
  pollingStopped?: PollingStopReason | string;
  /** The last error met while polling, shown in the tooltip: its English, and core's Said beside it when core said it
   * (worded in the display language of the moment; a stored one is checked with isSaid before use). */
  lastError?: string;
  lastErrorSaid?: Said;
  messages?: ServiceMessage[];
  /** The raw last envelope, for "Open Raw JSON". */
  envelope?: WorkflowEnvelope;
}

export interface EnvironmentSnapshot {
  sessions: string[];
  workflows: TrackedWorkflow[];
  /** The service the workflows were read from (Environment.key: the name and its origins). */
  service?: string;
}

/** Keyed by environment name. */
export type StoreSnapshot = Record<string, EnvironmentSnapshot>;

/** What the store needs of an Environment value. */
export type StoreEnvironment = Pick<Environment, 'name' | 'key'>;

/** Older workflows are forgotten beyond this many per environment. */
export const MAX_WORKFLOWS_PER_ENVIRONMENT = 200;

export interface WorkflowStoreEvents {
  /** An environment's sessions or workflows changed (its name). */
  changed: [string];
  'error-persisting': [Error];
}

export class WorkflowStore extends TypedEmitter<WorkflowStoreEvents> {
  private readonly data = new Map<string, EnvironmentSnapshot>();

  constructor(
    initial: unknown,
    private readonly persist: (snapshot: StoreSnapshot) => void | Promise<void>,
  ) {
    super();
    this.restore(initial);
  }

  /** Accepts anything (it comes from storage): keeps what is well-formed, drops the rest. */
  private restore(initial: unknown): void {
    if (!initial || typeof initial !== 'object') return;
    for (const [envName, value] of Object.entries(initial as Record<string, unknown>)) {
      const v = value as Partial<EnvironmentSnapshot>;
      const sessions = Array.isArray(v?.sessions)
        ? v.sessions.filter((s): s is string => typeof s === 'string' && s.length > 0)
        : [];
      const workflows = Array.isArray(v?.workflows)
        ? v.workflows.filter(
            (w): w is TrackedWorkflow =>
              !!w &&
              typeof w.workflowId === 'string' &&
              typeof w.sessionId === 'string' &&
              typeof w.status === 'string',
          )
        : [];
      this.data.set(envName, {
        sessions: [...new Set(sessions)],
        workflows,
        ...(typeof v?.service === 'string' ? { service: v.service } : {}),
      });
    }
  }

  private bucket(envName: string): EnvironmentSnapshot {
    let e = this.data.get(envName);
    if (!e) this.data.set(envName, (e = { sessions: [], workflows: [] }));
    return e;
  }

  /** The value's workflows: none when the name's workflows were read from another service. A snapshot from before
   * services were recorded is read as the value's until follow() adopts it. */
  private own(env: StoreEnvironment): TrackedWorkflow[] {
    const e = this.data.get(env.name);
    return e && (e.service === undefined || e.service === env.key) ? e.workflows : [];
  }

  /** Sessions are kept by name only: the user's list, whatever the address. */
  sessions(env: Pick<Environment, 'name'>): readonly string[] {
    return this.data.get(env.name)?.sessions ?? [];
  }

  workflows(env: StoreEnvironment, sessionId?: string): readonly TrackedWorkflow[] {
    const all = this.own(env);
    return sessionId === undefined ? all : all.filter((w) => w.sessionId === sessionId);
  }

  workflow(env: StoreEnvironment, workflowId: string): TrackedWorkflow | undefined {
    return this.own(env).find((w) => w.workflowId === workflowId);
  }

  findByRunId(env: StoreEnvironment, runId: string): TrackedWorkflow | undefined {
    return this.own(env).find((w) => w.runId === runId);
  }

  /** Non-terminal workflows whose polling has not stopped: the ones the poller follows. */
  live(env: StoreEnvironment): TrackedWorkflow[] {
    return this.own(env).filter((w) => !isTerminal(w.status) && !w.pollingStopped);
  }

  /** @returns false when it was already there. */
  addSession(env: Pick<Environment, 'name'>, sessionId: string): boolean {
    const id = sessionId.trim();
    if (!id) throw new RangeError('a session id is required');
    const e = this.bucket(env.name);
    if (e.sessions.includes(id)) return false;
    e.sessions.push(id);
    this.changed(env.name);
    return true;
  }

  /** Forgets the session and the workflows started in it (here only: nothing is cancelled at the service). */
  removeSession(env: StoreEnvironment, sessionId: string): void {
    const e = this.bucket(env.name);
    e.sessions = e.sessions.filter((s) => s !== sessionId);
    e.workflows = e.workflows.filter((w) => w.sessionId !== sessionId);
    this.changed(env.name);
  }

  /** Workflows belong to the service they were read from. When the name now resolves to another one (a restarted
   * sandbox, a setting pointing the name elsewhere), that service never knew them: they are forgotten. Sessions are
   * the user's own list and stay. A snapshot from before services were recorded adopts the first. */
  follow(env: StoreEnvironment): void {
    const e = this.bucket(env.name);
    if (e.service === env.key) return;
    const had = e.service !== undefined && e.workflows.length > 0;
    if (e.service !== undefined) e.workflows = [];
    e.service = env.key;
    if (had) this.changed(env.name);
  }

  /** Records a workflow from a start or read answer of the value's service; the session is added when it is new. */
  upsertFromEnvelope(
    env: StoreEnvironment,
    answer: WorkflowEnvelope,
    extra: { correlationId?: string; now: number },
  ): TrackedWorkflow {
    // What is kept is bounded in bytes: a large answer keeps its known fields only (boundedEnvelope.ts).
    const envelope = boundedEnvelope(answer);
    this.follow(env);
    const e = this.bucket(env.name);
    const w = envelope.workflow;
    if (!e.sessions.includes(w.sessionId)) e.sessions.push(w.sessionId);
    const existing = e.workflows.find((x) => x.workflowId === w.workflowId);
    const next: TrackedWorkflow = {
      workflowId: w.workflowId,
      runId: w.runId,
      sessionId: w.sessionId,
      correlationId: w.correlationId ?? extra.correlationId ?? existing?.correlationId ?? '',
      product: w.product,
      productName: w.productName,
      status: w.status,
      reconfirmAvailable: w.reconfirmAvailable === true,
      startedAt: existing?.startedAt ?? extra.now,
      lastPolledAt: extra.now,
      pollingStopped: undefined,
      lastError: undefined,
      lastErrorSaid: undefined,
      messages: envelope.messages,
      envelope,
    };
    if (existing) Object.assign(existing, next);
    else {
      e.workflows.push(next);
      if (e.workflows.length > MAX_WORKFLOWS_PER_ENVIRONMENT)
        e.workflows.splice(0, e.workflows.length - MAX_WORKFLOWS_PER_ENVIRONMENT);
    }
    this.changed(env.name);
    return existing ?? next;
  }

  /** Notes why polling stopped or what went wrong, keeping the last known state. */
  markWorkflow(
    env: StoreEnvironment,
    workflowId: string,
    mark: { pollingStopped?: PollingStopReason; lastError?: string; lastErrorSaid?: Said },
  ): void {
    const w = this.workflow(env, workflowId);
    if (!w) return;
    if ('pollingStopped' in mark) w.pollingStopped = mark.pollingStopped;
    if ('lastError' in mark) {
      w.lastError = mark.lastError;
      w.lastErrorSaid = mark.lastErrorSaid;
    }
    this.changed(env.name);
  }

  /** Lets polling go on again (a manual refresh restarts the schedule). */
  resumePolling(env: StoreEnvironment, workflowId: string, now: number): void {
    const w = this.workflow(env, workflowId);
    if (!w) return;
    w.pollingStopped = undefined;
    w.startedAt = now;
    this.changed(env.name);
  }

  removeWorkflow(env: StoreEnvironment, workflowId: string): void {
    const e = this.bucket(env.name);
    if (this.own(env) !== e.workflows) return;
    e.workflows = e.workflows.filter((w) => w.workflowId !== workflowId);
    this.changed(env.name);
  }

  snapshot(): StoreSnapshot {
    return Object.fromEntries(this.data);
  }

  private changed(envName: string): void {
    void Promise.resolve(this.persist(this.snapshot())).catch((err: Error) => this.emit('error-persisting', err));
    this.emit('changed', envName);
  }
}
