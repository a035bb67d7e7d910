// Writes an export chunk by chunk: on this machine's disk to a new file renamed over the target, never through a
// link at its path (a failure half-way, such as a full disk, leaves no half-written export behind); elsewhere (a
// virtual file system) through VS Code, which takes the whole content at once (writeUriSafely.ts).
import type * as vscode from 'vscode';
import { HISTORY_FILE_MODE as EXPORT_FILE_MODE } from '../../core/webhooks';
import { replaceUriByParts } from '../writeUriSafely';

export async function writeExport(target: vscode.Uri, chunks: AsyncIterable<string>): Promise<void> {
  // Exports hold deliveries (customer data, like the history file): readable by their owner only, whatever the umask.
  await replaceUriByParts(target, chunks, { mode: EXPORT_FILE_MODE });
}
