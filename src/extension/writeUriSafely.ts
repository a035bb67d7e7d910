// Every file the extension writes: on this machine's disk (a `file:` URI) through core's one helper, which never
// follows a symbolic link at the path (#74); elsewhere through VS Code's file system. A `vscode-remote:`, a
// virtual workspace (`vscode-vfs:`) or another extension's provider lives on no disk this process can open, so
// only its provider can write it, and a link there is that file system's to resolve.
import * as vscode from 'vscode';
import type { FileHandle } from 'node:fs/promises';
import { replaceFileAtomically, writeFileSafely } from '../core/files';

export interface UriWriteOptions {
  /** The new file's mode on this disk: 0o600 for what holds deliveries or secrets. */
  mode?: number;
  /** 'refuse' (the default) keeps an existing file; 'replace' writes a new one over it (after the user agreed). */
  existing?: 'refuse' | 'replace';
}

/** Writes `data` as the file at `uri`; on this disk a link, a folder or a device there is refused, nothing written. */
export async function writeUriSafely(
  uri: vscode.Uri,
  data: string | Uint8Array,
  options: UriWriteOptions = {},
): Promise<void> {
  if (uri.scheme === 'file') return writeFileSafely(uri.fsPath, data, options);
  if (options.existing !== 'replace') {
    const there = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    if (there) throw new Error(vscode.l10n.t('{0} exists: nothing was written.', uri.toString(true)));
  }
  await vscode.workspace.fs.writeFile(uri, typeof data === 'string' ? new TextEncoder().encode(data) : data);
}

/** Replaces the file at `uri` with what `chunks` give, written chunk by chunk on this disk (a failure half-way
 * leaves no half-written file); elsewhere VS Code's file system takes the whole content at once. */
export async function replaceUriByParts(
  uri: vscode.Uri,
  chunks: AsyncIterable<string>,
  options: { mode?: number } = {},
): Promise<void> {
  if (uri.scheme !== 'file') {
    let text = '';
    for await (const chunk of chunks) text += chunk;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return;
  }
  await replaceFileAtomically(
    uri.fsPath,
    async (handle: FileHandle) => {
      for await (const chunk of chunks) await handle.write(chunk);
    },
    options,
  );
}
