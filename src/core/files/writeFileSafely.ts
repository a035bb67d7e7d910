// The one way the product writes a file (DESIGN.md: where outside bytes land). A file is created new and never
// through a symbolic link; replacing one writes a new file beside it and renames that over the old one, which
// replaces the entry itself rather than whatever a link there points to, after checking that the entry is a regular
// file and not a link. Appending opens without following a link.
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { rename, rm, type FileHandle } from 'node:fs/promises';
import { entryAt, openForAppend, openNewFile, refuseUnlessRegular } from './openWithoutFollowing';

export interface WriteOptions {
  /** The new file's mode (the umask still applies): 0o600 for keys and for what holds deliveries. Default 0o666. */
  mode?: number;
  /** What to do when a regular file is already at the path: refuse (UnsafeFilePath 'exists', the default), or
   * replace it whole. A link, a folder or a device is refused either way. */
  existing?: 'refuse' | 'replace';
}

/** Writes `data` as the file at `path`; see WriteOptions. Throws UnsafeFilePath when the path is not one to write. */
export async function writeFileSafely(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<void> {
  if (options.existing === 'replace') return replaceFileAtomically(path, (h) => h.writeFile(data), options);
  const handle = await openNewFile(path, options);
  try {
    await handle.writeFile(data);
    await handle.close();
  } catch (err) {
    // Made by this call: no half-written file stays behind.
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw err;
  }
}

export interface ReplaceOptions {
  mode?: number;
  /** The temporary file's path (in the same folder); default a new random name beside the target. A leftover at a
   * fixed name is removed first (the entry itself: a link there is not followed). */
  temp?: string;
  /** Flush to disk before the rename, so a crash leaves the old file or the new one whole. */
  sync?: boolean;
}

/** Replaces (or creates) `path` with what `fill` writes into a new file beside it, renamed over it at the end; a
 * failure part-way leaves the old file as it was and no temporary file behind. */
export async function replaceFileAtomically(
  path: string,
  fill: (handle: FileHandle) => Promise<void>,
  options: ReplaceOptions = {},
): Promise<void> {
  // Before any work, and again just before the rename (the entry may change meanwhile).
  refuseUnlessRegular(path, await entryAt(path));
  const temp = options.temp ?? join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  if (options.temp !== undefined) await rm(temp, { force: true });
  const handle = await openNewFile(temp, { mode: options.mode });
  try {
    await fill(handle);
    if (options.sync) await handle.sync();
    await handle.close();
    refuseUnlessRegular(path, await entryAt(path));
    await rename(temp, path);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
}

/** Appends `data` to the file at `path`, created when missing; a link there is refused. */
export async function appendFileSafely(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const { handle } = await openForAppend(path, options);
  try {
    await handle.appendFile(data);
  } finally {
    await handle.close();
  }
}
