// A real full disk for tests: a small tmpfs mounted at a new folder, filled with a file.
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A tmpfs of `bytes` at a new folder, or why none could be mounted (mount(2) needs root, or CAP_SYS_ADMIN). */
function mountTmpfs(bytes: number): { dir: string; unmount: () => void } | { why: string } {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir, unmount: () => execFileSync('umount', [dir]) };
  } catch (err) {
    return { why: String((err as { stderr?: Buffer }).stderr ?? err).trim() };
  }
}

/** A tmpfs for the running test or hook, or that test skipped with the reason printed. */
export function tmpfsOrSkip(test: Mocha.Context, bytes: number): { dir: string; unmount: () => void } {
  const mounted = mountTmpfs(bytes);
  if ('why' in mounted) {
    console.log(`    (skipped: no tmpfs could be mounted: ${mounted.why})`);
    test.skip();
  }
  return mounted as { dir: string; unmount: () => void };
}

/** Writes zeros to `file` until the disk is full, then gives `leave` bytes of it back. */
export function fillDisk(file: string, leave = 0): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(4096);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    ftruncateSync(fd, Math.max(0, written - leave));
  } finally {
    closeSync(fd);
  }
}
