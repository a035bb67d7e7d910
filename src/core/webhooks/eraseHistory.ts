// A history file left from when it was kept on disk. Choosing to keep the history in memory (deliveries from a real
// environment may carry customer data) must not leave the earlier deliveries on disk with nothing left to erase
// them: the window that starts in memory erases the file, unless another process still keeps it.
import { rm, stat } from 'node:fs/promises';
import { leftoverOf } from './historyFile';
import { HistoryInUse, HistoryLock } from './historyLock';

export type EraseOutcome = { erased: number } | { heldBy: HistoryInUse };

/** Erases `file` (and a compaction's leftover) under its lock: the bytes erased (0 when there was none), or the
 * process that still keeps it, which is then left alone. */
export async function eraseHistoryFile(file: string, holderName?: string): Promise<EraseOutcome> {
  // Nothing to erase (the usual case): no lock is taken, and its folder need not exist.
  if (
    !(await stat(file).then(
      () => true,
      () => false,
    )) &&
    !(await stat(leftoverOf(file)).then(
      () => true,
      () => false,
    ))
  )
    return { erased: 0 };
  let lock: HistoryLock;
  try {
    lock = await HistoryLock.acquire(file, holderName);
  } catch (err) {
    if (err instanceof HistoryInUse) return { heldBy: err };
    throw err;
  }
  try {
    const bytes = await stat(file).then(
      (s) => s.size,
      () => 0,
    );
    await rm(file, { force: true });
    await rm(leftoverOf(file), { force: true });
    return { erased: bytes };
  } finally {
    await lock.release();
  }
}
