// The delivery history's file: JSON lines, appended through one handle, read back line by line with each line's
// byte offset (never as one string), and rewritten by writing a new file and renaming it over the old one, so a
// crash at any moment leaves either the old file or the new one whole.
import { createReadStream } from 'node:fs';
import { stat, type FileHandle } from 'node:fs/promises';
import { openForAppend, replaceFileAtomically } from '../files';

export interface LineAt {
  /** The line's bytes, without its newline. */
  bytes: Buffer;
  offset: number;
}

/** Longest line read back: a line past this (garbage, or a file that is not ours) is skipped, not buffered. */
export const MAX_LINE_BYTES = 160 * 1024 * 1024;

/** Reads the file's lines in order with their offsets; a file that does not exist has none. */
export async function* readLines(file: string): AsyncGenerator<LineAt> {
  let stream;
  try {
    await stat(file);
    stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  let parts: Buffer[] = [];
  let partBytes = 0;
  let lineStart = 0;
  let position = 0;
  let overlong = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      if (nl < 0) break;
      const piece = chunk.subarray(from, nl);
      if (!overlong) {
        const bytes = parts.length ? Buffer.concat([...parts, piece]) : piece;
        yield { bytes, offset: lineStart };
      }
      parts = [];
      partBytes = 0;
      overlong = false;
      lineStart = position + nl + 1;
      from = nl + 1;
    }
    const rest = chunk.subarray(from);
    if (rest.length && !overlong) {
      partBytes += rest.length;
      if (partBytes > MAX_LINE_BYTES) {
        overlong = true;
        parts = [];
      } else parts.push(Buffer.from(rest));
    }
    position += chunk.length;
  }
  // A last line without its newline is torn (the process died mid-write): it is yielded, and fails to parse.
  if (!overlong && partBytes > 0) yield { bytes: Buffer.concat(parts), offset: lineStart };
}

/** Deliveries may carry customer data: a history file this process creates is readable by its owner only, never by
 * another local user (a umask of 022 would otherwise make it world-readable). An existing file keeps the mode its
 * owner gave it: this process never changes it (see fileModeWarning). */
export const HISTORY_FILE_MODE = 0o600;

/** A history file whose mode lets nobody write it: its owner marked it read-only, which root would not be stopped
 * by, so it is refused rather than written (or made writable). */
export class ReadOnlyHistoryFile extends Error {
  readonly code = 'EREADONLY';
  constructor(
    readonly file: string,
    readonly mode: number,
  ) {
    super(
      `is read-only (mode ${octal(mode)}) and is left as it is: make it writable (chmod u+w ${file}) to keep the history in it`,
    );
    this.name = 'ReadOnlyHistoryFile';
  }
}

/** "0644" */
export function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** Throws ReadOnlyHistoryFile when `file` exists and its mode lets nobody write it. */
async function refuseReadOnly(file: string): Promise<void> {
  const st = await stat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (st && (st.mode & 0o222) === 0) throw new ReadOnlyHistoryFile(file, st.mode);
}

/** What to tell the user about an existing file other users may read (the mode is theirs to change, not ours). */
export function fileModeWarning(file: string, mode: number): string | undefined {
  if ((mode & 0o077) === 0) return undefined;
  return `is readable by other users (mode ${octal(mode)}), and deliveries may carry customer data: it is left as it is; run chmod 600 ${file} to keep it to yourself`;
}

/** An append-only handle that knows the file's length, so every line's offset is known as it is written. */
export class AppendFile {
  private torn = false;

  private constructor(
    private handle: FileHandle,
    public length: number,
  ) {}

  /** Opens for appending. A last line left torn by a crash is ended first, so the next record starts on a line of
   * its own instead of being glued onto the torn one. */
  static async open(file: string): Promise<AppendFile> {
    await refuseReadOnly(file);
    // Never through a link at the path (#74). Made here: 0600 whatever the umask. Found: opened as it is, its mode
    // untouched.
    const { handle, created } = await openForAppend(file, { mode: HISTORY_FILE_MODE, read: true });
    if (created) await handle.chmod(HISTORY_FILE_MODE).catch(() => undefined);
    try {
      const { size } = await handle.stat();
      const f = new AppendFile(handle, size);
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 10) await f.writeAll([NEWLINE]);
      }
      return f;
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Writes lines at the end with as few system calls as it can (one writev per batch); resolves with the offset
   * of the first once the OS has them all (a crash of this process after that loses nothing). */
  async append(lines: readonly Buffer[]): Promise<number> {
    // A write that failed part-way left a torn line: the next one starts on a line of its own.
    if (this.torn) await this.writeAll([NEWLINE]);
    this.torn = false;
    const offset = this.length;
    for (let from = 0; from < lines.length; from += WRITEV_MAX)
      await this.writeAll(lines.slice(from, from + WRITEV_MAX));
    return offset;
  }

  private async writeAll(bufs: Buffer[]): Promise<void> {
    let left = bufs.reduce((n, b) => n + b.length, 0);
    const start = this.length;
    try {
      while (left > 0) {
        const { bytesWritten } = await this.handle.writev(bufs);
        left -= bytesWritten;
        this.length += bytesWritten;
        if (left > 0) bufs = remainderAfter(bufs, bytesWritten);
      }
    } catch (err) {
      if (this.length !== start) this.torn = true;
      throw err;
    }
  }

  async read(offset: number, length: number): Promise<Buffer> {
    const buf = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await this.handle.read(buf, got, length - got, offset + got);
      if (bytesRead === 0)
        throw new Error(`the history file ended at ${offset + got} bytes; expected ${offset + length}`);
      got += bytesRead;
    }
    return buf;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/**
 * Replaces `file` with the given lines: written to a new file, flushed to disk, then renamed over the old one.
 * `lines` yields each line's bytes (without newline); returns the new offsets in the same order.
 */
export async function rewriteFile(file: string, lines: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<number[]> {
  // The new file takes the old one's mode, so a compaction changes no one's access to the history.
  const mode = await stat(file).then(
    (st) => st.mode & 0o7777,
    () => HISTORY_FILE_MODE,
  );
  const offsets: number[] = [];
  // Written new at the leftover's name (a link planted there is removed, not followed), renamed over a history file
  // that is not a link (#74).
  await replaceFileAtomically(
    file,
    async (handle) => {
      await handle.chmod(mode).catch(() => undefined);
      let position = 0;
      for await (const line of lines) {
        offsets.push(position);
        const withNewline = Buffer.concat([line, NEWLINE]);
        let written = 0;
        while (written < withNewline.length)
          written += (await handle.write(withNewline, written, withNewline.length - written, position + written))
            .bytesWritten;
        position += withNewline.length;
      }
    },
    { mode: HISTORY_FILE_MODE, temp: leftoverOf(file), sync: true },
  );
  return offsets;
}

/** A rewrite that never reached its rename leaves this file behind; it is never read. */
export function leftoverOf(file: string): string {
  return `${file}.compacting`;
}

const NEWLINE = Buffer.from('\n');

/** Buffers per writev: well under every system's IOV_MAX (1024 on Linux). */
const WRITEV_MAX = 256;

/** What is left of `bufs` once its first `n` bytes are written (a short write). */
export function remainderAfter(bufs: readonly Buffer[], n: number): Buffer[] {
  let i = 0;
  while (n >= bufs[i]!.length) n -= bufs[i++]!.length;
  return [bufs[i]!.subarray(n), ...bufs.slice(i + 1)];
}
