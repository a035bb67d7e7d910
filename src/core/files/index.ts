// Writing files: the one helper every writer of the product goes through (DESIGN.md §2, "where outside bytes land").
export { checkPathToWrite, openForAppend, openNewFile } from './openWithoutFollowing';
export { UnsafeFilePath } from './unsafeFilePath';
export { refuseFolderLinkOut } from './folderLinkOut';
export { appendFileSafely, replaceFileAtomically, writeFileSafely } from './writeFileSafely';
