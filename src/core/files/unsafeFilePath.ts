// Why a file was not written: the path holds something a write must not go through or replace. Each message names
// the path and says nothing was written; a link's target is never named (it may be a place the reader must not
// learn about, and it is not where anything was written).

export type UnsafeFileReason = 'link' | 'exists' | 'folder' | 'not-a-file' | 'folder-link';

export class UnsafeFilePath extends Error {
  constructor(
    readonly path: string,
    readonly reason: UnsafeFileReason,
  ) {
    super(unsafeFileText(path, reason));
    this.name = 'UnsafeFilePath';
  }

  /** 'ELINK', 'EEXIST', 'EISDIR' or 'ENOTFILE', as Node's own errors name theirs. */
  get code(): string {
    return { link: 'ELINK', exists: 'EEXIST', folder: 'EISDIR', 'not-a-file': 'ENOTFILE', 'folder-link': 'ELINK' }[
      this.reason
    ];
  }
}

function unsafeFileText(path: string, reason: UnsafeFileReason): string {
  switch (reason) {
    case 'link':
      return `${path} is a symbolic link, and a file is never written through one: nothing was written. Remove the link, or choose another path.`;
    case 'exists':
      return `${path} exists: nothing was written. Choose another path, or remove that file first.`;
    case 'folder':
      return `${path} is a folder: nothing was written. Give the path of a file.`;
    case 'folder-link':
      return `${path}: a folder on the way is a symbolic link out of the folder you run in, and a file is never written through one: nothing was written. Write inside this folder, or give a path outside it.`;
    case 'not-a-file':
      return `${path} is not a regular file (a device, a pipe or a socket): nothing was written. Give the path of a regular file.`;
  }
}
