// The history file's line format (DeliveryHistory reads and writes it; historyFile.ts does the I/O): one record and
// its kept body bytes per line, the line of acknowledged event ids that compaction writes first, and a line for each
// answer an app gave to a replay.
import { dedupeKey } from './DedupeSet';
import type { DeliveryRecord } from './deliveryRecord';
import { keptBuffer, type KeptBytes } from './keptBytes';
import type { ReplayAnswer } from './replayLog';

/**
 * One line of the file: the record's fields, then its kept body bytes as base64 in a last field "b64". The body is
 * written last so a line can be read without parsing (or even decoding) the body: `,"b64":"` cannot occur
 * unescaped inside the record's own strings, so its last occurrence is where the body begins.
 */
const B64_FIELD = Buffer.from(',"b64":"');
const LINE_END = Buffer.from('"}\n');

export function serializeLine(record: DeliveryRecord, kept: KeptBytes): Buffer {
  const meta = Buffer.from(JSON.stringify(record), 'utf8');
  // The record's JSON ends with "}": the body field goes before it, copied once as latin1 base64 bytes.
  return Buffer.concat([
    meta.subarray(0, meta.length - 1),
    B64_FIELD,
    Buffer.from(keptBuffer(kept).toString('base64'), 'latin1'),
    LINE_END,
  ]);
}

function splitLine(bytes: Buffer): { meta: Buffer; b64: Buffer } | undefined {
  const at = bytes.lastIndexOf(B64_FIELD);
  if (
    at < 0 ||
    bytes.length < at + B64_FIELD.length + 2 ||
    bytes[bytes.length - 1] !== 0x7d ||
    bytes[bytes.length - 2] !== 0x22
  )
    return undefined;
  return {
    meta: Buffer.concat([bytes.subarray(0, at), Buffer.from('}')]),
    b64: bytes.subarray(at + B64_FIELD.length, bytes.length - 2),
  };
}

export function parseLine(
  bytes: Buffer,
  inlineLimit: number,
): { record: DeliveryRecord; inline?: Buffer; metaBytes: number } | undefined {
  const parts = splitLine(bytes);
  if (!parts) return undefined;
  let record: DeliveryRecord;
  try {
    record = JSON.parse(parts.meta.toString('utf8')) as DeliveryRecord;
  } catch {
    return undefined;
  }
  if (typeof record?.id !== 'string' || typeof record.body?.size !== 'number' || typeof record.body.kept !== 'number')
    return undefined;
  // Only a body small enough to be held in memory is decoded now; the others are read when asked for.
  const decodedLength =
    Math.floor((parts.b64.length * 3) / 4) - (parts.b64.at(-1) === 0x3d ? (parts.b64.at(-2) === 0x3d ? 2 : 1) : 0);
  if (decodedLength !== record.body.kept) return undefined;
  return {
    record,
    inline: decodedLength <= inlineLimit ? Buffer.from(parts.b64.toString('latin1'), 'base64') : undefined,
    metaBytes: parts.meta.length,
  };
}

/**
 * The line compaction writes first: the dedupe keys of acknowledged deliveries whose records the budgets dropped,
 * oldest first, so a copy the service sends again after a restart is still known for a duplicate
 * (`{"acknowledged":["<key>",…]}`). It carries no body and is not a record.
 */
const ACKNOWLEDGED_LINE_START = Buffer.from('{"acknowledged":');

export function acknowledgedLine(keys: readonly string[], maxBytes: number): Buffer | undefined {
  // The newest keys that fit: the line may take a quarter of the disk budget, so with the records (under half of
  // it) a compacted file stays within the budget and the next write does not compact it again.
  // Each key counted as written (quoted, escaped, UTF-8, and its comma): a verified body may carry any characters.
  let bytes = 20;
  let from = keys.length;
  while (from > 0) {
    const size = Buffer.byteLength(JSON.stringify(keys[from - 1])) + 1;
    if (bytes + size > maxBytes) break;
    bytes += size;
    from--;
  }
  return from < keys.length ? Buffer.from(JSON.stringify({ acknowledged: keys.slice(from) }), 'utf8') : undefined;
}

/** The keys of an acknowledged line, or undefined when the line is not one. */
export function parseAcknowledgedLine(bytes: Buffer): string[] | undefined {
  if (
    bytes.length < ACKNOWLEDGED_LINE_START.length ||
    !bytes.subarray(0, ACKNOWLEDGED_LINE_START.length).equals(ACKNOWLEDGED_LINE_START)
  )
    return undefined;
  try {
    const list = (JSON.parse(bytes.toString('utf8')) as { acknowledged?: unknown }).acknowledged;
    // A key is at most what dedupeKey() makes: anything else in a hand-edited file is passed over.
    return Array.isArray(list)
      ? list.filter((k): k is string => typeof k === 'string' && k.length > 0 && dedupeKey(k) === k)
      : undefined;
  } catch {
    return undefined;
  }
}

export function bodyOfLine(bytes: Buffer): Buffer {
  const parts = splitLine(bytes);
  if (!parts) throw new Error('a history line could not be read back');
  return Buffer.from(parts.b64.toString('latin1'), 'base64');
}

/**
 * A line of what an app answered to one replay (`{"replayed":{…}}`, see replayLog.ts): appended as each answer comes,
 * rewritten by compaction after the acknowledged line. It carries no body and is not a record.
 */
const REPLAYED_LINE_START = Buffer.from('{"replayed":');

export function replayedLine(answer: ReplayAnswer): Buffer {
  return Buffer.from(JSON.stringify({ replayed: answer }), 'utf8');
}

/** The answer of a replayed line, or undefined when the line is not one (or not one this version can read). */
export function parseReplayedLine(bytes: Buffer): ReplayAnswer | undefined {
  if (
    bytes.length < REPLAYED_LINE_START.length ||
    !bytes.subarray(0, REPLAYED_LINE_START.length).equals(REPLAYED_LINE_START)
  )
    return undefined;
  let a: Record<string, unknown>;
  try {
    a = (JSON.parse(bytes.toString('utf8')) as { replayed?: Record<string, unknown> }).replayed ?? {};
  } catch {
    return undefined;
  }
  const text = (k: string) => a[k] === undefined || typeof a[k] === 'string';
  if (typeof a.at !== 'string' || typeof a.target !== 'string' || !['webhookId', 'deliveryId', 'error'].every(text))
    return undefined;
  if (a.status !== undefined && !Number.isInteger(a.status)) return undefined;
  return a as unknown as ReplayAnswer;
}
