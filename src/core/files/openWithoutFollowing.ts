// Opening a file to write it without following a symbolic link at its path. A cloned repository, a shared folder or
// another local user can leave a link (dangling or not) where a file is about to be written; opened plainly, the
// write would create or change the link's target, wherever it is. O_NOFOLLOW refuses a link as the last part of the
// path (the folders above it are the caller's choice), and O_EXCL refuses anything already there, link or not.
import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { UnsafeFilePath } from './unsafeFilePath';

/** Windows has no O_NOFOLLOW (0 there): see refuseLinkFirst. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** A FIFO at the path would block an open for writing until a reader came; with this it fails or opens at once. */
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** What is at `path` itself (a link is not followed), or undefined when nothing is. */
export async function entryAt(path: string): Promise<Stats | undefined> {
  return lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
}

/** Refuses what is at `path` when a write must not replace it: a link, a folder, a device, a pipe, a socket. */
export function refuseUnlessRegular(path: string, st: Stats | undefined): void {
  if (!st || st.isFile()) return;
  throw new UnsafeFilePath(path, st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'folder' : 'not-a-file');
}

/** Where O_NOFOLLOW does not exist (Windows), a link is looked for just before opening. Between that look and the
 * open, another process could put a link there: a race that only O_NOFOLLOW closes, so this narrows it, no more. */
async function refuseLinkFirst(path: string): Promise<void> {
  if (NOFOLLOW !== 0) return;
  const st = await entryAt(path);
  if (st?.isSymbolicLink()) throw new UnsafeFilePath(path, 'link');
}

/** Turns an open's failure into the words of UnsafeFilePath where it is one; other errors are thrown as they are. */
async function explain(path: string, err: unknown): Promise<never> {
  const code = (err as NodeJS.ErrnoException).code;
  // O_NOFOLLOW on a link: ELOOP on Linux and macOS, EMLINK on FreeBSD.
  if (code === 'ELOOP' || code === 'EMLINK') throw new UnsafeFilePath(path, 'link');
  if (code === 'EISDIR') throw new UnsafeFilePath(path, 'folder');
  if (code === 'EEXIST') {
    const st = await entryAt(path).catch(() => undefined);
    refuseUnlessRegular(path, st);
    throw new UnsafeFilePath(path, 'exists');
  }
  throw err;
}

export interface OpenOptions {
  /** The new file's mode (the umask still applies): 0o600 for what holds secrets or customer data. */
  mode?: number;
  /** Also open for reading (the history reads back what it appended). */
  read?: boolean;
}

const DEFAULT_MODE = 0o666;

/** Creates `path` new and opens it: refused when anything is there, a link (dangling or not) included. */
export async function openNewFile(path: string, options: OpenOptions = {}): Promise<FileHandle> {
  await refuseLinkFirst(path);
  const access = options.read ? constants.O_RDWR : constants.O_WRONLY;
  try {
    return await open(path, constants.O_CREAT | constants.O_EXCL | access | NOFOLLOW, options.mode ?? DEFAULT_MODE);
  } catch (err) {
    return explain(path, err);
  }
}

/** Opens `path` for appending, creating it when missing; a link, a folder or anything but a regular file there is
 * refused. `created` says whether this call made it (a new file has the mode asked; an existing one keeps its own). */
export async function openForAppend(
  path: string,
  options: OpenOptions = {},
): Promise<{ handle: FileHandle; created: boolean }> {
  const access = options.read ? constants.O_RDWR : constants.O_WRONLY;
  // Removed between the two opens (another process): tried again, a few times at most.
  for (let attempt = 0; ; attempt++) {
    try {
      return { handle: await openNewFile(path, options), created: true };
    } catch (err) {
      if (!(err instanceof UnsafeFilePath && err.reason === 'exists')) throw err;
    }
    await refuseLinkFirst(path);
    let handle: FileHandle;
    try {
      handle = await open(path, constants.O_APPEND | access | NOFOLLOW | NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 3) continue;
      return explain(path, err);
    }
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw new UnsafeFilePath(path, st.isDirectory() ? 'folder' : 'not-a-file');
    } catch (err) {
      await handle.close();
      throw err;
    }
    return { handle, created: false };
  }
}

/** Checks ahead that `path` is one a write may create or replace (nothing there, or a regular file), so a command
 * refuses a bad output path before its work rather than after; the write checks again. */
export async function checkPathToWrite(path: string): Promise<void> {
  refuseUnlessRegular(path, await entryAt(path));
}
