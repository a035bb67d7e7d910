// The sandbox's deliveries under the delivery faults in force (deliveryFaults.ts): each group of events planned
// (deliveryPlan.ts) and sent in the plan's order, each delivery after the one before it was answered (so they
// arrive in that order), a burst's copies at once. Without a setting, each event goes straight to the dispatcher.
import type { Clock, TimerHandle } from '../time/clock';
import type { WebhookSigner } from '../signing/webhookSigner';
import { appliesTo, type DeliveryFaults } from './deliveryFaults';
import { planDeliveries, type PlannedDelivery } from './deliveryPlan';
import type { DeliveryAttempt, OutgoingWebhook, WebhookDispatcher } from './webhookDispatcher';
import type { WorkflowEvent } from './sandboxWorkflows';

/** Workflow runs whose first events are held for a reorder; past it the oldest is sent as it stands. */
const MAX_HELD_RUNS = 1000;

const TERMINAL = new Set(['workflow/completed', 'workflow/failed', 'workflow/cancelled']);

export class FaultedDeliveries {
  private setting?: DeliveryFaults;
  /** Groups planned since the setting was made: each group's plan is seeded by its ordinal. */
  private ordinal = 0;
  /** Per runId, the events held until the run ends (reorder). */
  private readonly held = new Map<string, { event: WorkflowEvent; addresses: string[] }[]>();
  private readonly timers = new Set<TimerHandle>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly signer: WebhookSigner,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  get faults(): DeliveryFaults | undefined {
    return this.setting;
  }

  set(faults: DeliveryFaults | undefined): void {
    this.setting = faults;
    this.ordinal = 0;
    if (!faults?.reorder) this.releaseAll();
  }

  stop(): void {
    this.stopped = true;
    this.held.clear();
    for (const t of this.timers) this.clock.clearTimeout(t);
    this.timers.clear();
  }

  /** A test webhook: the first delivery's attempt, once answered (after its delay, if one is planned). */
  async test(hook: OutgoingWebhook): Promise<DeliveryAttempt> {
    const f = this.setting;
    if (!f || !appliesTo(f, 'test')) return this.dispatcher.deliver(hook);
    const first = await this.run([hook], f);
    return first ?? this.dispatcher.deliver(hook);
  }

  /** A workflow event to every address: held while its run's end is awaited for a reorder, else planned now. */
  workflowEvent(event: WorkflowEvent, addresses: string[]): void {
    const f = this.setting;
    if (!f || !appliesTo(f, 'workflow')) {
      for (const address of addresses) void this.dispatcher.deliver(hookOf(event, address));
      return;
    }
    const runId = typeof event.data?.runId === 'string' ? event.data.runId : undefined;
    const group = runId === undefined ? undefined : this.held.get(runId);
    if (f.reorder && runId !== undefined && !TERMINAL.has(event.topic)) {
      if (group) group.push({ event, addresses });
      else this.hold(runId, [{ event, addresses }]);
      return;
    }
    if (runId !== undefined) this.held.delete(runId);
    this.sendGroup([...(group ?? []), { event, addresses }], f);
  }

  private hold(runId: string, group: { event: WorkflowEvent; addresses: string[] }[]): void {
    this.held.set(runId, group);
    if (this.held.size <= MAX_HELD_RUNS) return;
    const [oldest] = this.held.keys();
    this.release(oldest!);
  }

  private release(runId: string): void {
    const group = this.held.get(runId);
    this.held.delete(runId);
    if (group && this.setting) this.sendGroup(group, this.setting);
  }

  private releaseAll(): void {
    for (const runId of [...this.held.keys()]) this.release(runId);
  }

  /** One plan for the group; each address gets the same sequence. */
  private sendGroup(group: { event: WorkflowEvent; addresses: string[] }[], f: DeliveryFaults): void {
    const addresses = [...new Set(group.flatMap((g) => g.addresses))];
    const plan = planDeliveries(
      group.map((g) => g.event),
      f,
      this.ordinal++,
    );
    for (const address of addresses)
      void this.runPlan(
        group.map((g) => hookOf(g.event, address)),
        plan,
        f,
      );
  }

  private async run(hooks: OutgoingWebhook[], f: DeliveryFaults): Promise<DeliveryAttempt | undefined> {
    const events = hooks.map((h) => ({ webhookId: bodyWebhookId(h) }));
    return this.runPlan(hooks, planDeliveries(events, f, this.ordinal++), f);
  }

  /** Sends the plan in order; resolves with the first delivery's attempt. */
  private async runPlan(
    hooks: OutgoingWebhook[],
    plan: PlannedDelivery[],
    f: DeliveryFaults,
  ): Promise<DeliveryAttempt | undefined> {
    const tokens = new Map<number, string>();
    let first: DeliveryAttempt | undefined;
    let together: Promise<DeliveryAttempt>[] = [];
    for (const p of plan) {
      if (!p.together) {
        const answered = await Promise.all(together);
        first ??= answered[0];
        together = [];
        if (p.delayMs > 0) await this.sleep(p.delayMs);
      }
      if (this.stopped) break;
      const hook = hooks[p.event]!;
      const token = p.freshToken ? undefined : await this.tokenOf(tokens, p.event, hook);
      together.push(this.dispatcher.deliver({ ...hook, token, faultMark: p.mark, retryFactor: f.retryStorm?.factor }));
    }
    const answered = await Promise.all(together);
    return first ?? answered[0];
  }

  /** The first token made for an event: its copies that keep the original's token send the same one. */
  private async tokenOf(tokens: Map<number, string>, event: number, hook: OutgoingWebhook): Promise<string> {
    const known = tokens.get(event);
    if (known !== undefined) return known;
    const token = await this.signer.sign(hook.body, hook.sign);
    tokens.set(event, token);
    return token;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const handle = this.clock.setTimeout(() => {
        this.timers.delete(handle);
        resolve();
      }, ms);
      this.timers.add(handle);
    });
  }
}

/** The id a receiver dedupes on: the body's webhookId (a test webhook's X-Svc-Webhook-Id header may differ), or the
 * header's when the body has none. */
function bodyWebhookId(hook: OutgoingWebhook): string {
  try {
    const id = (JSON.parse(hook.body.toString('utf8')) as { webhookId?: unknown } | null)?.webhookId;
    return typeof id === 'string' ? id : hook.webhookId;
  } catch {
    return hook.webhookId;
  }
}

function hookOf(event: WorkflowEvent, address: string): OutgoingWebhook {
  const body = Buffer.from(JSON.stringify(event), 'utf8');
  return { address, body, webhookId: event.webhookId, topic: event.topic };
}
