// Writes an export chunk by chunk: on this machine's disk straight to a new file renamed over the target (a failure
// half-way, such as a full disk, leaves no half-written export behind); elsewhere (a virtual file system) through
// VS Code, which takes the whole content at once.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { HISTORY_FILE_MODE as EXPORT_FILE_MODE } from '../../core/webhooks/historyFile';

export async function writeExport(target: vscode.Uri, chunks: AsyncIterable<string>): Promise<void> {
  if (target.scheme !== 'file') {
    let text = '';
    for await (const chunk of chunks) text += chunk;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    return;
  }
  const tmp = `${target.fsPath}.${randomBytes(4).toString('hex')}.partial`;
  // Exports hold deliveries (customer data, like the history file): readable by their owner only, whatever the umask.
  const handle = await open(tmp, 'wx', EXPORT_FILE_MODE);
  try {
    await handle.chmod(EXPORT_FILE_MODE);
    for await (const chunk of chunks) await handle.write(chunk);
    await handle.close();
    await rename(tmp, target.fsPath);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
}
