// What the webhook panel shows, computed from DeliveryRecords: list rows, filters, the detail of one delivery,
// curl and export. Pure (no vscode at run time): unit-tested in plain Node; the webview only renders these as text.
// Its words take vscode.l10n as a parameter (English by default; words.ts).
import type { l10n } from 'vscode';
import { checkWorded, faultMarkSaid, forwardFailed, forwardsOf, type DeliveryRecord } from '../../core/webhooks';
import { bashCurlCommand, isSaid, withoutSaids, worded, type ShellRequest } from '../../core/presentation';
import { compileTopicPattern, topicPatternProblem, topicPatternProblemSaid } from '../../core/patterns';
import { english, wordingOf } from './words';

/** vscode.l10n, or English (words.ts). */
type Words = Pick<typeof l10n, 't'>;

export interface DeliveryRow {
  id: string;
  /** Arrival, ISO 8601 (ms). */
  receivedAt: string;
  /** The event's triggeredAt exactly as sent (7 fractional digits), when the body or headers carry one. */
  triggeredAt?: string;
  topic?: string;
  subTopic?: string;
  status: number;
  verified: boolean;
  duplicate: boolean;
  latencyMs: number;
  /** "step 5 claims (iss, aud, exp)" for a refusal. */
  failedCheck?: string;
  /** The step (1–7) that refused it: the webview names the step in the user's words. */
  failedStep?: number;
  runId?: string;
  /** The event's webhookId: the signed body's, or an X-Svc-Webhook-Id header's (then listed in unsigned). */
  webhookId?: string;
  /** Which of the fields above came from X-Svc-* headers, outside the signature: shown marked unsigned. */
  unsigned?: UnsignedField[];
  /** Apps the delivery was forwarded to, and how many of them failed (refused, timed out, 5xx): seen in the list. */
  forwarded?: number;
  forwardsFailed?: number;
  /** Each app's answer, in order: its HTTP status, or null when it did not answer (said in the row's name). */
  appStatuses?: (number | null)[];
  /** Verified with a token this toolkit signed for it (Edit and Resend, a fixture, Replay, the audit), with the
   * sandbox's key: not the service's. */
  signedHere?: true;
  /** What the sandbox said it did to it (a delivery fault), in words: its X-Wfs-Sandbox-Fault header, outside the
   * signature, shown as the sandbox's unverified note. */
  sandboxNote?: string;
}

/** One app's answer to a forwarded delivery, as the panel shows it: all text. */
interface ForwardView {
  target: string;
  rules: string[];
  status?: number;
  latencyMs: number;
  error?: string;
  redirect?: string;
  failed: boolean;
  headers: [string, string][];
  /** The body's first 4 KiB as text; a binary body is described in bodyNote instead. */
  body?: string;
  bodySize?: number;
  bodyNote?: string;
  /** The rule said `insecure`: the app's certificate was not checked (shown beside the target). */
  insecure?: true;
}

type UnsignedField = 'webhookId' | 'topic' | 'subTopic' | 'triggeredAt';

const UNSIGNED_HEADERS: Record<UnsignedField, string> = {
  webhookId: 'x-svc-webhook-id',
  topic: 'x-svc-topic',
  subTopic: 'x-svc-sub-topic',
  triggeredAt: 'x-svc-triggered-at',
};

export interface DeliveryFilter {
  topic?: string;
  status?: number;
  verification?: 'verified' | 'refused';
  text?: string;
}

interface JwtView {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  /** Readable UTC dates of exp / iat / nbf. */
  dates: { claim: string; value: number; iso: string }[];
  /** exp minus arrival, in seconds (negative: it had expired when it arrived). */
  expiresInSecondsAtArrival?: number;
}

export interface DeliveryDetail {
  row: DeliveryRow;
  method: string;
  path: string;
  headers: [string, string][];
  bodyIsUtf8: boolean;
  /** The body exactly as received, when it is UTF-8. */
  rawText?: string;
  /** A hex dump when it is not. */
  hex?: string;
  /** Pretty JSON (two-space indent) when the body parses; for a refused delivery it is shown as untrusted. */
  prettyJson?: string;
  jwt?: JwtView;
  checks: { step: number; name: string; ok: boolean; detail: string }[];
  response: { status: number; durationMs: number };
  /** The first target, for Replay to Forward Target. */
  forward?: { target: string; status?: number; latencyMs: number; error?: string };
  /** Every app the delivery went to, and what each answered. */
  forwards: ForwardView[];
  /** Bytes received in all. */
  bodyBytes: number;
  /** Bytes kept and shown: fewer than bodyBytes for a refused request (only a prefix is kept). */
  keptBytes: number;
  /** SHA-256 (hex) of every byte received. */
  sha256: string;
  /** Something the receiver could not do with this delivery, or why the body shows only in part. */
  note?: string;
}

/** Reads the body bytes kept for a record (from memory or disk); undefined once it left the history. */
export type BodyReader = (id: string) => Promise<Buffer | undefined>;

function header(r: DeliveryRecord, name: string): string | undefined {
  const k = Object.keys(r.headers).find((h) => h.toLowerCase() === name);
  return k ? r.headers[k] : undefined;
}

/** From the record alone (no body read): what the receiver took from a verified event's signed body, or else the
 * X-Svc-* headers, marked unsigned. `l10n` words the sandbox's note (vscode.l10n in the extension). */
export function deliveryRow(r: DeliveryRecord, l10n: Words = english): DeliveryRow {
  const failed = r.checks.find((c) => !c.ok);
  const row: DeliveryRow = {
    id: r.id,
    receivedAt: r.receivedAt,
    status: r.status,
    verified: r.verified,
    duplicate: r.duplicate,
    latencyMs: r.durationMs,
    failedCheck: failed ? `step ${failed.step} ${failed.name}` : undefined,
    runId: r.runId,
  };
  if (failed) row.failedStep = failed.step;
  if (r.signedHere) row.signedHere = true;
  const note = r.sandboxFault && faultMarkSaid(r.sandboxFault);
  if (note) row.sandboxNote = worded(note, wordingOf(l10n));
  const forwards = forwardsOf(r);
  if (forwards.length > 0) {
    row.forwarded = forwards.length;
    row.forwardsFailed = forwards.filter(forwardFailed).length;
    row.appStatuses = forwards.map((f) => f.status ?? null);
  }
  for (const field of ['webhookId', 'topic', 'subTopic', 'triggeredAt'] as const) {
    const signed = r[field];
    const value = signed ?? header(r, UNSIGNED_HEADERS[field]);
    if (value === undefined) continue;
    row[field] = value;
    if (signed === undefined) (row.unsigned ??= []).push(field);
  }
  return row;
}

/** Which topics the filter's topic field takes: the core's one matcher (`*` within one /-separated part, `**`
 * across them, `?` one character but `/`), so a topic typed whole still matches only itself. A pattern the matcher
 * refuses takes nothing, and topicFilterProblem says why. */
export type TopicFilter = (topic: string | undefined) => boolean;

function topicFilter(f: DeliveryFilter): TopicFilter {
  const text = f.topic?.trim();
  if (!text) return () => true;
  if (topicPatternProblem(text)) return () => false;
  const pattern = compileTopicPattern(text);
  return (topic) => topic !== undefined && pattern.matches(topic);
}

/** Why the filter's topic pattern cannot be used (words that follow "the topic filter …"); undefined when it can. */
export function topicFilterProblem(f: DeliveryFilter, l10n: Words = english): string | undefined {
  const text = f.topic?.trim();
  const problem = text ? topicPatternProblemSaid(text) : undefined;
  return problem && worded(problem, wordingOf(l10n));
}

/** The filter on what the row and the record carry; `text` is searched in the body only by filterRows. */
function matchesWithoutBody(
  row: DeliveryRow,
  r: DeliveryRecord,
  f: DeliveryFilter,
  topicOk: TopicFilter,
  text: string | undefined,
): boolean | 'body' {
  if (!topicOk(row.topic)) return false;
  if (f.status !== undefined && row.status !== f.status) return false;
  if (f.verification === 'verified' && !row.verified) return false;
  if (f.verification === 'refused' && row.verified) return false;
  if (!text) return true;
  if (
    [row.topic, row.subTopic, row.runId, row.triggeredAt, r.path, r.webhookId].some((v) =>
      v?.toLowerCase().includes(text),
    )
  )
    return true;
  if (Object.entries(r.headers).some(([k, v]) => `${k}: ${v}`.toLowerCase().includes(text))) return true;
  return r.body.utf8 && r.body.kept > 0 ? 'body' : false;
}

export async function matchesFilter(
  row: DeliveryRow,
  r: DeliveryRecord,
  f: DeliveryFilter,
  readBody: BodyReader,
  topicOk: TopicFilter = topicFilter(f),
): Promise<boolean> {
  const text = f.text?.trim().toLowerCase();
  const m = matchesWithoutBody(row, r, f, topicOk, text);
  if (m !== 'body') return m;
  const bytes = await readBody(r.id);
  return !!bytes && bytes.toString('utf8').toLowerCase().includes(text!);
}

/** Rows newest first, for a filter without text: nothing to read, so it is synchronous. */
export function rowsWithoutText(
  records: readonly DeliveryRecord[],
  f: DeliveryFilter,
  l10n: Words = english,
): DeliveryRow[] {
  const topicOk = topicFilter(f);
  const out: DeliveryRow[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const row = deliveryRow(records[i]!, l10n);
    if (matchesWithoutBody(row, records[i]!, f, topicOk, undefined) === true) out.push(row);
  }
  return out;
}

/** Rows newest first, filtered; a text filter reads bodies (from disk for large ones) only for rows that need it.
 * Once `current()` says a newer filter was asked for, no further body is read and undefined is returned: a scan
 * per pause in typing would otherwise read the whole history from disk for results nobody sees. */
export async function filterRows(
  records: readonly DeliveryRecord[],
  f: DeliveryFilter,
  readBody: BodyReader,
  current: () => boolean = () => true,
  l10n: Words = english,
): Promise<DeliveryRow[] | undefined> {
  const topicOk = topicFilter(f);
  const out: DeliveryRow[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    if (!current()) return undefined;
    const r = records[i]!;
    const row = deliveryRow(r, l10n);
    if (await matchesFilter(row, r, f, readBody, topicOk)) out.push(row);
  }
  return out;
}

/** 16 bytes a line: offset, hex, and printable ASCII. */
export function hexDump(buf: Buffer, maxBytes = 64 * 1024, l10n: Words = english): string {
  const lines: string[] = [];
  const n = Math.min(buf.length, maxBytes);
  for (let off = 0; off < n; off += 16) {
    const chunk = buf.subarray(off, Math.min(off + 16, n));
    const hex = [...chunk].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...chunk].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${off.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  if (buf.length > n) lines.push(l10n.t('… {0} more bytes', buf.length - n));
  return lines.join('\n');
}

function jwtView(r: DeliveryRecord): JwtView | undefined {
  if (!r.jwt) return undefined;
  const claims = r.jwt.claims as Record<string, unknown> | undefined;
  const dates: JwtView['dates'] = [];
  for (const claim of ['iat', 'nbf', 'exp']) {
    const v = claims?.[claim];
    if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < 1e11)
      dates.push({ claim, value: v, iso: new Date(v * 1000).toISOString() });
  }
  const exp = claims?.exp;
  const arrival = Date.parse(r.receivedAt);
  return {
    header: r.jwt.header as Record<string, unknown> | undefined,
    claims,
    dates,
    expiresInSecondsAtArrival:
      typeof exp === 'number' && Number.isFinite(arrival) ? Math.round(exp - arrival / 1000) : undefined,
  };
}

/**
 * @param raw the body bytes kept for the record (DeliveryHistory.body).
 * @param l10n vscode.l10n in the extension: the notes' words.
 */
export function deliveryDetail(r: DeliveryRecord, raw: Buffer, l10n: Words = english): DeliveryDetail {
  const notes = [isSaid(r.noteSaid) ? worded(r.noteSaid, wordingOf(l10n)) : r.note];
  if (r.body.kept < r.body.size)
    notes.push(
      l10n.t('only the first {0} of {1} bytes were kept (a refused request keeps a prefix)', r.body.kept, r.body.size),
    );
  let prettyJson: string | undefined;
  if (r.body.utf8 && r.body.kept === r.body.size) {
    try {
      prettyJson = JSON.stringify(JSON.parse(raw.toString('utf8')), null, 2);
    } catch (err) {
      // Not JSON (shown raw), or nested too deeply to re-serialize: the raw bytes are still shown, with a note.
      if (err instanceof RangeError) notes.push(l10n.t('the body is shown raw: {0} while formatting it', err.message));
    }
  }
  return {
    row: deliveryRow(r, l10n),
    method: r.method,
    path: r.path,
    headers: Object.entries(r.headers),
    bodyIsUtf8: r.body.utf8,
    rawText: r.body.utf8 ? raw.toString('utf8') : undefined,
    hex: r.body.utf8 ? undefined : hexDump(raw, undefined, l10n),
    prettyJson,
    jwt: jwtView(r),
    checks: r.checks.map((c) => ({ step: c.step, ok: c.ok, ...checkWorded(c, wordingOf(l10n)) })),
    response: { status: r.status, durationMs: r.durationMs },
    forward: forwardsOf(r).length > 0 ? firstForward(r) : undefined,
    forwards: forwardsOf(r).map((f) => forwardView(f, l10n)),
    bodyBytes: r.body.size,
    keptBytes: r.body.kept,
    sha256: r.body.sha256,
    ...(notes.some(Boolean) ? { note: notes.filter(Boolean).join('; ') } : {}),
  };
}

function firstForward(r: DeliveryRecord): DeliveryDetail['forward'] {
  const { target, status, latencyMs, error } = forwardsOf(r)[0]!;
  return { target, status, latencyMs, error };
}

function forwardView(f: ReturnType<typeof forwardsOf>[number], l10n: Words): ForwardView {
  const kept =
    f.body !== undefined
      ? Buffer.byteLength(f.body)
      : f.bodyBase64 !== undefined
        ? Buffer.from(f.bodyBase64, 'base64').length
        : 0;
  const cut = f.truncated ? l10n.t('the first {0} of {1} bytes', kept, f.bodySize ?? kept) : undefined;
  return {
    target: f.target,
    rules: [...(f.rules ?? [])],
    ...(f.status !== undefined ? { status: f.status } : {}),
    latencyMs: f.latencyMs,
    ...(f.error ? { error: isSaid(f.errorSaid) ? worded(f.errorSaid, wordingOf(l10n)) : f.error } : {}),
    ...(f.redirect !== undefined ? { redirect: f.redirect } : {}),
    failed: forwardFailed(f),
    ...(f.insecure ? { insecure: true as const } : {}),
    headers: Object.entries(f.headers ?? {}),
    ...(f.body !== undefined ? { body: f.body } : {}),
    ...(f.bodySize !== undefined ? { bodySize: f.bodySize } : {}),
    ...(f.bodyWithheld !== undefined
      ? { bodyNote: l10n.t('{0} bytes, not shown: {1}', f.bodySize ?? '', f.bodyWithheld) }
      : f.bodyBase64 !== undefined
        ? {
            bodyNote: l10n.t(
              '{0} bytes, not UTF-8 ({1} kept, as base64 in exports)',
              f.bodySize ?? '',
              cut ?? l10n.t('all'),
            ),
          }
        : cut
          ? { bodyNote: l10n.t('{0} are shown', cut) }
          : {}),
  };
}

/** The delivery as a request for a shell command (shellCommands.ts): the original token is never stored, so every
 * form reads a fresh one from $WFS_WEBHOOK_TOKEN. */
export function shellRequest(r: DeliveryRecord, url: string, raw: Buffer): ShellRequest {
  return { url, headers: Object.entries(r.headers), body: raw };
}

/** The delivery as a bash curl command (shellCommands.ts: the body goes to curl's standard input). */
export function curlCommand(r: DeliveryRecord, url: string, raw: Buffer): string {
  return bashCurlCommand(shellRequest(r, url, raw)).command;
}

/**
 * Export format: the records (token already reduced to its scheme and length) with their kept body bytes as base64,
 * as chunks of text, one delivery at a time. The whole history can reach the disk budget (bodies read back from the
 * file, then base64): built as one string it held all of it at once in the shared extension host, and past V8's
 * string limit it could not be built at all. Joined, the chunks are the text JSON.stringify(…, withoutSaids, 2) gives.
 */
export async function* exportJsonChunks(
  records: readonly DeliveryRecord[],
  readBody: BodyReader,
): AsyncGenerator<string> {
  yield `{\n  "exportedBy": "Workflow Service Toolkit",\n  "count": ${records.length},\n  "deliveries": [`;
  if (records.length === 0) return yield ']\n}\n';
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const d = { ...r, bodyBase64: ((await readBody(r.id)) ?? Buffer.alloc(0)).toString('base64') };
    // A file for other tools: the words kept for this window's language (Saids) stay behind.
    yield `${i === 0 ? '' : ','}\n${JSON.stringify(d, withoutSaids, 2).replace(/^/gm, '    ')}`;
  }
  yield '\n  ]\n}\n';
}
