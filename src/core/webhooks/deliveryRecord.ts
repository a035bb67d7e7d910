// What the history keeps of one request: its record (the body's bytes are kept beside it, see DeliveryHistory), as the
// receiver builds it from the request, with the headers as recorded. The raw token is never stored: only its scheme
// and length, and its decoded header and claims.
import type { IncomingMessage } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import type { Said } from '../presentation/said';
import { dedupeKey, tokenDedupeKey } from './DedupeSet';
import { claimsSignedHere } from './signedHereClaim';
import type { VerificationCheck } from './Verifier';
import { parseFaultMark, SANDBOX_FAULT_HEADER, type SandboxFaultMark } from './sandboxFaultMark';

export { forwardFailed, forwardsOf, type ForwardAnswerRecord, type ForwardResult } from './forwardAnswer';
import type { ForwardAnswerRecord, ForwardResult } from './forwardAnswer';

/** What is known of a request body; its bytes are had through DeliveryHistory.body(). */
interface BodyInfo {
  /** Bytes received in all. */
  size: number;
  /** SHA-256 (hex) of all bytes received. */
  sha256: string;
  /** Bytes kept: all of them, or a prefix for a refused request. */
  kept: number;
  /** Whether the kept bytes are valid UTF-8. */
  utf8: boolean;
}

export interface DeliveryRecord {
  id: string;
  receivedAt: string;
  method: string;
  path: string;
  /** Request headers; Authorization reduced to its scheme and length. */
  headers: Record<string, string>;
  jwt?: { header?: ProtectedHeaderParameters; claims?: JWTPayload };
  body: BodyInfo;
  /** Frozen and shared between records when every step passed: replace, never change in place. */
  checks: readonly VerificationCheck[];
  verified: boolean;
  status: number;
  durationMs: number;
  duplicate: boolean;
  /** From a verified event's signed body only (a refused body is never read). */
  webhookId?: string;
  topic?: string;
  subTopic?: string;
  /** The event's triggeredAt exactly as sent (7 fractional digits). */
  triggeredAt?: string;
  runId?: string;
  /** What the X-Svc-* headers said where the signed body says nothing (a test webhook's testData has no ids): outside
   * the signature, so shown marked unsigned, and never deciding dedupe, forwarding or routing. */
  unsigned?: UnsignedFields;
  /** The dedupe key of a verified body without a signed webhookId: its token's (see tokenDedupeKey). */
  dedupeKey?: string;
  /** Written before forward rules (one target); read through forwardsOf(). */
  forward?: ForwardResult;
  /** Each target's answer, in rule order; absent when no rule took the delivery. */
  forwards?: ForwardAnswerRecord[];
  /** Something the receiver could not do with this delivery, e.g. parse a body nested too deeply. */
  note?: string;
  /** The note, for a face that words it in the user's language (absent in older records). */
  noteSaid?: Said;
  /** The delivery this one was made from by Edit and Resend (its id), as its X-Wfs-Derived-From header said: a
   * verified delivery's only, and a link for the user, never a decision (the header is outside the signature). */
  derivedFrom?: string;
  /** What the sandbox said it did to this delivery (a duplicate, a reordering, a delay…), from its
   * X-Wfs-Sandbox-Fault header: a verified delivery's only, outside the signature, so shown as the sandbox's
   * unverified note and never deciding anything. */
  sandboxFault?: SandboxFaultMark;
  /** Verified with a token this toolkit signed for this one delivery (Edit and Resend, a fixture sent to the
   * receiver, Replay, the audit): signed with the sandbox's key here, not by the service. */
  signedHere?: true;
}

interface UnsignedFields {
  webhookId?: string;
  topic?: string;
  subTopic?: string;
  triggeredAt?: string;
}

/** The key a verified delivery is deduplicated on: its signed webhookId, or its token's when the body has none. */
export function deliveryDedupeKey(r: DeliveryRecord): string | undefined {
  return r.dedupeKey ?? (r.webhookId === undefined ? undefined : dedupeKey(r.webhookId));
}

/** A verified delivery answered 2xx: the service will not send it again, and a copy of it is a duplicate. Its
 * dedupe key, or undefined when it was not acknowledged. */
export function acknowledgedKey(r: DeliveryRecord): string | undefined {
  // One signed on request is not the service's: it never enters the duplicate set (signedHereClaim.ts).
  if (!r.verified || r.status < 200 || r.status >= 300 || claimsSignedHere(r.jwt?.claims)) return undefined;
  return deliveryDedupeKey(r);
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out = { ...headers };
  for (const k in out) {
    // Only the request's own: for...in also walks what anything in the host added to Object.prototype.
    if (!Object.hasOwn(out, k)) continue;
    const v = out[k];
    if (v === undefined) {
      delete out[k];
      continue;
    }
    const text = typeof v === 'string' ? v : v.join(', ');
    out[k] = /^(proxy-)?authorization$/i.test(k) ? redactedCredential(text) : text;
  }
  return out as Record<string, string>;
}

/** A credential as its scheme (at most 20 characters) and its length: enough to tell tokens apart, nothing of them. */
function redactedCredential(value: string): string {
  const space = value.indexOf(' ');
  const scheme = (space < 0 ? value : value.slice(0, space)).slice(0, 20);
  return `${scheme} <redacted, ${value.length} characters>`;
}

/**
 * Ids of the records a receiver makes: unique within its history and across restarts. A random prefix (72 bits) for
 * each source, then a counter: a restarted receiver, or a second one on the same history, never repeats an id the
 * history holds. Nothing about an id is secret.
 */
export class DeliveryIds {
  private readonly prefix = randomBytes(9).toString('base64url');
  private issued = 0;

  next(): string {
    return `${this.prefix}-${(++this.issued).toString(36)}`;
  }
}

const EMPTY_BODY: BodyInfo = Object.freeze({
  size: 0,
  sha256: createHash('sha256').digest('hex'),
  kept: 0,
  utf8: true,
});

/** The record of a request as it arrives: what its first line and headers say; the rest is filled in as it is
 * handled. */
export function newRecord(req: IncomingMessage, now: number, id: string): DeliveryRecord {
  return {
    id,
    receivedAt: new Date(now).toISOString(),
    method: req.method ?? '',
    path: pathOf(req.url ?? '/'),
    headers: redactHeaders(req.headers),
    body: EMPTY_BODY,
    checks: [],
    verified: false,
    status: 0,
    durationMs: 0,
    duplicate: false,
  };
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** What the record shows of a verified event. Only the signed body decides: its ids and topic are the event's.
 * Where the body has none (a test webhook's testData), the X-Svc-* headers are kept as unsigned, and the delivery
 * is deduplicated on its token, which an attacker cannot relabel (tokenDedupeKey). */
export function describeEvent(record: DeliveryRecord, body: unknown, req: IncomingMessage, signature: Buffer): void {
  const event = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  // Each field set only when the body signs it: an absent field stays absent in the history line.
  let unsigned: UnsignedFields | undefined;
  const webhookId = event.webhookId;
  if (typeof webhookId === 'string') record.webhookId = webhookId;
  else unsigned = unsignedHeader(unsigned, 'webhookId', req, 'x-svc-webhook-id');
  const topic = event.topic;
  if (typeof topic === 'string') record.topic = topic;
  else unsigned = unsignedHeader(unsigned, 'topic', req, 'x-svc-topic');
  const subTopic = event.subTopic;
  if (typeof subTopic === 'string') record.subTopic = subTopic;
  else unsigned = unsignedHeader(unsigned, 'subTopic', req, 'x-svc-sub-topic');
  const triggeredAt = event.triggeredAt;
  if (typeof triggeredAt === 'string') record.triggeredAt = triggeredAt;
  else unsigned = unsignedHeader(unsigned, 'triggeredAt', req, 'x-svc-triggered-at');
  const data = event.data as Record<string, unknown> | undefined;
  if (data && typeof data === 'object' && typeof data.runId === 'string') record.runId = data.runId;
  if (unsigned) record.unsigned = unsigned;
  if (typeof webhookId !== 'string') record.dedupeKey = tokenDedupeKey(signature);
  const mark = parseFaultMark(headerValue(req, SANDBOX_FAULT_HEADER));
  if (mark) record.sandboxFault = mark;
}

/** unsigned, with the header's value for field when the request sent that header. */
function unsignedHeader(
  unsigned: UnsignedFields | undefined,
  field: keyof UnsignedFields,
  req: IncomingMessage,
  header: string,
): UnsignedFields | undefined {
  const h = headerValue(req, header);
  if (h === undefined) return unsigned;
  (unsigned ??= {})[field] = h;
  return unsigned;
}

/** A header's value, the first when it was sent more than once. */
function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
