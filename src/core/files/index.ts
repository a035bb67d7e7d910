// Writing files: the one helper every writer of the product goes through (DESIGN.md §2, "where outside bytes land").
export { checkPathToWrite, openForAppend, openNewFile, type OpenOptions } from './openWithoutFollowing';
export { UnsafeFilePath, type UnsafeFileReason } from './unsafeFilePath';
export { refuseFolderLinkOut } from './folderLinkOut';
export {
  appendFileSafely,
  replaceFileAtomically,
  writeFileSafely,
  type ReplaceOptions,
  type WriteOptions,
} from './writeFileSafely';
