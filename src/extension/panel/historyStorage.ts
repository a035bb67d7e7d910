// The panel's line on where the delivery history is kept, what it costs, and how to erase it. The extension host is
// shared with every other extension, so the bytes held in memory are shown, not just a count.
import type { l10n } from 'vscode';
import { byteSize } from '../../core';
import { english } from './words';

type Words = Pick<typeof l10n, 't'>;

/** `heldBy`: the file and who holds it ("a Visual Studio Code window (pid 4242)"), when another process keeping it
 * is why this window keeps its history in memory. */
export function historyStorageNote(
  file: string | undefined,
  bytesInMemory: number,
  bytesOnDisk: number,
  heldBy?: { file: string; holder: string },
  l10n: Words = english,
): string {
  if (file)
    return l10n.t(
      'The history is kept in {0} ({1} on disk, {2} in memory); Clear erases it (wfs.receiver.historyStorage: memory keeps it off the disk).',
      file,
      byteSize(bytesOnDisk),
      byteSize(bytesInMemory),
    );
  if (heldBy)
    return l10n.t(
      'The history is kept in memory only in this window ({0}): {1} keeps {2}. It is gone when this window closes.',
      byteSize(bytesInMemory),
      heldBy.holder,
      heldBy.file,
    );
  return l10n.t(
    'The history is kept in memory only ({0}; wfs.receiver.historyStorage) and is gone when VS Code closes.',
    byteSize(bytesInMemory),
  );
}
