// `scenario()`: the deliveries a handler meets when the service delivers late, twice or out of order, signed by a
// test issuer, for the handler's own unit tests. The same planner as the sandbox's delivery faults, so a seed
// repeats exactly here as there; each delivery carries the sandbox's X-Wfs-Sandbox-Fault header too.
import {
  newSeed,
  planDeliveries,
  withDeliveryFault,
  type DeliveryFaultRequest,
  type DeliveryFaults,
  type PlannedDelivery,
} from '../core/sandbox';
import { faultMarkHeader, faultMarkText, SANDBOX_FAULT_HEADER } from '../core/webhooks';
import type { Scenario, ScenarioDelivery, ScenarioOptions, SignedDelivery } from './types';

/** One option laid over the setting; a refusal names the option as the caller wrote it. */
function lay(f: DeliveryFaults, option: string, request: DeliveryFaultRequest): DeliveryFaults {
  try {
    return withDeliveryFault(f, request);
  } catch (err) {
    throw new RangeError(`scenario: ${option} ${(err as Error).message.replace(/^\w+ /, '')}`);
  }
}

/** The options as the sandbox's delivery-fault setting (checked as the control API checks it). */
function settingOf(o: ScenarioOptions, seed: number): DeliveryFaults {
  let f: DeliveryFaults = { seed, to: 'all' };
  if (o.duplicate !== undefined && o.duplicate !== 0)
    f = lay(f, 'duplicate', { fault: 'duplicate', count: o.duplicate, freshToken: o.freshToken ?? false });
  else if (o.freshToken !== undefined) throw new RangeError('scenario: freshToken applies only with duplicate');
  if (o.reorder) f = lay(f, 'reorder', { fault: 'reorder' });
  if (o.delay !== undefined) {
    const [delayMs, maxDelayMs] = typeof o.delay === 'number' ? [o.delay, o.delay] : [o.delay.min, o.delay.max];
    f = lay(f, 'delay', { fault: 'delay', delayMs, maxDelayMs });
  }
  if (o.burst !== undefined) f = lay(f, 'burst', { fault: 'burst', count: o.burst });
  return f;
}

function idOf(event: unknown, i: number): string {
  const id = (event as { webhookId?: unknown } | null)?.webhookId;
  return typeof id === 'string' ? id : `event-${i}`;
}

/** The deliveries a handler meets when the service delivers late, twice or out of order: the sandbox's delivery
 * faults, planned by the same seeded planner, signed by `issuer`. `for await (const d of scenario({...}))` yields
 * them in arrival order; a throw names an option out of range. */
export function scenario(options: ScenarioOptions): Scenario {
  if (!options || !Array.isArray(options.events) || options.events.length === 0)
    throw new TypeError('scenario needs { events: [...] }: at least one event, in the order the service made them');
  if (!options.issuer || typeof options.issuer.signEvent !== 'function')
    throw new TypeError('scenario needs { issuer }: a test issuer from createTestIssuer()');
  const seed = options.seed ?? newSeed();
  const setting = settingOf(options, seed);
  const plan = planDeliveries(
    options.events.map((e, i) => ({ webhookId: idOf(e, i) })),
    setting,
    0,
  );
  const signAll = () => signPlan(options, plan);
  return {
    seed,
    size: plan.length,
    deliveries: signAll,
    async *[Symbol.asyncIterator]() {
      yield* await signAll();
    },
  };
}

/** Each planned delivery signed: the first of an event signs it, a copy that keeps its token reuses that one. */
async function signPlan(o: ScenarioOptions, plan: PlannedDelivery[]): Promise<ScenarioDelivery[]> {
  const first = new Map<number, SignedDelivery>();
  const out: ScenarioDelivery[] = [];
  let atMs = 0;
  for (const p of plan) {
    const event = o.events[p.event]!;
    let signed = p.freshToken ? undefined : first.get(p.event);
    signed ??= await o.issuer.signEvent(event, o.token);
    if (!first.has(p.event)) first.set(p.event, signed);
    atMs += p.delayMs;
    const header = faultMarkHeader(p.mark);
    out.push({
      body: signed.body,
      token: signed.token,
      headers: { ...signed.headers, ...(header === undefined ? {} : { [SANDBOX_FAULT_HEADER]: header }) },
      event,
      webhookId: idOf(event, p.event),
      index: p.event,
      atMs,
      together: p.together,
      mark: p.mark,
      note: faultMarkText(p.mark),
    });
  }
  return out;
}
