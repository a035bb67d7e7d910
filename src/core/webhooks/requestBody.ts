// Reading a request's body in the receiver, bounded in bytes three ways: one body by the size cap; all the bodies
// being received at once by a shared budget, so a crowd of slow senders cannot fill the extension host; and a
// request already refused (steps 1–5, from its headers) by a prefix and a hash, never the body itself.
import type { IncomingMessage } from 'node:http';
import { createHash, hash as oneShotHash } from 'node:crypto';

/** How a body's reading ended without its bytes. */
export type BodyLost = 'too-large' | 'aborted' | 'busy';

/** Bytes held by the bodies being received, across requests. */
export class BodiesInFlight {
  held = 0;
  constructor(readonly limit: number) {}

  take(n: number): boolean {
    if (this.held + n > this.limit) return false;
    this.held += n;
    return true;
  }

  give(n: number): void {
    this.held -= n;
  }
}

/** What one request holds of the budget: readCapped takes, and the holder gives it all back once, when it answers
 * (a refusal for size or budget included). */
export interface Holding {
  held: number;
}

/** A body as read: its size and SHA-256 (hex), and the bytes kept (all of a held body, a prefix of one hashed as
 * it streamed by). */
export interface HashedBody {
  size: number;
  sha256: string;
  kept: Buffer;
}

/** Node 20.12 and later hash in one call (crypto.hash), which makes no Hash object for the garbage collector to
 * finalize; older Node (VS Code 1.90's Electron) has only createHash. */
const ONE_SHOT_HASH = typeof oneShotHash === 'function';

/** done, called the first time only: a body ends once, however many of its events come. */
function once<T>(done: (value: T) => void): (value: T) => void {
  let settled = false;
  return (value) => {
    if (settled) return;
    settled = true;
    done(value);
  };
}

function tooLargeByItsHeader(req: IncomingMessage, cap: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > cap;
}

/** Reads the body up to cap bytes, each chunk taken from the budget as it comes, and calls done once: with the whole
 * body (kept: every byte; hashed once whole), or why not, and the holding. Past the cap or the budget the chunks are
 * dropped at once and the rest is discarded as it comes; what the holding took is given back by its holder. */
export function readCapped<H extends Holding>(
  req: IncomingMessage,
  cap: number,
  budget: BodiesInFlight,
  holding: H,
  done: (body: HashedBody | BodyLost, holding: H) => void,
): void {
  if (tooLargeByItsHeader(req, cap)) return done('too-large', holding);
  const chunks: Buffer[] = [];
  let size = 0;
  // done is called once: for the first of the cap, the budget, the end or an error.
  let settled = false;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size <= cap && budget.take(c.length)) {
      holding.held += c.length;
      chunks.push(c);
      return;
    }
    // The stream keeps flowing without a listener: the rest of the body is discarded as it comes.
    req.removeAllListeners('data');
    chunks.length = 0;
    if (settled) return;
    settled = true;
    done(size > cap ? 'too-large' : 'busy', holding);
  });
  req.on('end', () => {
    if (settled) return;
    settled = true;
    // Held whole, so hashed whole: one call, rather than a Hash object updated chunk by chunk.
    const kept = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    const sha256 = ONE_SHOT_HASH ? oneShotHash('sha256', kept, 'hex') : createHash('sha256').update(kept).digest('hex');
    done({ size, sha256, kept }, holding);
  });
  // A sender gone before the end: Node destroys the request with an 'aborted' error, emitted because we listen.
  req.on('error', () => {
    if (settled) return;
    settled = true;
    done('aborted', holding);
  });
}

/** Reads a refused request's body up to cap bytes without holding it: hashed as it streams by, its first keep
 * bytes kept. */
export function readHashed(
  req: IncomingMessage,
  cap: number,
  keep: number,
  done: (body: HashedBody | BodyLost) => void,
): void {
  if (tooLargeByItsHeader(req, cap)) return done('too-large');
  const hash = createHash('sha256');
  const prefix: Buffer[] = [];
  let kept = 0;
  let size = 0;
  const settle = once(done);
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > cap) {
      req.removeAllListeners('data');
      return settle('too-large');
    }
    hash.update(c);
    if (kept < keep) {
      const part = c.subarray(0, keep - kept);
      prefix.push(part);
      kept += part.length;
    }
  });
  // Concatenated, the prefix is already its own copy: it is only cut, not copied again.
  req.on('end', () => {
    const bytes = Buffer.concat(prefix, kept);
    settle({ size, sha256: hash.digest('hex'), kept: bytes.subarray(0, prefixEnd(bytes, size, kept)) });
  });
  req.on('error', () => settle('aborted'));
}

/** The prefix a refused request keeps of a body of size bytes: its own copy (never a view that holds a larger
 * chunk alive), cut before a character the cut would split, so text stays text. */
export function keptPrefix(bytes: Buffer, size: number, keep: number): Buffer {
  return Buffer.from(bytes.subarray(0, prefixEnd(bytes, size, keep)));
}

/** Where the kept prefix of a body of size bytes ends: at keep, or before the character it would split. */
function prefixEnd(bytes: Buffer, size: number, keep: number): number {
  const end = Math.min(keep, bytes.length);
  return end < size ? characterBoundary(bytes, end) : end;
}

/** end, or the start of the UTF-8 sequence it would cut short. */
function characterBoundary(bytes: Buffer, end: number): number {
  let lead = end;
  while (lead > 0 && end - lead < 3 && (bytes[lead - 1]! & 0xc0) === 0x80) lead--;
  if (lead === 0) return end;
  const b = bytes[lead - 1]!;
  const length = b < 0xc0 || b >= 0xf8 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
  return lead - 1 + length > end ? lead - 1 : end;
}
