// What the history keeps of one request: its record (the body's bytes are kept beside it, see DeliveryHistory), as the
// receiver builds it from the request, with the headers as recorded. The raw token is never stored: only its scheme
// and length, and its decoded header and claims.
import type { IncomingMessage } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import { isoTimestamp } from '../time/timestamps';
import { dedupeKey, tokenDedupeKey } from './DedupeSet';
import type { VerificationCheck } from './Verifier';

export { forwardFailed, forwardsOf, type ForwardAnswerRecord, type ForwardResult } from './forwardAnswer';
import type { ForwardAnswerRecord, ForwardResult } from './forwardAnswer';

/** What is known of a request body; its bytes are had through DeliveryHistory.body(). */
export interface BodyInfo {
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
  /** The delivery this one was made from by Edit and Resend (its id), as its X-Wfs-Derived-From header said: a
   * verified delivery's only, and a link for the user, never a decision (the header is outside the signature). */
  derivedFrom?: string;
  /** Verified with a token this toolkit signed for this one delivery (Edit and Resend, a fixture sent to the
   * receiver, Replay, the audit): signed with the sandbox's key here, not by the service. */
  signedHere?: true;
}

export interface UnsignedFields {
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
  return r.verified && r.status >= 200 && r.status < 300 ? deliveryDedupeKey(r) : undefined;
}

/** Longer topics are not remembered past their record. */
const MAX_SHARED_CHARS = 256;
// A topic repeats from one delivery to the next: a record keeps the string the one before kept when the two are
// equal, not a copy of its own (docs/benchmarks.md: "What a record keeps").
const lastTopics = { topic: '', subTopic: '' };

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  // Copied by spread, then rewritten where needed (a credential, a repeated header joined, a value the last record
  // kept): this runs for every request, and building the copy key by key costs more (docs/benchmarks.md).
  const out = { ...headers };
  const last = lastHeaders;
  for (const k in out) {
    // Only the request's own: for...in also walks what anything in the host added to Object.prototype.
    if (!Object.hasOwn(out, k)) continue;
    const v = out[k];
    if (typeof v === 'string') {
      if (isCredentialHeader(k)) out[k] = redactedCredential(v);
      else if (v === last[k]) out[k] = last[k];
    } else if (v === undefined) delete out[k];
    else out[k] = isCredentialHeader(k) ? redactedCredential(v.join(', ')) : v.join(', ');
  }
  lastHeaders = out as Record<string, string>;
  return lastHeaders;
}

/** The headers the last request kept: a sender repeats most of them, and a record keeps the string the one before
 * kept when the two are equal, not a copy of its own (docs/benchmarks.md: "What a record keeps"). */
let lastHeaders: Record<string, string> = {};

function isCredentialHeader(name: string): boolean {
  return (
    (name.length === 13 || name.length === 19) && (name === 'authorization' || /^(proxy-)?authorization$/i.test(name))
  );
}

function redactedCredential(value: string): string {
  const space = value.indexOf(' ');
  // A sender's tokens have one scheme and, signed alike, one length: the last text serves again.
  const last = lastCredential;
  if (value.length === last.length && space === last.space && value.startsWith(last.scheme)) return last.text;
  const scheme = (space < 0 ? value : value.slice(0, space)).slice(0, 20);
  // Joined into one flat string: each record keeps it (see isoTimestamp).
  const text = [scheme, ' <redacted, ', value.length, ' characters>'].join('');
  lastCredential = { length: value.length, space, scheme, text };
  return text;
}

let lastCredential = { length: -1, space: -1, scheme: '', text: '' };

/** Random per process (72 bits), so records kept from an earlier run never share an id with this run's. */
const ID_PREFIX = randomBytes(9).toString('base64url');
let idsIssued = 0;

/**
 * The next record id, unique within the history and across restarts: the process's random prefix and a counter.
 * A counter rather than `randomUUID()` for every request: a UUID string is built from 16 pieces and then flattened,
 * garbage on every request (docs/benchmarks.md). The id only has to be unique; nothing about it is secret.
 */
export function nextDeliveryId(): string {
  // Joined, not concatenated: one flat string, where `+` leaves a tree of pieces that every record keeps (see
  // isoTimestamp).
  return [ID_PREFIX, '-', (++idsIssued).toString(36)].join('');
}

const EMPTY_BODY: BodyInfo = { size: 0, sha256: createHash('sha256').digest('hex'), kept: 0, utf8: true };

/** The record of a request as it arrives: what its first line and headers say; the rest is filled in as it is
 * handled. */
export function newRecord(req: IncomingMessage, now: number): DeliveryRecord {
  return {
    id: nextDeliveryId(),
    receivedAt: isoTimestamp(now),
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
  // Each field set only when the body signs it, never set and then deleted: an absent field stays absent in the
  // history line, and the record keeps its shape (a delete would turn it into a slow dictionary).
  let unsigned: UnsignedFields | undefined;
  const webhookId = event.webhookId;
  if (typeof webhookId === 'string') record.webhookId = webhookId;
  else unsigned = unsignedHeader(unsigned, 'webhookId', req, 'x-svc-webhook-id');
  const topic = event.topic;
  if (typeof topic === 'string') {
    if (topic === lastTopics.topic) record.topic = lastTopics.topic;
    else if ((record.topic = topic).length <= MAX_SHARED_CHARS) lastTopics.topic = topic;
  } else unsigned = unsignedHeader(unsigned, 'topic', req, 'x-svc-topic');
  const subTopic = event.subTopic;
  if (typeof subTopic === 'string') {
    if (subTopic === lastTopics.subTopic) record.subTopic = lastTopics.subTopic;
    else if ((record.subTopic = subTopic).length <= MAX_SHARED_CHARS) lastTopics.subTopic = subTopic;
  } else unsigned = unsignedHeader(unsigned, 'subTopic', req, 'x-svc-sub-topic');
  const triggeredAt = event.triggeredAt;
  if (typeof triggeredAt === 'string') record.triggeredAt = triggeredAt;
  else unsigned = unsignedHeader(unsigned, 'triggeredAt', req, 'x-svc-triggered-at');
  const data = event.data as Record<string, unknown> | undefined;
  if (data && typeof data === 'object' && typeof data.runId === 'string') record.runId = data.runId;
  if (unsigned) record.unsigned = unsigned;
  if (typeof webhookId !== 'string') record.dedupeKey = tokenDedupeKey(signature);
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
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
