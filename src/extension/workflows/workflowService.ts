// Starting, reading and reconfirming workflows per environment, remembering them (globalState), and keeping
// non-terminal ones live through one WorkflowPoller per environment value, paused while the explorer is hidden.
import {
  type BilledStartOutcome,
  errorMark,
  isTerminal,
  type PollOutcome,
  startBilledWorkflow,
  type StartRequest,
  type TrackedWorkflow,
  WorkflowClient,
  type WorkflowEnvelope,
  WorkflowPoller,
  WorkflowStore,
} from '../../core/workflows';
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { serviceOrigin, type Environment } from '../../core/environments';
import type { Clock } from '../../core/time';
import type { AuthService } from '../auth/authService';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { EnvironmentFollower } from '../environments/environmentSync';
import type { ExtensionLog } from '../log/extensionLog';
import { setting } from '../settings';
import { errorInUserWords } from '../coreWords';
import { workflowStatusWords } from '../explorer/workflowPresentation';

const STORE_KEY = 'wfs.workflows';

export class WorkflowService extends Disposable implements EnvironmentFollower {
  readonly store: WorkflowStore;
  /** Keyed on the value: a restarted sandbox or a re-pointed environment gets a poller of its own. */
  private readonly pollers = new Map<Environment, WorkflowPoller>();
  private visible = false;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    state: vscode.Memento,
    private readonly environments: EnvironmentRegistry,
    private readonly auth: AuthService,
    private readonly output: ExtensionLog,
    private readonly clock: Clock,
  ) {
    super();
    this.store = new WorkflowStore(state.get(STORE_KEY), (s) => Promise.resolve(state.update(STORE_KEY, s)));
    this.store.on('changed', () => this.changed.fire());
    this.store.on('error-persisting', (e: Error) =>
      this.output.warn(vscode.l10n.t("Could not save the explorer's state: {0} (kept in memory)", e.message)),
    );
    this.registerAll(
      auth.onDidChange((envName) => void this.resumeLive(envName)),
      // Restricted Mode held a real environment's live workflows (reading them uses its sign-in): trust resumes them.
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        for (const envName of this.environments.names()) void this.resumeLive(envName);
      }),
    );
  }

  /** Stops the pollers of values that no longer resolve; the store forgets workflows read from a service its
   * environment no longer points at (a restarted sandbox never knew them). */
  retain(current: readonly Environment[]): void {
    const keep = new Set(current);
    for (const [env, p] of [...this.pollers]) {
      if (keep.has(env)) continue;
      p.dispose();
      this.pollers.delete(env);
    }
    for (const env of current) this.store.follow(env);
  }

  /** The explorer became visible or hidden: polling runs only while someone can see it. */
  setVisible(visible: boolean): void {
    this.visible = visible;
    for (const p of this.pollers.values()) visible ? p.resume() : p.pause();
    if (visible) for (const envName of this.environments.names()) void this.resumeLive(envName);
  }

  /** A client for this very value, signed in: an EnvironmentChanged when it no longer resolves, or a
   * SignInRequired. Nothing is looked up by name again, so a call goes where its caller's value points. */
  private async client(env: Environment): Promise<WorkflowClient> {
    const manager = await this.auth.require(env);
    return new WorkflowClient({
      baseUrl: env.baseUrl,
      userAlias: manager.current?.userAlias,
      tokens: manager,
      gate: manager.gate,
      clock: this.clock,
      findWorkflowsUrl: env.findWorkflowsUrl,
      onBackoff: (n, ms) =>
        this.output.warn(vscode.l10n.t('{0}: throttled (429); retry {1} in {2} ms', env.name, n, ms)),
    });
  }

  private poller(env: Environment): WorkflowPoller {
    let p = this.pollers.get(env);
    if (!p) {
      const deadlineMs = setting('pollingDeadlineMinutes') * 60_000;
      // Reads go to this value's service only: once the environment points elsewhere, retain() disposes the poller.
      p = new WorkflowPoller({
        clock: this.clock,
        deadlineMs,
        read: async (id) => (await this.client(env)).read(id),
        onOutcome: (id, o) => this.onPoll(env, id, o),
      });
      if (!this.visible) p.pause();
      this.pollers.set(env, p);
    }
    return p;
  }

  /** Follows every remembered non-terminal workflow of a signed-in environment (by name: the value it resolves to
   * now, as the sign-in that changed belongs to it). */
  private async resumeLive(envName: string): Promise<void> {
    const env = this.environments.get(envName);
    if (!env) return;
    this.store.follow(env);
    if (!env.builtIn && !vscode.workspace.isTrusted) return;
    const live = this.store.live(env);
    if (live.length === 0) return;
    const tm = await this.auth.manager(env);
    if (!tm || tm.state === 'signed-out' || tm.state === 'expired' || !this.environments.isCurrent(env)) return;
    for (const w of live) this.poller(env).follow(w.workflowId, w.startedAt);
  }

  private onPoll(env: Environment, id: string, o: PollOutcome): void {
    if (o.kind === 'read') {
      const before = this.store.workflow(env, id)?.status;
      this.store.upsertFromEnvelope(env, o.envelope, { now: this.clock.now() });
      if (before !== o.envelope.workflow.status)
        this.output.info(
          vscode.l10n.t('{0}: workflow {1} is {2}', env.name, id, workflowStatusWords(o.envelope.workflow.status)),
        );
    } else if (o.kind === 'transient-error') {
      this.output.warn(
        vscode.l10n.t(
          '{0}: reading workflow {1} failed ({2}); polling goes on',
          env.name,
          id,
          errorInUserWords(o.error),
        ),
      );
      this.store.markWorkflow(env, id, errorMark(o.error));
    } else if (o.reason === 'deadline') this.store.markWorkflow(env, id, { pollingStopped: 'deadline' });
    else if (o.reason === 'error') {
      this.output.warn(
        vscode.l10n.t(
          '{0}: reading workflow {1} failed ({2}); polling stopped',
          env.name,
          id,
          o.error ? errorInUserWords(o.error) : '',
        ),
      );
      this.store.markWorkflow(env, id, { pollingStopped: 'error', ...(o.error ? errorMark(o.error) : {}) });
    }
  }

  /** Starts a billed workflow at this very value's service: the one the user confirmed. `stop` (the user's Cancel)
   * ends the wait at once; the outcome says whether the start may have reached the service all the same. */
  async start(
    env: Environment,
    req: StartRequest & { correlationId: string },
    stop?: AbortSignal,
  ): Promise<BilledStartOutcome<TrackedWorkflow>> {
    const client = await this.client(env);
    this.output.info(
      vscode.l10n.t(
        '{0}: start workflow {1}/{2} in session {3} at {4} (correlationId {5})',
        env.name,
        req.product.service,
        req.product.model,
        req.sessionId,
        serviceOrigin(env),
        req.correlationId,
      ),
    );
    return startBilledWorkflow(
      async (r, options) => {
        const result = await client.start(r, options);
        this.output.info(
          vscode.l10n.t(
            '{0}: started workflow {1} (runId {2}, correlationId {3}): {4}',
            env.name,
            result.workflow.workflowId,
            result.workflow.runId,
            result.correlationId,
            result.workflow.status,
          ),
        );
        const w = this.store.upsertFromEnvelope(env, result, {
          correlationId: result.correlationId,
          now: this.clock.now(),
        });
        this.poller(env).follow(w.workflowId, w.startedAt);
        return w;
      },
      req,
      stop,
    );
  }

  /** Find Workflows by correlationId: what the service holds is added to the explorer under its session, and
   * followed while it runs. */
  async find(env: Environment, correlationId: string): Promise<TrackedWorkflow[]> {
    const client = await this.client(env);
    this.output.info(vscode.l10n.t('{0}: Find Workflows by correlationId {1}', env.name, correlationId));
    const found = await client.find(correlationId);
    this.output.info(
      vscode.l10n.t('{0}: Find Workflows found {1} for correlationId {2}', env.name, found.length, correlationId),
    );
    return found.map((workflow) => {
      const w = this.store.upsertFromEnvelope(env, { workflow }, { correlationId, now: this.clock.now() });
      if (!isTerminal(w.status)) this.poller(env).follow(w.workflowId, w.startedAt);
      return w;
    });
  }

  async refresh(env: Environment, workflowId: string): Promise<TrackedWorkflow> {
    const envelope = await this.read(env, workflowId);
    const w = this.store.workflow(env, workflowId)!;
    if (w.pollingStopped || !this.poller(env).followedIds.includes(workflowId)) {
      this.store.resumePolling(env, workflowId, this.clock.now());
      void this.resumeLive(env.name);
    }
    return { ...w, envelope };
  }

  private async read(env: Environment, workflowId: string): Promise<WorkflowEnvelope> {
    try {
      const envelope = await (await this.client(env)).read(workflowId);
      this.store.upsertFromEnvelope(env, envelope, { now: this.clock.now() });
      return envelope;
    } catch (err) {
      this.store.markWorkflow(env, workflowId, errorMark(err));
      throw err;
    }
  }

  async refreshAll(env: Environment): Promise<{ read: number; failed: number }> {
    let read = 0;
    let failed = 0;
    for (const w of this.store.workflows(env)) {
      try {
        await this.refresh(env, w.workflowId);
        read++;
      } catch {
        failed++;
      }
    }
    return { read, failed };
  }

  async reconfirm(env: Environment, workflowId: string): Promise<TrackedWorkflow> {
    const w = this.store.workflow(env, workflowId);
    const client = await this.client(env);
    this.output.info(vscode.l10n.t('{0}: reconfirm workflow {1}', env.name, workflowId));
    // The link, when it is on the environment's own origin; otherwise the same URL the spec gives it
    // ({base_url}/…/workflows/{workflowId}) on that origin. Behind a gateway the service's links may name an
    // origin of its own, where the token must not go, and the reconfirm would fail as a foreign link.
    const envelope = await client.reconfirm(client.ownLink(w?.envelope?.links?.reconfirm?.href) ?? workflowId);
    this.output.info(
      vscode.l10n.t(
        '{0}: reconfirmed workflow {1}: {2}',
        env.name,
        workflowId,
        workflowStatusWords(envelope.workflow.status),
      ),
    );
    const updated = this.store.upsertFromEnvelope(env, envelope, { now: this.clock.now() });
    this.poller(env).follow(updated.workflowId, this.clock.now());
    return updated;
  }

  /** A verified webhook named this runId: read that workflow now rather than at its next scheduled check. */
  refreshByRunId(runId: string): void {
    for (const [env, p] of this.pollers) {
      const w = this.store.findByRunId(env, runId);
      if (w) p.refreshSoon(w.workflowId);
    }
  }

  remove(env: Environment, workflowId: string): void {
    this.pollers.get(env)?.unfollow(workflowId);
    this.store.removeWorkflow(env, workflowId);
  }

  removeSession(env: Environment, sessionId: string): void {
    for (const w of this.store.workflows(env, sessionId)) this.pollers.get(env)?.unfollow(w.workflowId);
    this.store.removeSession(env, sessionId);
  }

  /** Stops every poller (deactivation); the store keeps what is live, to resume on the next activation. */
  stopPolling(): void {
    for (const p of this.pollers.values()) p.dispose();
    this.pollers.clear();
  }

  override dispose(): void {
    this.stopPolling();
    super.dispose();
  }
}
