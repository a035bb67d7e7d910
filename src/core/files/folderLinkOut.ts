// A cloned repository can ship a folder that is a symbolic link out of it (`reports -> ~/somewhere`), and a README
// that says to run `--junit reports/junit.xml`. O_NOFOLLOW guards only the last part of a path, so a command-line
// writer also checks the folders on the way: a path given inside the folder the command runs in must stay inside it
// once links are followed. A path given outside that folder is the user's own choice, and is left to them.
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { UnsafeFilePath } from './unsafeFilePath';

const outside = (from: string, to: string) => {
  const r = relative(from, to);
  return r === '..' || r.startsWith('..' + (process.platform === 'win32' ? '\\' : '/')) || isAbsolute(r);
};

/** Throws UnsafeFilePath ('folder-link') when `path`, given inside `within`, has a folder on the way that leads out
 * of it through a symbolic link. Folders not made yet are judged by the nearest one that exists. */
export async function refuseFolderLinkOut(path: string, within: string): Promise<void> {
  const abs = resolve(within, path);
  if (outside(within, abs)) return;
  const realWithin = await realpath(within);
  let folder = dirname(abs);
  for (;;) {
    const real = await realpath(folder).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
      throw err;
    });
    if (real !== undefined) {
      if (outside(realWithin, real)) throw new UnsafeFilePath(path, 'folder-link');
      return;
    }
    const up = dirname(folder);
    if (up === folder) return;
    folder = up;
  }
}
