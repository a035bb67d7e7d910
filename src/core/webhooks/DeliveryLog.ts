// Every request the receiver saw, refused ones too, bounded by a cap and persisted as JSON lines so nothing is
// lost across restarts. The raw token is never stored: only its scheme and decoded header and claims.
import { EventEmitter } from 'node:events';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import type { VerificationCheck } from './Verifier';

export interface ForwardResult {
  target: string;
  status?: number;
  latencyMs: number;
  error?: string;
}

export interface DeliveryRecord {
  id: string;
  receivedAt: string;
  method: string;
  path: string;
  /** Request headers; Authorization reduced to its scheme and length. */
  headers: Record<string, string>;
  jwt?: { header?: ProtectedHeaderParameters; claims?: JWTPayload };
  /** The body exactly as received, base64. */
  rawBodyBase64: string;
  bodyIsUtf8: boolean;
  parsedBody?: unknown;
  checks: VerificationCheck[];
  verified: boolean;
  status: number;
  durationMs: number;
  duplicate: boolean;
  webhookId?: string;
  topic?: string;
  runId?: string;
  forward?: ForwardResult;
}

export interface DeliveryQuery {
  topic?: string;
  status?: number;
  runId?: string;
  verified?: boolean;
  /** Case-insensitive text searched in the path, headers and body. */
  text?: string;
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : v;
    if (k.toLowerCase() === 'authorization' || k.toLowerCase() === 'proxy-authorization') {
      const scheme = value.split(' ')[0] ?? '';
      out[k] = `${scheme.slice(0, 20)} <redacted, ${value.length} characters>`;
    } else out[k] = value;
  }
  return out;
}

export class DeliveryLog extends EventEmitter {
  /** A ring of at most `cap` records: adding at the cap overwrites the oldest, with no array shifting. */
  private ring: DeliveryRecord[] = [];
  private head = 0;
  private ordered?: DeliveryRecord[];
  private writes: Promise<void> = Promise.resolve();
  private linesInFile = 0;

  constructor(
    readonly cap = 1000,
    private readonly file?: string,
  ) {
    super();
  }

  /** Loads the newest `cap` records from the file; unreadable lines are skipped, never fatal. */
  async load(): Promise<number> {
    if (!this.file) return 0;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    this.linesInFile = lines.length;
    const parsed: DeliveryRecord[] = [];
    for (const l of lines) {
      try {
        parsed.push(JSON.parse(l) as DeliveryRecord);
      } catch {
        // a torn last line after a crash: skip it
      }
    }
    this.ring = parsed.slice(-this.cap);
    this.head = 0;
    this.ordered = undefined;
    return this.ring.length;
  }

  get size(): number {
    return this.ring.length;
  }

  add(record: DeliveryRecord): void {
    if (this.ring.length < this.cap) this.ring.push(record);
    else {
      this.ring[this.head] = record;
      this.head = (this.head + 1) % this.cap;
    }
    this.ordered = undefined;
    this.emit('added', record);
    if (this.file) this.persist(record);
  }

  /** Oldest first; built once per change, so repeated reads are cheap. */
  all(): readonly DeliveryRecord[] {
    this.ordered ??= this.head === 0 ? this.ring.slice() : [...this.ring.slice(this.head), ...this.ring.slice(0, this.head)];
    return this.ordered;
  }

  find(id: string): DeliveryRecord | undefined {
    return this.ring.find((r) => r.id === id);
  }

  query(q: DeliveryQuery): DeliveryRecord[] {
    const text = q.text?.toLowerCase();
    return this.all().filter(
      (r) =>
        (q.topic === undefined || r.topic === q.topic) &&
        (q.status === undefined || r.status === q.status) &&
        (q.runId === undefined || r.runId === q.runId) &&
        (q.verified === undefined || r.verified === q.verified) &&
        (!text ||
          r.path.toLowerCase().includes(text) ||
          Object.values(r.headers).some((v) => v.toLowerCase().includes(text)) ||
          (r.bodyIsUtf8 && Buffer.from(r.rawBodyBase64, 'base64').toString('utf8').toLowerCase().includes(text))),
    );
  }

  clear(): void {
    this.ring = [];
    this.head = 0;
    this.ordered = undefined;
    if (this.file) this.enqueue(() => writeFile(this.file!, ''));
    this.linesInFile = 0;
  }

  /** Resolves when every write so far has reached the file (or failed and been reported). */
  flush(): Promise<void> {
    return this.writes;
  }

  private persist(record: DeliveryRecord): void {
    this.linesInFile++;
    // Keep the file bounded too: rewrite it with the newest records once it holds twice the cap.
    if (this.linesInFile > 2 * this.cap) {
      const all = this.all();
      const snapshot = all.map((r) => JSON.stringify(r) + '\n').join('');
      this.linesInFile = all.length;
      this.enqueue(() => writeFile(this.file!, snapshot));
    } else this.enqueue(() => appendFile(this.file!, JSON.stringify(record) + '\n'));
  }

  private enqueue(op: () => Promise<void>): void {
    // A failed write (full disk, read-only folder) is reported; the record stays in memory.
    this.writes = this.writes.then(op).catch((err: Error) => {
      this.emit('error-persisting', err);
    });
  }
}
