// `startReceiver()`: the receiver `wfs listen` runs (core's ReceiverSession: the seven steps, dedupe, forwarding), in
// the test's own process on loopback, trusting a sandbox or a test issuer, with its deliveries handed to the test as
// data: an async iterator, and next() that waits for one.
import { ReceiverSession } from '../core/receiver';
import { SystemClock } from '../core/time';
import { type DeliveryRecord, Forwarder, forwardEverything, forwardsOf } from '../core/webhooks';
import type { WebhookEvent } from '../core/schemas';
import { DeliveryLog } from './deliveryLog';
import { onceOnly } from './onceOnly';
import { receiverTrust } from './receiverTrust';
import type { DeliveryAnswer, ReceivedDelivery, StartReceiverOptions, TestReceiver } from './types';

const DEFAULT_MEMORY_BYTES = 16 * 1024 * 1024;
const MIN_MEMORY_BYTES = 64 * 1024;
const MAX_NOTICES = 10;

/** Starts a receiver on 127.0.0.1 that verifies every delivery, forwards the verified ones to `forwardTo`, and
 * records what the app answered. With a sandbox as `trust`, it is registered there before this resolves. */
export async function startReceiver(options: StartReceiverOptions): Promise<TestReceiver> {
  const { port = 0, path = '/webhooks', memoryBytes = DEFAULT_MEMORY_BYTES } = options ?? {};
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`startReceiver: port ${String(port)} is not a port: give 0 (a free one) to 65535`);
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new TypeError('startReceiver: path must start with /, e.g. "/webhooks"');
  if (!Number.isSafeInteger(memoryBytes) || memoryBytes < MIN_MEMORY_BYTES)
    throw new RangeError(`startReceiver: memoryBytes is a whole number of bytes, ${MIN_MEMORY_BYTES} or more`);
  const forward = forwarderOf(options);
  const clock = options.clock ?? new SystemClock();
  const trust = await receiverTrust(options.trust);
  // Half the bytes for the session's history (records and bodies), half for what the test reads.
  const session = new ReceiverSession({
    clock,
    issuers: trust.issuers,
    history: { memoryBudgetBytes: Math.floor(memoryBytes / 2), holderName: 'the test kit' },
  });
  const refusedToRegister: string[] = [];
  session.on('endpoint-warning', (m) => refusedToRegister.push(m));
  let url: string;
  try {
    await session.loadHistory();
    url = (await session.start({ host: '127.0.0.1', port, path, forward, endpoints: trust.endpoints })).url;
    // `wfs listen` goes on with a warning; a test whose workflow events would never come stops here instead.
    if (refusedToRegister.length) throw new Error(refusedToRegister[0]);
  } catch (err) {
    await session.close();
    await trust.release();
    throw new Error(`startReceiver: ${(err as Error).message}`);
  }
  // What the sandbox watch said (gone, back, refusing): the latest few, for a wait that times out.
  const notices: string[] = [];
  const unwatch = trust.watch?.(url, clock, (m) => {
    notices.push(m);
    if (notices.length > MAX_NOTICES) notices.shift();
  });
  const log = new DeliveryLog({ clock, maxBytes: Math.floor(memoryBytes / 2), url, notices });
  // In arrival order: a verified body is read back from the history (memory) before the next record is handed on.
  let handing = Promise.resolve();
  const hand = (r: DeliveryRecord) => {
    handing = handing.then(async () => log.add(received(r, await eventOf(session, r))));
  };
  session.on('delivery', hand);
  session.on('failure', hand);
  const close = onceOnly(async () => {
    unwatch?.();
    await session.close();
    await handing;
    log.close();
    await trust.release();
  });
  return {
    ready: { url, publicUrl: null, issuers: trust.issuers.map((i) => i.issuer) },
    url,
    port: Number(new URL(url).port),
    deliveries: { [Symbol.asyncIterator]: () => log.iterate() },
    next: (o) => log.next(o),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function forwarderOf(options: StartReceiverOptions): Forwarder | undefined {
  const { forwardTo, passThrough } = options;
  if (forwardTo === undefined) {
    if (passThrough) throw new TypeError("startReceiver: passThrough answers with the app's status: give forwardTo");
    return undefined;
  }
  if (typeof forwardTo !== 'string') throw new TypeError("startReceiver: forwardTo is the app's http(s) URL");
  try {
    return new Forwarder({ rules: [forwardEverything(forwardTo, 'forwardTo')], passThrough: passThrough === true });
  } catch (err) {
    throw new TypeError(`startReceiver: ${(err as Error).message}`);
  }
}

/** A verified body as JSON; undefined for a refused one (never read) or one that is not JSON. */
async function eventOf(session: ReceiverSession, r: DeliveryRecord): Promise<WebhookEvent | undefined> {
  if (!r.verified) return undefined;
  const body = await session.history.body(r.id);
  try {
    return body ? (JSON.parse(body.toString('utf8')) as WebhookEvent) : undefined;
  } catch {
    return undefined;
  }
}

function received(r: DeliveryRecord, event: WebhookEvent | undefined): ReceivedDelivery {
  const failed = r.verified ? undefined : r.checks.find((c) => !c.ok);
  const refusal = failed ? `step ${failed.step} (${failed.name}): ${failed.detail}` : undefined;
  const app = forwardsOf(r)[0];
  return {
    id: r.id,
    receivedAt: r.receivedAt,
    verified: r.verified,
    duplicate: r.duplicate,
    status: r.status,
    ...(r.topic !== undefined ? { topic: r.topic } : {}),
    ...(r.webhookId !== undefined ? { webhookId: r.webhookId } : {}),
    ...(r.subTopic !== undefined ? { subTopic: r.subTopic } : {}),
    ...(r.runId !== undefined ? { runId: r.runId } : {}),
    checks: r.checks.map(({ step, name, ok, detail }) => ({ step, name, ok, detail })),
    ...(refusal ? { refusal } : {}),
    ...(event !== undefined ? { event } : {}),
    ...(app ? { answer: appAnswer(app) } : {}),
    ...(r.note ? { note: r.note } : {}),
    ...(r.sandboxFault ? { sandboxFault: r.sandboxFault } : {}),
  };
}

/** The app's answer in the shape deliver() gives: its body as text (a binary one as base64, or why it is withheld). */
function appAnswer(f: ReturnType<typeof forwardsOf>[number]): DeliveryAnswer {
  return {
    ...(f.status !== undefined ? { status: f.status } : {}),
    ...(f.headers ? { headers: f.headers } : {}),
    body: f.body ?? f.bodyBase64 ?? f.bodyWithheld ?? '',
    bodySize: f.bodySize ?? 0,
    latencyMs: f.latencyMs,
    ...(f.redirect !== undefined ? { redirect: f.redirect } : {}),
    ...(f.error !== undefined ? { error: f.error } : {}),
  };
}
