// "Test Public Address": one signed sandbox delivery sent to the receiver's public address, watched arriving at the
// receiver itself. A tunnel that drops requests silently is the commonest failure of a public address; this names
// the hop that failed (DNS, connect, TLS, the tunnel's reminder page, the tunnel itself, a timeout, the receiver).
import { randomUUID } from 'node:crypto';
import { httpRequest, type HttpResponse } from '../http/request';
import type { Clock } from '../time/clock';
import type { DeliveryRecord } from '../webhooks/deliveryRecord';
import { SELF_TEST_TOPIC, type Receiver } from '../webhooks/Receiver';
import type { Dispatcher } from 'undici';
import { english, isSaid, said, type Said } from '../presentation/said';
import { STEP_SAID } from '../webhooks/verificationSteps';
import { answeredWithoutArrival, hopOfTransportError, type PublicAddressHop } from './publicAddressHops';

export interface PublicAddressTestResult {
  ok: boolean;
  publicUrl: string;
  /** Whether the receiver saw the request. */
  arrived: boolean;
  status?: number;
  /** From sending to the whole answer, when there was one. */
  roundTripMs?: number;
  failedHop?: PublicAddressHop;
  /** One sentence: what happened, and where it stopped (English, as the CLI and the MCP tools show it). */
  detail: string;
  /** The same as core's Said, worded by the extension in the user's language. */
  detailSaid: Said;
  testedAt: string;
}

export interface PublicAddressTestOptions {
  /** The public webhook address (with its path). */
  publicUrl: string;
  /** The receiver behind it, watched for the probe's arrival. */
  receiver: Receiver;
  /** A bearer token for the body, from a signing issuer the receiver trusts (the sandbox). */
  sign(body: Buffer): Promise<string>;
  clock: Clock;
  timeoutMs?: number;
  /** The connection to use (tests inject name resolution; the default routes through our proxy settings). */
  dispatcher?: Dispatcher;
}

const SELF_TEST_HEADER = 'x-wfs-self-test';

/** The self-test's event: a webhook event in the spec's shape, under a topic of our own. */
function selfTestBody(id: string, testedAt: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      webhookId: id,
      topic: SELF_TEST_TOPIC,
      subTopic: `event:${SELF_TEST_TOPIC}`,
      tenantId: 'self-test',
      triggeredAt: testedAt.replace(/(\.\d{3})Z$/, '$10000Z'),
      actorId: 'wfs-self-test',
      data: {},
    }),
  );
}

export async function testPublicAddress(o: PublicAddressTestOptions): Promise<PublicAddressTestResult> {
  const testedAt = new Date(o.clock.now()).toISOString();
  const id = randomUUID();
  const body = selfTestBody(id, testedAt);
  let arrival: DeliveryRecord | undefined;
  const watch = (r: DeliveryRecord) => {
    if (r.webhookId === id || r.headers[SELF_TEST_HEADER] === id) arrival = r;
  };
  const base = { publicUrl: o.publicUrl, testedAt };
  const token = await o.sign(body);
  o.receiver.on('delivery', watch);
  const selfTestOver = o.receiver.expectSelfTest(id);
  const t0 = performance.now();
  const elapsed = () => Math.round((performance.now() - t0) * 10) / 10;
  try {
    const res = await httpRequest({
      method: 'POST',
      url: o.publicUrl,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-svc-webhook-id': id,
        'x-svc-topic': SELF_TEST_TOPIC,
        [SELF_TEST_HEADER]: id,
      },
      body,
      timeoutMs: o.timeoutMs ?? 15_000,
      maxResponseBytes: 64 * 1024,
      dispatcher: o.dispatcher,
    });
    return { ...base, ...answered(res, arrival, elapsed(), o.publicUrl) };
  } catch (err) {
    const hop = hopOfTransportError(err, o.publicUrl, !!arrival, o.timeoutMs ?? 15_000);
    return { ...base, ok: false, arrived: !!arrival, ...(hop.timedOut ? { roundTripMs: elapsed() } : {}), ...hop.hop };
  } finally {
    selfTestOver();
    o.receiver.off('delivery', watch);
  }
}

type Answered = Omit<PublicAddressTestResult, 'publicUrl' | 'testedAt'>;

/** An answer came back: from the receiver (verified and 200, or refused at a step), or from something on the way. */
function answered(res: HttpResponse, arrival: DeliveryRecord | undefined, roundTripMs: number, url: string): Answered {
  const common = { status: res.status, roundTripMs };
  if (!arrival) return { ...common, ok: false, arrived: false, ...answeredWithoutArrival(res) };
  if (res.status === 200 && arrival.verified)
    return {
      ...common,
      ok: true,
      arrived: true,
      ...detailOf(
        said(
          'a signed delivery went through {0} and back in {1} ms, verified and answered 200',
          new URL(url).host,
          roundTripMs,
        ),
      ),
    };
  const refused = arrival.checks.find((c) => !c.ok && c.step < 7);
  return {
    ...common,
    ok: false,
    arrived: true,
    failedHop: 'receiver',
    ...detailOf(
      refused
        ? said(
            'the delivery reached the receiver, which answered {0}: step {1} ({2}) {3}',
            res.status,
            refused.step,
            STEP_SAID[refused.step - 1] ?? refused.name,
            isSaid(refused.said) ? refused.said : refused.detail,
          )
        : said('the delivery reached the receiver, which answered {0}', res.status),
    ),
  };
}

/** The detail in English and as core's Said. */
function detailOf(detailSaid: Said): { detail: string; detailSaid: Said } {
  return { detail: english(detailSaid), detailSaid };
}
