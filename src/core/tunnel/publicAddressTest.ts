// "Test Public Address": one signed sandbox delivery sent to the receiver's public address, watched arriving at the
// receiver itself. A tunnel that drops requests silently is the commonest failure of a public address; this names
// the hop that failed (DNS, connect, TLS, the tunnel's reminder page, the tunnel itself, a timeout, the receiver).
import { randomUUID } from 'node:crypto';
import { httpRequest, TransportError } from '../http/request';
import type { Clock } from '../time/clock';
import type { DeliveryRecord } from '../webhooks/deliveryRecord';
import { SELF_TEST_TOPIC, type Receiver } from '../webhooks/Receiver';
import type { Dispatcher } from 'undici';

type PublicAddressHop = 'dns' | 'connect' | 'tls' | 'reminder-page' | 'tunnel' | 'timeout' | 'receiver';

export interface PublicAddressTestResult {
  ok: boolean;
  publicUrl: string;
  /** Whether the receiver saw the request. */
  arrived: boolean;
  status?: number;
  /** From sending to the whole answer, when there was one. */
  roundTripMs?: number;
  failedHop?: PublicAddressHop;
  /** One sentence: what happened, and where it stopped. */
  detail: string;
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
const DNS_CODES = ['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME'];
const CONNECT_CODES = [
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'EADDRNOTAVAIL',
];

export async function testPublicAddress(o: PublicAddressTestOptions): Promise<PublicAddressTestResult> {
  const testedAt = new Date(o.clock.now()).toISOString();
  const id = randomUUID();
  const body = Buffer.from(
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
  let arrival: DeliveryRecord | undefined;
  const watch = (r: DeliveryRecord) => {
    if (r.webhookId === id || r.headers[SELF_TEST_HEADER] === id) arrival = r;
  };
  const base = { publicUrl: o.publicUrl, testedAt };
  const token = await o.sign(body);
  o.receiver.on('delivery', watch);
  const selfTestOver = o.receiver.expectSelfTest(id);
  const t0 = performance.now();
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
    const roundTripMs = Math.round((performance.now() - t0) * 10) / 10;
    const text = res.body.toString('utf8');
    if (!arrival) {
      if (res.contentType === 'text/html' && /localtunnel|reminder|tunnel password/i.test(text))
        return {
          ...base,
          ok: false,
          arrived: false,
          status: res.status,
          roundTripMs,
          failedHop: 'reminder-page',
          detail: `the tunnel answered ${res.status} with its reminder page instead of forwarding: the service would get that page, not your receiver`,
        };
      return {
        ...base,
        ok: false,
        arrived: false,
        status: res.status,
        roundTripMs,
        failedHop: 'tunnel',
        detail: `something on the way answered ${res.status}${res.headers.server ? ` (server: ${res.headers.server.slice(0, 60)})` : ''}, but the request never reached the receiver: the tunnel or proxy does not forward to it`,
      };
    }
    if (res.status === 200 && arrival.verified)
      return {
        ...base,
        ok: true,
        arrived: true,
        status: 200,
        roundTripMs,
        detail: `a signed delivery went through ${new URL(o.publicUrl).host} and back in ${roundTripMs} ms, verified and answered 200`,
      };
    const refused = arrival.checks.find((c) => !c.ok && c.step < 7);
    return {
      ...base,
      ok: false,
      arrived: true,
      status: res.status,
      roundTripMs,
      failedHop: 'receiver',
      detail: `the delivery reached the receiver, which answered ${res.status}${refused ? `: step ${refused.step} (${refused.name}) ${refused.detail}` : ''}`,
    };
  } catch (err) {
    const roundTripMs = Math.round((performance.now() - t0) * 10) / 10;
    const e = err as TransportError;
    const host = new URL(o.publicUrl).hostname;
    if (e instanceof TransportError && e.reason === 'timeout')
      return {
        ...base,
        ok: false,
        arrived: !!arrival,
        roundTripMs,
        failedHop: 'timeout',
        detail: arrival
          ? `the delivery reached the receiver, but its answer did not come back through the tunnel within ${o.timeoutMs ?? 15_000} ms`
          : `no answer within ${o.timeoutMs ?? 15_000} ms, and nothing reached the receiver: the tunnel drops requests silently`,
      };
    const code = e instanceof TransportError ? e.code : undefined;
    if (code && DNS_CODES.includes(code))
      return {
        ...base,
        ok: false,
        arrived: false,
        failedHop: 'dns',
        detail: `the name ${host} does not resolve (${code})`,
      };
    if (code && (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) || code === 'ERR_TLS_CERT_ALTNAME_INVALID'))
      return {
        ...base,
        ok: false,
        arrived: !!arrival,
        failedHop: 'tls',
        detail: `the TLS handshake with ${host} failed (${code})`,
      };
    if (code && CONNECT_CODES.includes(code))
      return {
        ...base,
        ok: false,
        arrived: !!arrival,
        failedHop: arrival ? 'tunnel' : 'connect',
        detail: arrival
          ? `the delivery reached the receiver, but the tunnel closed the connection before its answer came back (${code})`
          : `no connection to ${new URL(o.publicUrl).host} (${code})`,
      };
    return {
      ...base,
      ok: false,
      arrived: !!arrival,
      failedHop: 'connect',
      detail: `the request failed: ${(err as Error).message}`,
    };
  } finally {
    selfTestOver();
    o.receiver.off('delivery', watch);
  }
}
