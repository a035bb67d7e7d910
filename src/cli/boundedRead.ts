// Files and standard input the CLI reads whole (a trust file, testData) are read up to a bound: `--data /dev/zero`
// or an endless pipe would otherwise grow the process until V8 gives up, gigabytes later.
import { closeSync, openSync, readSync } from 'node:fs';
// On the path of `wfs --help` (output.ts): core's light door, not the sandbox's, which would load undici and jose.
import { MAX_REQUEST_BYTES } from '../core';

/** Standard input or a file read whole for testData (`--data`): one request body, so the sandbox's one limit. */
export const MAX_STDIN_BYTES = MAX_REQUEST_BYTES;

class TooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${maxBytes / 1024 / 1024} MiB`);
    this.name = 'TooLarge';
  }
}

/** The text of a file, or of standard input (0), as UTF-8; throws TooLarge past `maxBytes`. */
export function readBoundedText(source: string | 0, maxBytes: number): string {
  return readBoundedBytes(source, maxBytes).toString('utf8');
}

/** The exact bytes of a file, or of standard input (0); throws TooLarge past `maxBytes`. */
export function readBoundedBytes(source: string | 0, maxBytes: number): Buffer {
  const fd = source === 0 ? 0 : openSync(source, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw new TooLarge(maxBytes);
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } finally {
    if (source !== 0) closeSync(fd);
  }
}
