// The deliveries of a receiver running in another process (`wfs listen --log FILE`, or a VS Code window), read from
// its history file without touching it: opened read-only, no lock taken (the writer holds `<file>.lock`), nothing
// renamed, chmod-ed or removed. Each read takes what was appended since the last one; a file replaced by the
// writer's compaction (a new inode) or cut shorter is read again from the start. Bounded in bytes in memory, as the
// writer's own history is: the oldest records are dropped first.
import { open, stat } from 'node:fs/promises';
import type { Clock, TimerHandle } from '../time/clock';
import type { DeliveryRecord } from '../webhooks/deliveryRecord';
import { MAX_LINE_BYTES } from '../webhooks/historyFile';
import { bodyOfLine, parseAcknowledgedLine, parseLine, parseReplayedLine } from '../webhooks/historyLine';
import { ReplayLog, type ReplayAnswer } from '../webhooks/replayLog';
import { DEFAULT_HISTORY_MEMORY_BYTES, DEFAULT_INLINE_BODY_BYTES } from '../webhooks/DeliveryHistory';
import type { DeliverySource } from './assistantContext';

export interface HistoryFileReaderOptions {
  file: string;
  clock: Clock;
  /** Bytes the records and bodies read may hold (default: the writer's default budget). */
  memoryBudgetBytes?: number;
  /** Bodies above this are read from the file when asked for. */
  inlineBodyBytes?: number;
  /** How often the file is looked at while someone waits for a delivery. */
  pollMs?: number;
}

interface Entry {
  record: DeliveryRecord;
  inline?: Buffer;
  /** Where its line is, in the file as it was when read (identity). */
  line: { offset: number; length: number; identity: string };
  bytes: number;
}

/** Bytes read from the file in one go. */
const CHUNK_BYTES = 1024 * 1024;
/** Estimated bytes of a record's objects beyond its line. */
const ENTRY_OVERHEAD_BYTES = 512;

export class HistoryFileReader implements DeliverySource {
  private entries = new Map<string, Entry>();
  private ordered?: DeliveryRecord[];
  private bytes = 0;
  /** The file read so far: its identity (device and inode) and the offset just past the last whole line. */
  private identity?: string;
  private offset = 0;
  private refreshing?: Promise<void>;
  private missing = false;
  private readonly listeners = new Set<() => void>();
  /** This process's replays: the file is another's and never written, so they are held here, in memory. */
  private readonly replayLog = new ReplayLog();
  /** The replays the writer kept in the file (its panel's, its assistant's), read as its records are. */
  private readonly fileReplays = new ReplayLog();
  private timer?: TimerHandle;
  private lastSeen = '';
  private readonly budget: number;
  private readonly inlineLimit: number;

  constructor(private readonly options: HistoryFileReaderOptions) {
    this.budget = options.memoryBudgetBytes ?? DEFAULT_HISTORY_MEMORY_BYTES;
    this.inlineLimit = options.inlineBodyBytes ?? DEFAULT_INLINE_BODY_BYTES;
  }

  get description(): string {
    return this.missing
      ? `the history file ${this.options.file} (read-only; it does not exist yet: \`wfs listen --log ${this.options.file}\` writes it)`
      : `the history file ${this.options.file} (read-only)`;
  }

  async records(): Promise<readonly DeliveryRecord[]> {
    await this.refresh();
    this.ordered ??= [...this.entries.values()].map((e) => e.record);
    return this.ordered;
  }

  async body(id: string): Promise<Buffer | undefined> {
    await this.refresh();
    const e = this.entries.get(id);
    if (!e) return undefined;
    if (e.inline) return e.inline;
    if (e.line.identity !== this.identity) return undefined;
    const handle = await open(this.options.file, 'r').catch(() => undefined);
    if (!handle) return undefined;
    try {
      // The file may have been replaced between the refresh and this read: its identity is checked again.
      if (identityOf(await handle.stat()) !== e.line.identity) return undefined;
      const buf = Buffer.alloc(e.line.length);
      const { bytesRead } = await handle.read(buf, 0, e.line.length, e.line.offset);
      return bytesRead === e.line.length ? bodyOfLine(buf) : undefined;
    } finally {
      await handle.close();
    }
  }

  /** The writer's replays as of the last read (records() reads first), then this process's own. */
  replays(): readonly ReplayAnswer[] {
    return [...this.fileReplays.all(), ...this.replayLog.all()];
  }

  replayed(answer: ReplayAnswer): void {
    this.replayLog.record(answer);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) this.schedule();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.options.clock.clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => void this.poll(), this.options.pollMs ?? 250);
  }

  /** Looks at the file's size and identity; a change is news for the listeners. */
  private async poll(): Promise<void> {
    const seen = await stat(this.options.file).then(
      (s) => `${identityOf(s)}:${s.size}`,
      () => 'missing',
    );
    if (seen !== this.lastSeen) {
      this.lastSeen = seen;
      for (const l of [...this.listeners]) l();
    }
    if (this.listeners.size > 0) this.schedule();
  }

  /** Reads what the file gained since the last read, one read at a time. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.readNew().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async readNew(): Promise<void> {
    let handle;
    try {
      handle = await open(this.options.file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.missing = true;
      this.reset(undefined);
      return;
    }
    this.missing = false;
    try {
      const st = await handle.stat();
      const identity = identityOf(st);
      if (identity !== this.identity || st.size < this.offset) this.reset(identity);
      let position = this.offset;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let overlong = false;
      while (position < st.size) {
        const want = Math.min(CHUNK_BYTES, st.size - position);
        const chunk = Buffer.alloc(want);
        const { bytesRead } = await handle.read(chunk, 0, want, position);
        if (bytesRead === 0) break;
        let from = 0;
        const data = chunk.subarray(0, bytesRead);
        for (;;) {
          const nl = data.indexOf(10, from);
          if (nl < 0) break;
          const piece = data.subarray(from, nl);
          const lineStart = position + from - pendingBytes;
          if (!overlong) this.take(pending.length ? Buffer.concat([...pending, piece]) : piece, lineStart, identity);
          pending = [];
          pendingBytes = 0;
          overlong = false;
          from = nl + 1;
          this.offset = position + from;
        }
        const rest = data.subarray(from);
        if (rest.length) {
          pendingBytes += rest.length;
          if (pendingBytes > MAX_LINE_BYTES) overlong = true;
          if (!overlong) pending.push(Buffer.from(rest));
          else pending = [];
        }
        position += bytesRead;
      }
      // A line still being written stays unread until its newline arrives.
    } finally {
      await handle.close();
    }
    this.evict();
  }

  private take(bytes: Buffer, offset: number, identity: string): void {
    if (bytes.length === 0 || parseAcknowledgedLine(bytes)) return;
    const replayed = parseReplayedLine(bytes);
    if (replayed) {
      this.fileReplays.record(replayed);
      return;
    }
    const parsed = parseLine(bytes, this.inlineLimit);
    if (!parsed) return; // torn by a crash, or not a record: the writer skips it too
    const previous = this.entries.get(parsed.record.id);
    if (previous) {
      this.entries.delete(parsed.record.id);
      this.bytes -= previous.bytes;
    }
    const entry: Entry = {
      record: parsed.record,
      ...(parsed.inline ? { inline: parsed.inline } : {}),
      line: { offset, length: bytes.length, identity },
      bytes: ENTRY_OVERHEAD_BYTES + 2 * parsed.metaBytes + (parsed.inline?.length ?? 0),
    };
    this.entries.set(parsed.record.id, entry);
    this.bytes += entry.bytes;
    this.ordered = undefined;
  }

  /** Drops the oldest records until the budget holds (one is always kept). */
  private evict(): void {
    if (this.bytes <= this.budget) return;
    for (const [id, e] of this.entries) {
      if (this.bytes <= this.budget || this.entries.size <= 1) break;
      this.entries.delete(id);
      this.bytes -= e.bytes;
      this.ordered = undefined;
    }
  }

  private reset(identity: string | undefined): void {
    if (this.entries.size > 0) this.ordered = undefined;
    this.entries = new Map();
    this.fileReplays.clear();
    this.bytes = 0;
    this.offset = 0;
    this.identity = identity;
  }
}

function identityOf(s: { dev: number; ino: number }): string {
  return `${s.dev}:${s.ino}`;
}
