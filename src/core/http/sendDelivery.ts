// The sender of a signed delivery to a receiver or an app: the exact bytes, one timeout over the whole exchange,
// redirects never followed, and the answer recorded (status, headers, the first 4 KiB of the body with its full
// size, latency). It serves the receiver's forwarding (forwardFanOut.ts), fixtures sent by `wfs send` and by the
// extension's Send Fixture and Edit and Resend (sendFixture.ts), and the test kit's deliver(). Consent for a target
// off this machine is the caller's to decide before calling.
import type { Dispatcher } from 'undici';
import { undici } from './undiciOnDemand';
import type { ForwardResult } from '../webhooks/deliveryRecord';
import { redactUrl } from './request';
import { english, said, type Said } from '../presentation/said';
import { targetDispatcher, type TargetTls } from './targetTls';
import { namedTlsFailure, type CaRemedy, type TlsProblem } from './tlsFailure';

/** Bytes of the answer's body kept; the rest is counted, not kept. */
export const ANSWER_BODY_KEPT = 4 * 1024;

export interface DeliveryRequest {
  url: string;
  body: Buffer | Uint8Array | string;
  /** Sent as given (Authorization, Content-Type, X-Svc-*); Content-Type defaults to application/json. */
  headers?: Record<string, string>;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  /** Milliseconds, for latencyMs (default performance.now). */
  now?: () => number;
  /** How the user gives this target's root, for the words of a TLS failure (default: the environment). */
  caRemedy?: CaRemedy;
  /** The `ca` file the dispatcher trusts for this target, named when it does not cover the certificate. */
  caFile?: string;
  /** The target's own TLS (its `ca` or `insecure`), for a request without a dispatcher: a connection of its own is
   * made for this one delivery, and closed after it. */
  tls?: TargetTls;
}

export interface DeliveryAnswer extends ForwardResult {
  /** Response headers, names in lower case. */
  headers?: Record<string, string>;
  /** The body's first ANSWER_BODY_KEPT bytes. */
  body?: Buffer;
  /** The body's full size in bytes (as far as it was read: see `error` when it was cut). */
  bodySize?: number;
  /** Whether more than the kept bytes arrived. */
  truncated?: boolean;
  /** A 3xx answer's Location: never followed. */
  redirect?: string;
  /** Why no full answer: the request timed out, or could not connect. */
  failure?: 'timeout' | 'network' | 'aborted';
  /** With failure 'network': what was wrong with the app's TLS (its certificate), named in `error` with the fix. */
  tls?: TlsProblem;
}

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

export async function sendDelivery(req: DeliveryRequest): Promise<DeliveryAnswer> {
  const own = req.dispatcher === undefined ? await targetDispatcher(req.tls) : undefined;
  if (!own) return sendOnce(req);
  try {
    return await sendOnce({ ...req, dispatcher: own, caFile: req.caFile ?? req.tls?.caFile });
  } finally {
    await own.destroy().catch(() => undefined);
  }
}

async function sendOnce(req: DeliveryRequest): Promise<DeliveryAnswer> {
  const { request } = await undici();
  const now = req.now ?? (() => performance.now());
  const timeoutMs = req.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
  headers['content-type'] ??= 'application/json';
  const target = req.url;
  const started = now();
  const failed = (err: unknown, answer: Partial<DeliveryAnswer> = {}): DeliveryAnswer => {
    const failure = timeout.aborted ? 'timeout' : req.signal?.aborted ? 'aborted' : 'network';
    const tls = failure === 'network' ? namedTlsFailure(err, target, tlsWords(req)) : undefined;
    const errorSaid =
      tls?.said ?? failureSaid(failure, err, { target, timeoutMs, answered: answer.status !== undefined });
    return {
      target,
      ...answer,
      latencyMs: Math.round(now() - started),
      error: english(errorSaid),
      errorSaid,
      failure,
      ...(tls ? { tls: tls.problem } : {}),
    };
  };
  let res: Dispatcher.ResponseData;
  try {
    res = await request(target, {
      method: 'POST',
      headers,
      body: Buffer.isBuffer(req.body) || typeof req.body === 'string' ? req.body : Buffer.from(req.body),
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher: req.dispatcher,
    });
  } catch (err) {
    return failed(err);
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let size = 0;
  const answer = (): Partial<DeliveryAnswer> => ({
    status: res.statusCode,
    headers: flat,
    body: Buffer.concat(kept, keptBytes),
    bodySize: size,
    truncated: size > keptBytes,
    ...(res.statusCode >= 300 && res.statusCode < 400 && flat.location !== undefined
      ? { redirect: flat.location }
      : {}),
  });
  try {
    for await (const chunk of res.body) {
      const c = chunk as Buffer;
      size += c.length;
      if (keptBytes < ANSWER_BODY_KEPT) {
        const part = c.subarray(0, ANSWER_BODY_KEPT - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
    }
  } catch (err) {
    res.body.destroy();
    return failed(err, answer());
  }
  return { target, ...answer(), latencyMs: Math.round(now() - started) };
}

function tlsWords(req: DeliveryRequest): { remedy: CaRemedy; caFile?: string } {
  return { remedy: req.caRemedy ?? 'environment', ...(req.caFile !== undefined ? { caFile: req.caFile } : {}) };
}

/** A failure other than TLS in words: the target without its user info or query. */
function failureSaid(
  failure: 'timeout' | 'aborted' | 'network',
  err: unknown,
  o: { target: string; timeoutMs: number; answered: boolean },
): Said {
  if (failure === 'timeout')
    return o.answered
      ? said("the answer's body from {0} did not end within {1} ms", redactUrl(o.target), o.timeoutMs)
      : said('no answer from {0} within {1} ms', redactUrl(o.target), o.timeoutMs);
  if (failure === 'aborted') return said('the delivery to {0} was cancelled', redactUrl(o.target));
  const code = (err as { code?: string })?.code;
  return said('cannot reach {0}: {1}', redactUrl(o.target), code ?? (err as Error)?.message ?? String(err));
}
