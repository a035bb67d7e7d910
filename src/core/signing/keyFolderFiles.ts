// The files of a key folder (`wfs keys generate`), read only from inside it. A key folder may come with a cloned
// repository: the names its issuer.json gives are data, so none may lead out of the folder (an absolute path, "..",
// or a link whose target is outside), and no message repeats a byte of a file it could not use.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, posix, relative, sep, win32 } from 'node:path';
import { JsonSyntaxError, topLevelMembers } from '../fixtures/jsonSpans';

export const KEY_FILES = {
  issuer: 'issuer.json',
  jwks: 'jwks.json',
  privateJwk: 'private-key.jwk.json',
  privatePem: 'private-key.pem',
} as const;

/** A key file is a few kilobytes (an RSA JWK); a key set of a few keys is not much more. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

export class KeyFilesError extends Error {}

export interface IssuerFile {
  issuer: string;
  audience: string;
  kid: string;
  privateKey: string;
  jwks: string;
}

/** The rule every refusal below states. */
const RULE =
  'the files a key folder names must be inside it: a name relative to the folder, without "..", and no link out';

/** A name taken from a file, shown without letting it run on or carry control characters. */
function shown(name: string): string {
  return JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
}

/** The real path of `name` inside `dir`, refused unless it is there. `namedBy` says where the name came from (the
 * issuer.json field), for the message. */
export function keyFolderPath(dir: string, name: string, namedBy?: string): string {
  const where = namedBy
    ? `${join(dir, KEY_FILES.issuer)} names ${JSON.stringify(namedBy)}: ${shown(name)}`
    : join(dir, name);
  const refuse = (why: string): never => {
    throw new KeyFilesError(`${where}${namedBy ? ', which' : ''} ${why}. Nothing was read: ${RULE}.`);
  };
  if (name === '' || name.includes('\0')) refuse('is not a file name');
  if (posix.isAbsolute(name) || win32.isAbsolute(name)) refuse('is an absolute path');
  if (name.split(/[\\/]/).includes('..')) refuse('leads out of the folder with ".."');
  let root: string;
  let real: string;
  try {
    root = realpathSync(dir);
  } catch (err) {
    throw new KeyFilesError(`cannot read the key folder ${dir} (${codeOf(err)}): ${NOT_A_KEY_FOLDER(dir)}`);
  }
  try {
    real = realpathSync(join(root, name));
  } catch (err) {
    throw new KeyFilesError(`cannot read ${join(dir, name)} (${codeOf(err)}): ${NOT_A_KEY_FOLDER(dir)}`);
  }
  const rel = relative(root, real);
  if (rel === '' || rel.split(sep)[0] === '..' || isAbsolute(rel)) refuse('is a link to outside the folder');
  return real;
}

const NOT_A_KEY_FOLDER = (dir: string) => `is ${dir} a folder written by \`wfs keys generate\`?`;

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? 'unreadable';
}

/** The text of a regular file inside `dir`, at most MAX_KEY_FILE_BYTES. A FIFO or a device is refused without
 * waiting on it. */
export function readKeyFolderFile(dir: string, name: string, namedBy?: string): string {
  const real = keyFolderPath(dir, name, namedBy);
  const path = join(dir, name);
  // The real path has no link left in it; O_NOFOLLOW refuses one put there since.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
  let fd: number;
  try {
    fd = openSync(real, flags);
  } catch (err) {
    throw new KeyFilesError(`cannot read ${path} (${codeOf(err)})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new KeyFilesError(`${path} is not a regular file, so it was not read`);
    if (st.size > MAX_KEY_FILE_BYTES)
      throw new KeyFilesError(
        `${path} is ${st.size} bytes, more than a key file's ${MAX_KEY_FILE_BYTES}: it is not a key, so it was not read`,
      );
    const buf = Buffer.alloc(MAX_KEY_FILE_BYTES + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > MAX_KEY_FILE_BYTES)
        throw new KeyFilesError(`${path} grew past ${MAX_KEY_FILE_BYTES} bytes while read: it is not a key`);
    }
    return buf.subarray(0, n).toString('utf8');
  } catch (err) {
    if (err instanceof KeyFilesError) throw err;
    throw new KeyFilesError(`cannot read ${path} (${codeOf(err)})`);
  } finally {
    closeSync(fd);
  }
}

/** A JSON object from a key file; a KeyFilesError naming the file when it is not one. */
export function parseKeyJson(path: string, text: string): Record<string, unknown> {
  const value = jsonObject(text);
  if (typeof value === 'string') throw new KeyFilesError(`${path} is ${value}`);
  return value;
}

/** The JSON object the text holds, or what is wrong with it: where the text stops being JSON (line and column),
 * never what it holds, since the file may be anything, a secret included. */
export function jsonObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `not valid JSON${whereJsonFails(text)}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  return value as Record<string, unknown>;
}

/** " (line L, column C)" where the text stops being a JSON object. The fixtures' scanner finds it; its words quote
 * the text, so only its position is used. */
function whereJsonFails(text: string): string {
  try {
    topLevelMembers(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return ` (line ${err.position.line}, column ${err.position.column})`;
  }
  return '';
}

/** issuer.json of `dir`, with the string fields asked for present. */
export function readIssuerFile(dir: string, fields: (keyof IssuerFile)[]): Partial<IssuerFile> {
  const path = join(dir, KEY_FILES.issuer);
  const info = parseKeyJson(path, readKeyFolderFile(dir, KEY_FILES.issuer));
  const missing = fields.filter((k) => typeof info[k] !== 'string' || !info[k]);
  if (missing.length)
    throw new KeyFilesError(
      `${path} has no ${missing.map((k) => `"${k}"`).join(', ')} string${missing.length > 1 ? 's' : ''}: ${NOT_A_KEY_FOLDER(dir)}`,
    );
  return info as Partial<IssuerFile>;
}
