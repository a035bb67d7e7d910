// A fixture file a tool may read: a path the model gives is data, so only a `*.webhook.json` inside the folders the
// user works in (VS Code: the workspace folders; the CLI: the folder `wfs mcp` runs in) is read, symbolic links
// resolved first, and only up to a bound. A path outside gets one answer whether or not anything is there (#74):
// it is checked by its text before the file system is asked about it, then again where its links lead.
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { FIXTURE_SUFFIX } from '../fixtures/fixtureFormat';
import { whereItLeads, within } from '../fixtures/insideFolder';
import { ToolRefused } from './assistantTool';

/** A fixture is one delivery; a megabyte is the receiver's own body limit. */
const MAX_FIXTURE_BYTES = 1024 * 1024;

/** Below `dir`, not `dir` itself. */
function inside(dir: string, file: string): boolean {
  return file !== dir && within(dir, file);
}

/** The text of the fixture at `path` (absolute, or relative to the first folder), or a ToolRefused saying why not. */
export async function readFixtureIn(path: string, folders: readonly string[]): Promise<{ file: string; text: string }> {
  if (folders.length === 0)
    throw new ToolRefused('No folder is open, so no fixture can be read: open the folder that holds your fixtures.');
  if (!path.endsWith(FIXTURE_SUFFIX))
    throw new ToolRefused(`${path} is not a fixture: fixture files are named NAME${FIXTURE_SUFFIX}.`);
  // Normalized: ".." is taken away by its text.
  const asked = isAbsolute(path) ? resolve(path) : resolve(folders[0]!, path);
  const outside = () =>
    new ToolRefused(
      `${asked} is outside ${folders.join(', ')}: only fixtures inside the folders you work in are read.`,
    );
  const given = folders.map((f) => resolve(f));
  const roots = await Promise.all(given.map((f) => realpath(f).catch(() => f)));
  if (![...given, ...roots].some((root) => inside(root, asked))) throw outside();
  // Where its links lead, a dangling one included: outside is outside, whether or not anything is there.
  const real = await whereItLeads(asked).catch(() => undefined);
  if (real === undefined || !roots.some((root) => inside(root, real))) throw outside();
  // A FIFO named *.webhook.json must not hang the tool, nor a link put at the real path since it was checked.
  const handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0)).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR')
        throw new ToolRefused(
          `There is no file ${asked}: give the path of a *${FIXTURE_SUFFIX} file in ${folders.join(', ')}.`,
        );
      throw err;
    },
  );
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
