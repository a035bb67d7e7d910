// A delivery as the assistant reads it: a short row for lists, and the whole of one (headers as recorded, the body,
// the seven steps, the app's answer). Sizes are bounded, so no answer floods the model's context.
import { isUtf8 } from 'node:buffer';
import { forwardsOf, type DeliveryRecord } from '../webhooks/deliveryRecord';
import { parseUtcTimestamp } from '../time/timestamps';
import { compileTopicPattern, TopicPatternError, type TopicPattern } from '../patterns';
import { ToolRefused } from './assistantTool';

/** Body bytes shown in full; past this the body is cut and says so. */
const BODY_SHOWN_BYTES = 16 * 1024;

export interface DeliveryRow {
  id: string;
  receivedAt: string;
  topic: string | null;
  subTopic: string | null;
  /** Signed by the token and checked, or refused. */
  verified: boolean;
  /** What the receiver answered. */
  status: number;
  duplicate: boolean;
  webhookId: string | null;
  runId: string | null;
  /** For a refused delivery: the step that failed and why. */
  failedStep?: { step: number; name: string; detail: string };
  /** What each app the delivery was forwarded to answered. */
  app?: { target: string; status: number | null; error?: string }[];
  bytes: number;
  /** Fields a refused or test delivery's X-Svc-* headers claimed: outside the signature, never trusted. */
  unsigned?: Record<string, string>;
}

export function deliveryRow(r: DeliveryRecord): DeliveryRow {
  const failed = r.checks.find((c) => !c.ok && c.step < 7);
  const forwards = forwardsOf(r);
  return {
    id: r.id,
    receivedAt: r.receivedAt,
    topic: r.topic ?? null,
    subTopic: r.subTopic ?? null,
    verified: r.verified,
    status: r.status,
    duplicate: r.duplicate,
    webhookId: r.webhookId ?? null,
    runId: r.runId ?? null,
    ...(failed ? { failedStep: { step: failed.step, name: failed.name, detail: failed.detail } } : {}),
    ...(forwards.length
      ? {
          app: forwards.map((f) => ({
            target: f.target,
            status: f.status ?? null,
            ...(f.error ? { error: f.error } : {}),
          })),
        }
      : {}),
    bytes: r.body.size,
    ...(r.unsigned ? { unsigned: { ...r.unsigned } as Record<string, string> } : {}),
  };
}

export interface DeliveryFilter {
  topic?: string;
  verified?: boolean;
  status?: number;
  /** Epoch ms: received at or after. */
  sinceMs?: number;
  text?: string;
}

/** A topic pattern as a predicate over a delivery's topic (core/patterns: `*` within one /-separated part, `**`
 * across them, `?` one character but `/`; linear time). A bad pattern is refused in words the model can act on. */
export function topicMatcher(pattern: string): (topic: string | null | undefined) => boolean {
  let compiled: TopicPattern;
  try {
    compiled = compileTopicPattern(pattern);
  } catch (err) {
    if (err instanceof TopicPatternError) throw new ToolRefused(err.message);
    throw err;
  }
  return (t) => t !== null && t !== undefined && compiled.matches(t);
}

/** The records that pass the filter, newest first, at most `limit`, and how many passed in all. */
export function filterDeliveries(
  records: readonly DeliveryRecord[],
  f: DeliveryFilter,
  limit: number,
): { total: number; matching: DeliveryRecord[] } {
  const topicOk = f.topic === undefined ? undefined : topicMatcher(f.topic);
  // Every special character escaped: a literal, case-insensitive search with no quantifier, so no backtracking.
  const needle = f.text === undefined ? undefined : new RegExp(f.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  const matching: DeliveryRecord[] = [];
  let total = 0;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (topicOk && !topicOk(r.topic ?? r.unsigned?.topic)) continue;
    if (f.verified !== undefined && r.verified !== f.verified) continue;
    if (f.status !== undefined && r.status !== f.status) continue;
    if (f.sinceMs !== undefined && (parseUtcTimestamp(r.receivedAt) ?? 0) < f.sinceMs) continue;
    if (needle !== undefined && !mentions(r, needle)) continue;
    total++;
    if (matching.length < limit) matching.push(r);
  }
  return { total, matching };
}

/** What the text filter looks in: ids, topics, the path, what a step or the receiver said, and the apps' answers.
 * Each field is tested as it is: no text is built per record. */
function mentions(r: DeliveryRecord, needle: RegExp): boolean {
  const hit = (v: string | undefined) => v !== undefined && needle.test(v);
  if (hit(r.id) || hit(r.topic) || hit(r.subTopic) || hit(r.webhookId) || hit(r.runId) || hit(r.path)) return true;
  if (hit(r.note) || hit(r.triggeredAt)) return true;
  for (const c of r.checks) if (!c.ok && hit(c.detail)) return true;
  if (r.unsigned) for (const v of Object.values(r.unsigned)) if (hit(v)) return true;
  for (const f of forwardsOf(r)) if (hit(f.target) || hit(f.error) || hit((f as { body?: string }).body)) return true;
  return false;
}

/** "2h", "15m", "30s", "1d" before now, or an ISO 8601 time; undefined when it is neither. */
export function parseSince(text: string, nowMs: number): number | undefined {
  const rel = /^(\d{1,6})\s*(s|m|h|d)$/i.exec(text.trim());
  if (rel) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2]!.toLowerCase() as 's' | 'm' | 'h' | 'd'];
    return nowMs - Number(rel[1]) * unit;
  }
  const iso = parseUtcTimestamp(text.trim());
  if (iso !== undefined) return iso;
  const loose = Date.parse(text);
  return Number.isNaN(loose) ? undefined : loose;
}

interface DeliveryBody {
  /** Bytes received in all. */
  bytes: number;
  /** Bytes kept: a refused delivery keeps only a prefix. */
  kept: number;
  /** The body as text when it is UTF-8, else base64; the first BODY_SHOWN_BYTES of it. */
  text?: string;
  base64?: string;
  /** Parsed, when it is JSON and shown whole. */
  json?: unknown;
  truncated: boolean;
}

function deliveryBody(r: DeliveryRecord, kept: Buffer | undefined): DeliveryBody {
  const out: DeliveryBody = { bytes: r.body.size, kept: r.body.kept, truncated: r.body.kept < r.body.size };
  if (!kept) return out;
  const shown = kept.subarray(0, BODY_SHOWN_BYTES);
  if (shown.length < kept.length) out.truncated = true;
  // A cut may fall inside a UTF-8 sequence: up to 3 bytes at the end are let go before calling it binary.
  let text: string | undefined;
  for (let drop = 0; drop <= (shown.length < kept.length ? 3 : 0) && text === undefined; drop++) {
    const part = shown.subarray(0, shown.length - drop);
    if (isUtf8(part)) text = part.toString('utf8');
  }
  if (text === undefined) out.base64 = shown.toString('base64');
  else {
    out.text = text;
    if (!out.truncated)
      try {
        out.json = JSON.parse(text);
      } catch {
        /* not JSON: the text says it */
      }
  }
  return out;
}

/** What a refused delivery carried, none of it verified: whoever sent it chose every byte. */
interface UnverifiedContent {
  /** As recorded: the Authorization header only as its scheme and length. */
  headers: Record<string, string>;
  /** The token's decoded header and claims (never the token), as the sender wrote them. */
  tokenHeader?: unknown;
  claims?: unknown;
  /** The kept prefix of the body. */
  body: DeliveryBody;
}

export interface DeliveryDetail extends DeliveryRow {
  method: string;
  path: string;
  triggeredAt: string | null;
  /** A verified delivery's headers, as recorded: the Authorization header only as its scheme and length. */
  headers?: Record<string, string>;
  /** A verified delivery's token: its decoded header and claims (never the token). */
  jwt?: { header?: unknown; claims?: unknown } | null;
  /** The seven steps, in order, each with what it found. */
  checks: { step: number; name: string; ok: boolean; detail: string }[];
  /** A verified delivery's body. */
  body?: DeliveryBody;
  /** A refused delivery's headers, claims and body: under a key that says so, never beside verified fields. */
  unverified?: UnverifiedContent;
  /** Each app's whole answer: status, headers, the first 4 KiB of its body. */
  appAnswers: {
    target: string;
    status: number | null;
    latencyMs: number;
    headers?: Record<string, string>;
    body?: string;
    bodyBase64?: string;
    bodyWithheld?: string;
    bodyBytes?: number;
    truncated?: boolean;
    error?: string;
  }[];
  note?: string;
  derivedFrom?: string;
}

export function deliveryDetail(r: DeliveryRecord, kept: Buffer | undefined): DeliveryDetail {
  const content = r.verified
    ? {
        headers: { ...r.headers },
        jwt: r.jwt ? { header: r.jwt.header, claims: r.jwt.claims } : null,
        body: deliveryBody(r, kept),
      }
    : {
        unverified: {
          headers: { ...r.headers },
          ...(r.jwt ? { tokenHeader: r.jwt.header, claims: r.jwt.claims } : {}),
          body: deliveryBody(r, kept),
        },
      };
  return {
    ...deliveryRow(r),
    method: r.method,
    path: r.path,
    triggeredAt: r.triggeredAt ?? null,
    checks: r.checks.map((c) => ({ step: c.step, name: c.name, ok: c.ok, detail: c.detail })),
    ...content,
    appAnswers: forwardsOf(r).map((f) => ({
      target: f.target,
      status: f.status ?? null,
      latencyMs: f.latencyMs,
      ...(f.headers ? { headers: f.headers } : {}),
      ...(f.body !== undefined ? { body: f.body } : {}),
      ...(f.bodyBase64 !== undefined ? { bodyBase64: f.bodyBase64 } : {}),
      ...(f.bodyWithheld !== undefined ? { bodyWithheld: f.bodyWithheld } : {}),
      ...(f.bodySize !== undefined ? { bodyBytes: f.bodySize } : {}),
      ...(f.truncated ? { truncated: true } : {}),
      ...(f.error ? { error: f.error } : {}),
    })),
    ...(r.note ? { note: r.note } : {}),
    ...(r.derivedFrom ? { derivedFrom: r.derivedFrom } : {}),
  };
}
