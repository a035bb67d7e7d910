// A fixture file a tool may read: a path the model gives is data, so only a `*.webhook.json` inside the folders the
// user works in (VS Code: the workspace folders; the CLI: the folder `wfs mcp` runs in) is read, symbolic links
// resolved first, and only up to a bound.
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { FIXTURE_SUFFIX } from '../fixtures/fixtureFormat';
import { ToolRefused } from './assistantTool';

/** A fixture is one delivery; a megabyte is the receiver's own body limit. */
export const MAX_FIXTURE_BYTES = 1024 * 1024;

function inside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..');
}

/** The text of the fixture at `path` (absolute, or relative to the first folder), or a ToolRefused saying why not. */
export async function readFixtureIn(path: string, folders: readonly string[]): Promise<{ file: string; text: string }> {
  if (folders.length === 0)
    throw new ToolRefused('No folder is open, so no fixture can be read: open the folder that holds your fixtures.');
  if (!path.endsWith(FIXTURE_SUFFIX))
    throw new ToolRefused(`${path} is not a fixture: fixture files are named NAME${FIXTURE_SUFFIX}.`);
  const asked = isAbsolute(path) ? path : resolve(folders[0]!, path);
  let real: string;
  try {
    real = await realpath(asked);
  } catch {
    throw new ToolRefused(
      `There is no file ${asked}: give the path of a *${FIXTURE_SUFFIX} file in ${folders.join(', ')}.`,
    );
  }
  const roots = await Promise.all(folders.map((f) => realpath(f).catch(() => f)));
  if (!roots.some((root) => inside(root, real)))
    throw new ToolRefused(
      `${asked} is outside ${folders.join(', ')}: only fixtures inside the folders you work in are read.`,
    );
  // A FIFO named *.webhook.json must not hang the tool, nor a link put at the real path since it was checked.
  const handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new ToolRefused(`${asked} is not a regular file.`);
    if (st.size > MAX_FIXTURE_BYTES)
      throw new ToolRefused(
        `${asked} is larger than ${MAX_FIXTURE_BYTES / 1024 / 1024} MiB: a fixture is one delivery.`,
      );
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await handle.read(buf, 0, st.size, 0);
    return { file: asked, text: buf.subarray(0, bytesRead).toString('utf8') };
  } finally {
    await handle.close();
  }
}
