// The files the extension writes outside the workspace for a moment: Copy as cmd.exe / PowerShell's request (a curl
// config and the body, which the copied command reads) and Edit and Resend's fixture document. Each goes in a new
// folder of its own in the temp folder, 0700 with a name nobody could guess beforehand (mkdtemp), so no link can be
// planted there; the files are still created through core's one helper, 0600, never through a link (#74), and the
// folder is removed again if any of them cannot be written.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSafely } from '../core/files';

export interface TempFile {
  path: string;
  bytes: string | Uint8Array;
}

/** Makes a new folder `<base>/<prefix>XXXXXX`, has `make` name the files to write in it (and what to give back), and
 * writes them. `base` is the temp folder; a test gives its own. */
export async function writeInNewTempFolder<T>(
  prefix: string,
  make: (dir: string) => { files: TempFile[]; value: T },
  base: string = tmpdir(),
): Promise<{ dir: string; value: T }> {
  const dir = await mkdtemp(join(base, prefix));
  try {
    const { files, value } = make(dir);
    for (const f of files) await writeFileSafely(f.path, f.bytes, { mode: 0o600 });
    return { dir, value };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
