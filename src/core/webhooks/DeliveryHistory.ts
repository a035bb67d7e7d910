// Every request the receiver saw, refused ones too, bounded in bytes in memory and on disk (docs/design.md).
// - A body is kept once: its raw bytes, or an ASCII body's text (keptBytes.ts); base64, parsed JSON and text views
//   are derived when read.
// - Bodies above a threshold stay on disk (in the history file) and are read on demand.
// - A refused request keeps only a prefix of its body, with the size and SHA-256 of the whole.
// - add() resolves once the record reached the OS, so a caller can acknowledge only what a crash cannot lose.
// - The file is read line by line, torn lines are skipped and reported once, and it is compacted by writing a new
//   file and renaming it over the old one.
import { rm } from 'node:fs/promises';
import { AppendFile, leftoverOf, readLines, rewriteFile } from './historyFile';
import { HistoryInUse, HistoryLock } from './historyLock';
import { DEDUPE_CAP, DedupeSet } from './DedupeSet';
import { acknowledgedKey, type DeliveryRecord } from './deliveryRecord';
import {
  acknowledgedLine,
  bodyOfLine,
  parseAcknowledgedLine,
  parseLine,
  parseReplayedLine,
  replayedLine,
  serializeLine,
} from './historyLine';
import { keptBuffer, type KeptBytes } from './keptBytes';
import { DEFAULT_REPLAY_LOG_BYTES, ReplayLog, type ReplayAnswer } from './replayLog';
import { TypedEmitter } from '../events/TypedEmitter';
import { said, saidLength, saidOf, type Said } from '../presentation/said';

export interface DeliveryQuery {
  topic?: string;
  status?: number;
  runId?: string;
  verified?: boolean;
}

export interface DeliveryHistoryOptions {
  /** The JSON-lines file; without one the history lives in memory only. */
  file?: string;
  /** Bytes the history may hold in memory (records and inline bodies). */
  memoryBudgetBytes?: number;
  /** Bytes the file may reach before it is compacted; the records kept on disk stay under half of it. */
  diskBudgetBytes?: number;
  /** Bodies above this stay on disk and are read on demand (only with a file). */
  inlineBodyBytes?: number;
  /** What this process is, written in the file's lock so another one finding it held can say who holds it. */
  holderName?: string;
}

export const DEFAULT_HISTORY_MEMORY_BYTES = 64 * 1024 * 1024;
const DEFAULT_HISTORY_DISK_BYTES = 256 * 1024 * 1024;
export const DEFAULT_INLINE_BODY_BYTES = 64 * 1024;
/** What a refused request keeps of its body. */
export const REFUSED_BODY_PREFIX_BYTES = 4096;
/** Refused requests may hold at most this share of the memory budget, so a flood cannot push out real deliveries. */
const REFUSED_SHARE = 0.25;
/** Estimated bytes of a record's objects beyond its serialized text. */
const RECORD_OVERHEAD_BYTES = 512;

interface Batch {
  lines: Buffer[];
  entries: Entry[];
  /** Resolves once every line of the batch reached the OS. */
  written: Promise<void>;
}

interface Entry {
  record: DeliveryRecord;
  /** The kept body bytes when they are held in memory. */
  inline?: KeptBytes;
  /** Where the record's line is in the file. */
  line?: { offset: number; length: number };
  memoryBytes: number;
  evicted: boolean;
  /** Its line waits in a batch: compaction leaves it to that write. */
  pending?: boolean;
}

export interface LoadReport {
  loaded: number;
  /** Lines that could not be read (torn by a crash, or garbage). */
  skipped: number;
}

export interface DeliveryHistoryEvents {
  /** Something the user should know, the history going on (unreadable lines skipped, a compaction that failed). */
  warning: [Said];
  /** A write failed: its records stay in memory. */
  'error-persisting': [Error];
  /** A write succeeded after one had failed. */
  'persisting-again': [];
  /** The file was compacted (its new length in bytes). */
  compacted: [number];
}

export class DeliveryHistory extends TypedEmitter<DeliveryHistoryEvents> {
  private entries: Entry[] = [];
  private holes = 0;
  /** entries[head] is the oldest record not yet evicted, or before it. */
  private head = 0;
  /** Refused records, oldest first, from refusedHead on (some may be evicted already). */
  private refused: Entry[] = [];
  private refusedHead = 0;
  /** Records by id, built when first asked for (the panel's detail and actions, the Receiver view, body reads), then
   * kept up to date: a receiver nobody looks at does not index its deliveries. */
  private byId?: Map<string, Entry>;
  private ordered?: DeliveryRecord[];
  private memoryBytes = 0;
  private refusedBytes = 0;
  private liveDiskBytes = 0;
  private appender?: AppendFile;
  private opening?: Promise<AppendFile | undefined>;
  /** The file's lock, taken before the file is first read or written (see historyLock.ts). */
  private claiming?: Promise<HistoryLock>;
  /** Set when another process holds the file: the history then lives in memory only. */
  private refusedBy?: HistoryInUse;
  /** File operations, one at a time: appends, reads, compaction, clear. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Records waiting for the next write. */
  private batch?: Batch;
  /** The last write failed ('error-persisting'); the next that succeeds says so ('persisting-again'). */
  private writeFailing = false;
  /** Dedupe keys of acknowledged deliveries whose records were dropped (by the budgets, or from the file before this
   * run): the receiver's dedupe set outlives them, and so must the history's memory of them. At most DEDUPE_CAP keys
   * of at most 128 characters each (dedupeKey). */
  private readonly forgotten = new DedupeSet(DEDUPE_CAP);
  /** The apps' answers to replays, within the memory budget (a sixteenth of it at most); with a file, a line each. */
  private readonly replays: ReplayLog;
  readonly memoryBudgetBytes: number;
  readonly diskBudgetBytes: number;
  private readonly inlineBodyBytes: number;

  constructor(private readonly options: DeliveryHistoryOptions = {}) {
    super();
    this.memoryBudgetBytes = options.memoryBudgetBytes ?? DEFAULT_HISTORY_MEMORY_BYTES;
    this.diskBudgetBytes = options.diskBudgetBytes ?? DEFAULT_HISTORY_DISK_BYTES;
    this.inlineBodyBytes = options.inlineBodyBytes ?? DEFAULT_INLINE_BODY_BYTES;
    this.replays = new ReplayLog(
      Math.max(1, Math.min(DEFAULT_REPLAY_LOG_BYTES, Math.floor(this.memoryBudgetBytes / 16))),
    );
  }

  /** The file the history is kept in; undefined in memory only, including when another process holds it. */
  get file(): string | undefined {
    return this.refusedBy ? undefined : this.options.file;
  }

  /** Why the file given is not used: another process holds it (its pid), so the history is in memory only. */
  get fileInUse(): HistoryInUse | undefined {
    return this.refusedBy;
  }

  get size(): number {
    return this.entries.length - this.holes;
  }

  /** Bytes held in memory, as the budget counts them. */
  get bytesInMemory(): number {
    return this.memoryBytes + this.replays.bytes;
  }

  /** Keeps what an app answered to a replay sent to it directly (the receiver records no delivery of it), so
   * appAcknowledged knows the app acknowledged that webhookId. */
  replayAnswered(answer: ReplayAnswer): void {
    const kept = this.replays.record(answer);
    this.evict();
    const file = this.file;
    if (!file || !kept) return;
    const line = Buffer.concat([replayedLine(kept), Buffer.from('\n')]);
    // Kept in memory whatever happens to the write: it is a hint for the next replay, not a delivery.
    void this.enqueue(async () => {
      const appender = await this.openAppender();
      if (!appender) return;
      await appender.append([line]);
      if (appender.length > this.diskBudgetBytes) await this.compact();
    }).catch((err: Error) =>
      this.emit(
        'warning',
        said("a replay's answer could not be written to {0} ({1}); it is kept in memory", file, saidOf(err)),
      ),
    );
  }

  /** The apps' answers to replays, oldest first (bounded: the oldest are forgotten first). */
  replayAnswers(): readonly ReplayAnswer[] {
    return this.replays.all();
  }

  /** Bytes of the file (records kept, and older ones until the next compaction). */
  get bytesOnDisk(): number {
    return this.appender?.length ?? 0;
  }

  /** Reads the file line by line: the newest records that fit the budgets are kept. Unreadable lines are skipped,
   * counted, and reported once with a 'warning' event; the file is then compacted if it holds any. */
  async load(): Promise<LoadReport> {
    const file = this.file;
    if (!file) return { loaded: 0, skipped: 0 };
    return this.enqueue(async () => {
      // Another process's file is neither read nor written: HistoryInUse, and the history is in memory from now on.
      await this.claim(file);
      await rm(leftoverOf(file), { force: true });
      let skipped = 0;
      // A file edited by hand may repeat an id: the later line replaces the older one.
      const loaded = new Map<string, Entry>();
      try {
        for await (const { bytes, offset } of readLines(file)) {
          if (bytes.length === 0) continue;
          const keys = parseAcknowledgedLine(bytes);
          if (keys) {
            for (const k of keys) this.forgotten.add(k);
            continue;
          }
          const replayed = parseReplayedLine(bytes);
          if (replayed) {
            this.replays.record(replayed);
            continue;
          }
          const parsed = parseLine(bytes, this.inlineBodyBytes);
          if (!parsed) {
            skipped++;
            continue;
          }
          const previous = loaded.get(parsed.record.id);
          if (previous) this.drop(previous);
          loaded.set(
            parsed.record.id,
            this.insert(parsed.record, parsed.inline, parsed.metaBytes, { offset, length: bytes.length }),
          );
        }
        this.appender = await AppendFile.open(file);
      } catch (err) {
        // Nothing half-loaded: a later load() starts again from the file.
        for (const e of loaded.values()) this.drop(e);
        this.forgotten.clear();
        this.replays.clear();
        throw err;
      }
      if (skipped > 0)
        this.emit(
          'warning',
          skipped === 1
            ? said('1 unreadable line in {0} (torn by a crash, or not a record) was skipped', file)
            : said('{0} unreadable lines in {1} (torn by a crash, or not a record) were skipped', skipped, file),
        );
      if (skipped > 0 || this.appender.length > this.diskBudgetBytes) {
        // Loaded, the history works without it: a full disk must not stop the receiver from starting.
        await this.compact().catch((err: Error) =>
          this.emit(
            'warning',
            said(
              '{0} could not be compacted ({1}); it is tried again when it next outgrows its budget, or at the next start',
              file,
              saidOf(err),
            ),
          ),
        );
      }
      return { loaded: this.size, skipped };
    });
  }

  /**
   * Adds a record with the body bytes it keeps (all, or a refused request's prefix). It is in memory at once; with a
   * file, the returned promise resolves once its line reached the OS, and rejects if it could not be written (the
   * record stays in memory either way). Without a file there is nothing to wait for: undefined, so a caller answers
   * at once rather than a microtask later. The record's id must be new to the history (the Receiver's never repeat).
   * asciiText: kept decoded as UTF-8 (the receiver decodes a body to parse it). Held in memory instead of the Buffer
   * when it shows every byte is ASCII: as many characters as bytes, and no U+FFFD, which an invalid byte decodes to
   * (keptBytes.ts).
   */
  add(record: DeliveryRecord, kept: Buffer, asciiText?: string): Promise<void> | undefined {
    const file = this.file;
    const line = file ? serializeLine(record, kept) : undefined;
    const metaBytes = line ? line.length - Math.ceil(kept.length / 3) * 4 : estimateMetaBytes(record);
    const entry = this.insert(
      record,
      !file || kept.length <= this.inlineBodyBytes
        ? asciiText !== undefined && asciiText.length === kept.length && !asciiText.includes('\uFFFD')
          ? asciiText
          : kept
        : undefined,
      metaBytes,
      undefined,
      kept,
    );
    if (!file || !line) return undefined;
    // Group commit: records added while a write is under way go out together in the next one, one writev for
    // the lot, so a burst pays the file system's round trip once per batch rather than once per delivery.
    let batch = this.batch;
    if (!batch) {
      const opened: Batch = { lines: [], entries: [], written: Promise.resolve() };
      opened.written = this.enqueue(() => this.writeBatch(opened));
      // Rejected for every record of the batch, reported once.
      opened.written.catch((err: Error) => {
        this.writeFailing = true;
        this.emit('error-persisting', err);
      });
      batch = this.batch = opened;
    }
    batch.lines.push(line);
    batch.entries.push(entry);
    entry.pending = true;
    return batch.written;
  }

  /** Writes a batch of lines (inside the queue); from the moment it starts, new records open the next batch. */
  private async writeBatch(batch: Batch): Promise<void> {
    if (this.batch === batch) this.batch = undefined;
    const lines: Buffer[] = [];
    const entries: Entry[] = [];
    batch.entries.forEach((e, i) => {
      e.pending = false;
      if (e.evicted) return;
      lines.push(batch.lines[i]!);
      entries.push(e);
    });
    if (lines.length === 0) return;
    const appender = await this.openAppender();
    if (!appender) throw new Error(`the history file ${this.options.file} could not be opened`);
    let offset = await appender.append(lines);
    if (this.writeFailing) {
      this.writeFailing = false;
      this.emit('persisting-again');
    }
    entries.forEach((entry, i) => {
      const line = lines[i]!;
      entry.line = { offset, length: line.length - 1 };
      offset += line.length;
      this.liveDiskBytes += line.length;
      // Written, the body need not stay in memory: large ones are read back from the file on demand.
      if (entry.inline !== undefined && entry.inline.length > this.inlineBodyBytes) {
        this.memoryBytes -= entry.inline.length;
        if (!entry.record.verified) this.refusedBytes -= entry.inline.length;
        entry.memoryBytes -= entry.inline.length;
        entry.inline = undefined;
      }
    });
    this.evict();
    if (appender.length > this.diskBudgetBytes) await this.compact();
  }

  /** Oldest first; built once per change, so repeated reads are cheap. */
  all(): readonly DeliveryRecord[] {
    this.ordered ??= this.entries.filter((e) => !e.evicted).map((e) => e.record);
    return this.ordered;
  }

  /** The dedupe keys of the deliveries this history saw acknowledged (verified, answered 2xx), oldest first: those
   * whose records were dropped to keep the budgets (kept in the file by compaction), then those it holds. A
   * receiver started on this history seeds its dedupe set with them. */
  acknowledgedKeys(): string[] {
    const keys = this.forgotten.keys();
    for (const r of this.all()) {
      const key = acknowledgedKey(r);
      if (key !== undefined) keys.push(key);
    }
    return keys;
  }

  find(id: string): DeliveryRecord | undefined {
    return this.index().get(id)?.record;
  }

  query(q: DeliveryQuery): DeliveryRecord[] {
    return this.all().filter(
      (r) =>
        (q.topic === undefined || r.topic === q.topic) &&
        (q.status === undefined || r.status === q.status) &&
        (q.runId === undefined || r.runId === q.runId) &&
        (q.verified === undefined || r.verified === q.verified),
    );
  }

  /** The body bytes kept for a record: from memory, or read from the file. Undefined when the record is gone. */
  async body(id: string): Promise<Buffer | undefined> {
    const entry = this.index().get(id);
    if (!entry) return undefined;
    if (entry.inline !== undefined) return keptBuffer(entry.inline);
    return this.enqueue(async () => {
      if (entry.inline !== undefined) return keptBuffer(entry.inline);
      if (!entry.line || !this.appender) return undefined;
      const bytes = await this.appender.read(entry.line.offset, entry.line.length);
      return bodyOfLine(bytes);
    });
  }

  /** Forgets every record and erases the file. */
  async clear(): Promise<void> {
    // Records still waiting for their write are not written: the file is about to be erased.
    for (const e of this.entries) e.evicted = true;
    this.batch = undefined;
    this.entries = [];
    this.holes = this.head = this.refusedHead = 0;
    this.refused = [];
    this.byId = undefined;
    this.ordered = undefined;
    this.memoryBytes = this.refusedBytes = this.liveDiskBytes = 0;
    this.forgotten.clear();
    this.replays.clear();
    const file = this.file;
    if (file)
      await this.enqueue(async () => {
        await this.appender?.close();
        this.appender = undefined;
        await rewriteFile(file, []);
        this.appender = await AppendFile.open(file);
      });
  }

  /** Resolves when every file operation so far has finished. */
  async flush(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.appender?.close();
    this.appender = undefined;
    const lock = this.claiming;
    this.claiming = undefined;
    await lock?.then(
      (l) => l.release(),
      () => undefined,
    );
  }

  private insert(
    record: DeliveryRecord,
    inline: KeptBytes | undefined,
    metaBytes: number,
    line?: Entry['line'],
    pending?: KeptBytes,
  ): Entry {
    // A body waiting for its write is held until it is written (then dropped if large).
    const held = inline ?? pending;
    const memoryBytes = RECORD_OVERHEAD_BYTES + 2 * metaBytes + (held?.length ?? 0);
    const entry: Entry = { record, inline: held, line, memoryBytes, evicted: false };
    this.entries.push(entry);
    this.byId?.set(record.id, entry);
    this.memoryBytes += memoryBytes;
    if (!record.verified) {
      this.refusedBytes += memoryBytes;
      this.refused.push(entry);
    }
    if (line) this.liveDiskBytes += line.length + 1;
    this.ordered = undefined;
    this.evict();
    return entry;
  }

  /** Drops the oldest records until both budgets hold; refused ones first while they exceed their share. Both
   * walks start where the last one stopped, so a full history costs O(1) per added record, not a scan. */
  private evict(): void {
    while (
      this.refusedBytes > this.memoryBudgetBytes * REFUSED_SHARE &&
      this.refusedHead < this.refused.length &&
      this.size > 1
    ) {
      this.drop(this.refused[this.refusedHead++]!);
    }
    while (
      (this.bytesInMemory > this.memoryBudgetBytes || this.liveDiskBytes > this.diskBudgetBytes / 2) &&
      this.size > 1
    ) {
      while (this.entries[this.head]!.evicted) this.head++;
      this.drop(this.entries[this.head]!);
    }
    // Records evicted by age are refused ones too: step past them, so neither list holds what is gone.
    while (this.refused[this.refusedHead]?.evicted) this.refusedHead++;
    if (this.holes > 64 && this.holes > this.entries.length / 2) {
      this.entries = this.entries.filter((e) => !e.evicted);
      this.holes = 0;
      this.head = 0;
    }
    if (this.refusedHead > 64 && this.refusedHead > this.refused.length / 2) {
      this.refused = this.refused.slice(this.refusedHead).filter((e) => !e.evicted);
      this.refusedHead = 0;
    }
  }

  private drop(e: Entry): void {
    if (e.evicted) return;
    e.evicted = true;
    this.holes++;
    if (this.byId?.get(e.record.id) === e) this.byId.delete(e.record.id);
    this.memoryBytes -= e.memoryBytes;
    if (!e.record.verified) this.refusedBytes -= e.memoryBytes;
    if (e.line) this.liveDiskBytes -= e.line.length + 1;
    e.inline = undefined;
    this.ordered = undefined;
    const key = acknowledgedKey(e.record);
    if (key !== undefined) this.forgotten.add(key);
  }

  /** Rewrites the file with the records still kept (inside the queue). */
  private async compact(): Promise<void> {
    const file = this.options.file!;
    const appender = await this.openAppender();
    const live = this.entries.filter((e) => !e.evicted && (e.line || (e.inline !== undefined && !e.pending)));
    const ack = acknowledgedLine(this.forgotten.keys(), this.diskBudgetBytes / 4);
    const replayed = replayedLines(this.replays.all(), this.diskBudgetBytes / 8);
    // Each kept line is copied from the old file (or written from memory when its append had failed).
    const lengths: number[] = [];
    const written = await rewriteFile(
      file,
      (async function* (): AsyncGenerator<Buffer> {
        if (ack) yield ack;
        yield* replayed;
        for (const e of live) {
          const line =
            e.line && appender
              ? await appender.read(e.line.offset, e.line.length)
              : serializeLine(e.record, e.inline!).subarray(0, -1);
          lengths.push(line.length);
          yield line;
        }
      })(),
    );
    const offsets = written.slice((ack ? 1 : 0) + replayed.length);
    // Renamed: the records are at their new offsets, whatever happens next; a handle that fails to open is opened
    // again by the next operation rather than left closed.
    await appender?.close();
    this.appender = undefined;
    this.liveDiskBytes = 0;
    live.forEach((e, i) => {
      e.line = { offset: offsets[i], length: lengths[i] };
      this.liveDiskBytes += lengths[i] + 1;
    });
    this.appender = await AppendFile.open(file);
    this.emit('compacted', this.appender.length);
  }

  private index(): Map<string, Entry> {
    if (!this.byId) {
      this.byId = new Map();
      for (const e of this.entries) if (!e.evicted) this.byId.set(e.record.id, e);
    }
    return this.byId;
  }

  private async openAppender(): Promise<AppendFile | undefined> {
    if (this.appender) return this.appender;
    const file = this.file;
    if (!file) return undefined;
    await this.claim(file);
    this.opening ??= AppendFile.open(file).finally(() => (this.opening = undefined));
    this.appender = await this.opening;
    return this.appender;
  }

  /** Takes the file's lock once; when another process holds it, remembers why and throws HistoryInUse. */
  private claim(file: string): Promise<HistoryLock> {
    this.claiming ??= HistoryLock.acquire(file, this.options.holderName).catch((err: unknown) => {
      if (err instanceof HistoryInUse) this.refusedBy = err;
      else this.claiming = undefined; // an I/O error: the next operation tries again
      throw err;
    });
    return this.claiming;
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** The lines of the newest answers whose bytes (and newlines) fit in maxBytes, oldest first: with the acknowledged
 * line (a quarter of the disk budget) and the records (under half), a compacted file stays within the budget. */
function replayedLines(answers: readonly ReplayAnswer[], maxBytes: number): Buffer[] {
  const lines: Buffer[] = [];
  let bytes = 0;
  for (let i = answers.length - 1; i >= 0; i--) {
    const line = replayedLine(answers[i]!);
    if (bytes + line.length + 1 > maxBytes) break;
    bytes += line.length + 1;
    lines.push(line);
  }
  return lines.reverse();
}

/** Without a file nothing is serialized: a cheap estimate of a record's size from its strings. */
function estimateMetaBytes(r: DeliveryRecord): number {
  let n = 200 + r.path.length;
  for (const k in r.headers) n += k.length + r.headers[k]!.length + 8;
  for (const c of r.checks) n += c.name.length + (c.detail?.length ?? 0) + saidLength(c.said) + 24;
  n += saidLength(r.noteSaid);
  if (r.jwt) n += 400;
  // Each app's answer: up to 4 KiB of body (base64 when binary) and its headers.
  for (const f of r.forwards ?? []) {
    n +=
      120 +
      f.target.length +
      (f.body?.length ?? 0) * 2 +
      (f.bodyBase64?.length ?? 0) +
      (f.bodyWithheld?.length ?? 0) +
      (f.error?.length ?? 0) +
      saidLength(f.errorSaid);
    for (const k in f.headers) n += k.length + f.headers[k]!.length + 8;
  }
  return n;
}
