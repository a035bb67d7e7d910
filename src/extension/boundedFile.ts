// A file the extension reads whole (a testData file the user picks, a workspace's settings file) is read only when
// it is a regular file within a bound: a JSON dump picked by mistake, or a settings.json that is a link to
// /dev/zero in a cloned repository, would otherwise be read into the extension host without end.
import * as vscode from 'vscode';
import { byteSize } from '../core';

/** The file's bytes; rejects, saying why, when it is not a regular file or is larger than `maxBytes`. */
export async function readBoundedFile(uri: vscode.Uri, maxBytes: number): Promise<Uint8Array> {
  const st = await vscode.workspace.fs.stat(uri);
  if (!(st.type & vscode.FileType.File)) throw new Error(vscode.l10n.t('{0} is not a regular file', uri.fsPath));
  if (st.size > maxBytes)
    throw new Error(
      vscode.l10n.t(
        '{0} is {1}, over the {2} ({3}) it may be',
        uri.fsPath,
        bytes(st.size),
        bytes(maxBytes),
        byteSize(maxBytes),
      ),
    );
  const read = await vscode.workspace.fs.readFile(uri);
  // Grown between the two calls: still refused.
  if (read.byteLength > maxBytes)
    throw new Error(
      vscode.l10n.t('{0} is over the {1} ({2}) it may be', uri.fsPath, bytes(maxBytes), byteSize(maxBytes)),
    );
  return read;
}

/** "67,108,865 bytes": exact, since a size just over the bound rounds to the bound in MiB. */
function bytes(n: number): string {
  return vscode.l10n.t('{0} bytes', n.toLocaleString('en-US'));
}
