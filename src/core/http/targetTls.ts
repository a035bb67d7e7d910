// TLS towards one of the user's own https apps: the root that signed its certificate (a `ca` PEM file, e.g. mkcert's
// rootCA.pem), added to the usual roots for that target only, or its certificate not checked at all (`insecure`,
// loopback only). The process's trust (NODE_EXTRA_CA_CERTS) is left as it is.
import { X509Certificate } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Dispatcher } from 'undici';
import { undici } from './undiciOnDemand';
import { isLoopbackHost } from './loopback';

/** A CA bundle is a few certificates (the whole Mozilla store is about 220 KB): more is not a bundle. */
export const MAX_CA_FILE_BYTES = 1024 * 1024;

/** A `ca` file that cannot be used: the message names the file and says what to give instead. */
export class CaFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaFileError';
  }
}

/** `ca` or `insecure` given where they cannot be used: the message says why, in the words of where they were given. */
export class TlsOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlsOptionError';
  }
}

export interface TargetTls {
  /** The certificates of the `ca` file, as PEM text. */
  caPem?: string;
  /** The file they were read from, for messages. */
  caFile?: string;
  /** The target's certificate is not checked (loopback targets only; the rule's parser holds that). */
  insecure?: true;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** The file's bytes, at most MAX_CA_FILE_BYTES; a FIFO or a device is refused without waiting on it. */
function readBounded(file: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw new CaFileError(`cannot read the ca file ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new CaFileError(`the ca file ${file} is not a regular file, so it was not read`);
    const buf = Buffer.alloc(MAX_CA_FILE_BYTES + 1);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > MAX_CA_FILE_BYTES)
      throw new CaFileError(
        `the ca file ${file} is larger than ${MAX_CA_FILE_BYTES / 1024 / 1024} MiB: it is not a PEM bundle of root certificates`,
      );
    return buf.subarray(0, n);
  } catch (err) {
    if (err instanceof CaFileError) throw err;
    throw new CaFileError(`cannot read the ca file ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  } finally {
    closeSync(fd);
  }
}

/** The PEM certificates `text` holds, checked; a CaFileError naming `file` when it holds none, a private key, or a
 * block that is not a certificate. What the file holds is never repeated: it may be anything, a key included. */
export function caCertificates(text: string, file: string): string {
  const blocks = [...text.matchAll(PEM_BLOCK)];
  if (blocks.some((b) => b[1]!.includes('PRIVATE KEY')))
    throw new CaFileError(
      `the ca file ${file} holds a private key: give the root's certificate (mkcert's rootCA.pem), never its key (rootCA-key.pem)`,
    );
  const certs = blocks.filter((b) => b[1] === 'CERTIFICATE');
  if (certs.length === 0)
    throw new CaFileError(
      `the ca file ${file} holds no PEM certificate ("-----BEGIN CERTIFICATE-----"): give the root that signed your app's certificate as PEM, e.g. mkcert's rootCA.pem (mkcert -CAROOT)`,
    );
  certs.forEach((b, i) => {
    try {
      new X509Certificate(b[0]);
    } catch {
      throw new CaFileError(`the ca file ${file}: its certificate ${i + 1} of ${certs.length} does not parse as X.509`);
    }
  });
  return certs.map((b) => b[0]).join('\n');
}

/** The certificates of a `ca` file, read once (bounded) and checked. */
export function readCaFile(file: string): string {
  const bytes = readBounded(file);
  return caCertificates(bytes.toString('latin1'), file);
}

/** The dispatcher for a target with its own TLS: the usual roots and the `ca` file's, or no check at all. Undefined
 * when the target has none (the caller's dispatcher serves). */
export async function targetDispatcher(tls: TargetTls | undefined): Promise<Dispatcher | undefined> {
  if (!tls || (tls.caPem === undefined && !tls.insecure)) return undefined;
  const { Agent } = await undici();
  // Imported here: an ES module importing node:tls reads every export, and reading rootCertificates parses the
  // system's CA file (about 10 ms), which each start of `wfs mcp` would pay.
  const { rootCertificates } = await import('node:tls');
  return new Agent({
    connect: tls.insecure ? { rejectUnauthorized: false } : { ca: [...rootCertificates, tls.caPem!] },
  });
}

/** How the two options are named where they were given: a rule's `"ca"`/`"insecure"`, or flags (`--ca`). */
export interface TlsOptionNames {
  ca: string;
  insecure: string;
}

/** What is wrong with `ca` or `insecure` for the target `url`, or undefined: both only for an https URL,
 * `insecure` only on this machine (a certificate not checked on the network lets anyone between read the
 * deliveries), and not both. The file is not read here. */
export function tlsOptionsProblem(
  url: string,
  o: { ca?: unknown; insecure?: unknown },
  names: TlsOptionNames,
): string | undefined {
  const { ca, insecure } = o;
  if (ca === undefined && (insecure === undefined || insecure === false)) return undefined;
  if (ca !== undefined && (typeof ca !== 'string' || ca.trim() === '' || /[\0\r\n]/.test(ca)))
    return `${names.ca} must be the path of a PEM file, e.g. the root mkcert made (rootCA.pem)`;
  if (insecure !== undefined && typeof insecure !== 'boolean') return `${names.insecure} must be true or false`;
  const u = new URL(url);
  if (u.protocol !== 'https:')
    return `${ca !== undefined ? names.ca : names.insecure} applies to an https target only; this one is ${u.protocol}//`;
  if (ca !== undefined && insecure === true)
    return `${names.ca} and ${names.insecure} exclude each other: with the root in ${names.ca}, leave ${names.insecure} out`;
  if (ca === undefined && !isLoopbackHost(u.hostname))
    return `${names.insecure} is allowed for a target on this machine only (localhost, 127.0.0.1, ::1), not ${u.hostname}: give its root certificate in ${names.ca} instead`;
  return undefined;
}

/** The TLS of one target given by flags (not a rule): `ca` and `insecure` checked as a rule's, the `ca` file read
 * (bounded, PEM certificates only; a relative path taken from `baseDir`). Undefined when neither is given. Throws
 * TlsOptionError, or CaFileError naming the file. */
export function targetTlsFrom(
  url: string,
  o: { ca?: string; insecure?: boolean },
  names: TlsOptionNames,
  baseDir: string,
): TargetTls | undefined {
  const problem = tlsOptionsProblem(url, o, names);
  if (problem) throw new TlsOptionError(problem);
  if (o.ca !== undefined) {
    const file = isAbsolute(o.ca) ? o.ca : resolve(baseDir, o.ca);
    return { caPem: readCaFile(file), caFile: file };
  }
  return o.insecure ? { insecure: true } : undefined;
}
