// The panel's line on where the delivery history is kept, what it costs, and how to erase it. The extension host is
// shared with every other extension, so the bytes held in memory are shown, not just a count.
import { byteSize } from '../../core';

/** `heldBy`: the file and who holds it ("a Visual Studio Code window (pid 4242)"), when another process keeping it
 * is why this window keeps its history in memory. */
export function historyStorageNote(
  file: string | undefined,
  bytesInMemory: number,
  bytesOnDisk: number,
  heldBy?: { file: string; holder: string },
): string {
  if (file)
    return `The history is kept in ${file} (${byteSize(bytesOnDisk)} on disk, ${byteSize(bytesInMemory)} in memory); Clear erases it (wfs.receiver.historyStorage: memory keeps it off the disk).`;
  if (heldBy)
    return `The history is kept in memory only in this window (${byteSize(bytesInMemory)}): ${heldBy.holder} keeps ${heldBy.file}. It is gone when this window closes.`;
  return `The history is kept in memory only (${byteSize(bytesInMemory)}; wfs.receiver.historyStorage) and is gone when VS Code closes.`;
}
