// One writer per history file. Two VS Code windows share the extension's global storage, and so its
// deliveries.jsonl: without this, one window's compaction renamed a new file over the one the other was appending to
// (whose acknowledged deliveries then went to a deleted file), and each one's byte offsets counted only its own
// appends. The first process to load the file holds `<file>.lock`; another gets HistoryInUse and keeps its history
// in memory. A lock whose process is gone (a crash, a kill -9), or is a zombie (killed, and not yet reaped by a
// parent that never will, as in a container whose PID 1 does not reap), is taken over.
import { randomBytes } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { openNewFile } from '../files';
import { english, said, SaidError, type Said } from '../presentation/said';

export interface LockHolder {
  pid: number;
  host: string;
  /** What the process is, for whoever finds the file held ("wfs listen", "a VS Code window"). */
  name?: string;
}

/** "wfs listen (pid 1234)", "a VS Code window (pid 1234) on build-7"; a holder that names nothing is "another
 * process". */
function describeHolder(holder: LockHolder): Said {
  // The name is the holder's own words, written into the lock file by that process.
  const name = holder.name ?? said('another process');
  return holder.host === hostname()
    ? said('{0} (pid {1})', name, holder.pid)
    : said('{0} (pid {1}) on {2}', name, holder.pid, holder.host);
}

export class HistoryInUse extends SaidError {
  constructor(
    readonly file: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      holder
        ? said(
            'in use by {0}, which keeps this history: stop it, or give another file (if no such process runs, delete {1}.lock)',
            describeHolder(holder),
            file,
          )
        : said(
            'in use by another process, which is taking it now: give another file (or delete {0}.lock if none is)',
            file,
          ),
    );
    this.name = 'HistoryInUse';
  }
}

/** Who holds the file, for a sentence: its name and pid, or "another process" while its lock is being written. */
export function historyHolderSaid(e: HistoryInUse): Said {
  return e.holder ? describeHolder(e.holder) : said('another process');
}

/** The same, in English. */
export function historyHolder(e: HistoryInUse): string {
  return english(historyHolderSaid(e));
}

/** A lock file with no holder written yet this long after it was made was left by a crash mid-write. */
const UNWRITTEN_LOCK_MS = 10_000;

export class HistoryLock {
  private constructor(
    private readonly path: string,
    private readonly token: string,
  ) {}

  static lockPath(file: string): string {
    return `${file}.lock`;
  }

  /** Takes the lock of `file`, or throws HistoryInUse naming the process that holds it. `name` says what this
   * process is, for the message another one shows. */
  static async acquire(file: string, name?: string): Promise<HistoryLock> {
    const path = HistoryLock.lockPath(file);
    const token = randomBytes(12).toString('hex');
    const mine = JSON.stringify({ pid: process.pid, host: hostname(), name, token });
    for (let attempt = 0; ; attempt++) {
      try {
        // Created new, never through a link: EEXIST when a lock (or a link) is there, a link then refused (#74).
        const handle = await openNewFile(path);
        try {
          try {
            await handle.writeFile(mine);
          } finally {
            await handle.close();
          }
        } catch (err) {
          // Not written (a full disk): left empty, the lock would read as "being taken now" to every process,
          // this one included, until it is UNWRITTEN_LOCK_MS old.
          await rm(path, { force: true }).catch(() => undefined);
          throw err;
        }
        // Two processes taking over the same stale lock at once: the one whose token is in the file holds it.
        const now = await readHolder(path);
        if (now?.token === token) return new HistoryLock(path, token);
        throw new HistoryInUse(file, now);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const holder = await readHolder(path);
        if (attempt > 0 || (await held(path, holder))) throw new HistoryInUse(file, holder);
        // Its process is gone: the lock is stale.
        await rm(path, { force: true });
      }
    }
  }

  /** Gives the lock up, unless another process has taken it over meanwhile. */
  async release(): Promise<void> {
    const now = await readHolder(this.path).catch(() => undefined);
    if (now?.token === this.token) await rm(this.path, { force: true });
  }
}

async function readHolder(path: string): Promise<(LockHolder & { token?: string }) | undefined> {
  try {
    const o = JSON.parse(await readFile(path, 'utf8')) as {
      pid?: unknown;
      host?: unknown;
      name?: unknown;
      token?: unknown;
    };
    if (typeof o.pid !== 'number' || typeof o.host !== 'string') return undefined;
    // The name is shown in messages: a lock file is anyone's to write, so it is kept short and on one line.
    const name =
      typeof o.name === 'string' && o.name.length > 0 && o.name.length <= 80 && !/[\u0000-\u001f\u007f]/.test(o.name)
        ? o.name
        : undefined;
    return { pid: o.pid, host: o.host, name, token: typeof o.token === 'string' ? o.token : undefined };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Whether the lock's holder may still be running. Another machine's (a shared home) cannot be checked: it is held. */
async function held(path: string, holder: LockHolder | undefined): Promise<boolean> {
  if (!holder) {
    // Empty or unreadable: being written by its taker right now, or left by a crash mid-write long ago.
    const age = await stat(path).then(
      (s) => Date.now() - s.mtimeMs,
      () => Infinity,
    );
    return age < UNWRITTEN_LOCK_MS;
  }
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it exists, under another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // It exists, but a zombie still answers signals: it has exited, and holds nothing.
  return !isDead(await processState(holder.pid));
}

/** The state letter of /proc/PID/stat ("R", "S", "Z"…), or undefined where there is no /proc or no such process. */
export async function processState(pid: number): Promise<string | undefined> {
  return stateFromStat(await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => ''));
}

/** The state field of a /proc/PID/stat line: the first after the command name, which is in parentheses and may
 * itself hold spaces and parentheses, so it ends at the last ")". */
export function stateFromStat(line: string): string | undefined {
  const end = line.lastIndexOf(')');
  return end < 0 ? undefined : /^ ([A-Za-z])/.exec(line.slice(end + 1))?.[1];
}

/** Z: a zombie (exited, not reaped); X: dead. Both hold nothing. */
function isDead(state: string | undefined): boolean {
  return state === 'Z' || state === 'X';
}
