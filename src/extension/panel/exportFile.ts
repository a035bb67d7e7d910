// Writes an export chunk by chunk: on this machine's disk straight to a new file renamed over the target (a failure
// half-way, such as a full disk, leaves no half-written export behind); elsewhere (a virtual file system) through
// VS Code, which takes the whole content at once.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

export async function writeExport(target: vscode.Uri, chunks: AsyncIterable<string>): Promise<void> {
  if (target.scheme !== 'file') {
    let text = '';
    for await (const chunk of chunks) text += chunk;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    return;
  }
  const tmp = `${target.fsPath}.${randomBytes(4).toString('hex')}.partial`;
  const handle = await open(tmp, 'w');
  try {
    for await (const chunk of chunks) await handle.write(chunk);
    await handle.close();
    await rename(tmp, target.fsPath);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
}
