// The parsed form of a request the sandbox serves, and how large one may be.
import type { IncomingHttpHeaders } from 'node:http';

/** The largest request the sandbox reads, and so the largest testData a client sends it (the CLI and the extension
 * refuse more before sending). The spec shows no limit; this is the toolkit's one number, docs/cli.md. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/** Request bodies being read at once, in all: a second large upload waits (503) rather than doubling the memory. */
export const MAX_REQUEST_BYTES_IN_FLIGHT = 2 * MAX_REQUEST_BYTES;

/** "64 MiB (67,108,864 bytes)". */
export function sizeInWords(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(2)} MiB (${bytes.toLocaleString('en-US')} bytes)`;
}

export interface SandboxRequest {
  method: string;
  /** Path segments split before decoding, so an encoded '/' stays inside its segment. */
  segments: string[];
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  remoteAddress: string;
}

export function header(req: SandboxRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function parsePath(rawUrl: string): { segments: string[]; query: URLSearchParams } | undefined {
  const q = rawUrl.indexOf('?');
  const path = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
  const query = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : '');
  try {
    return {
      segments: path
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s)),
      query,
    };
  } catch {
    return undefined;
  }
}

export type JsonBody = { ok: true; value: unknown } | { ok: false };

/** Parses the body as JSON; an empty body or invalid UTF-8/JSON is "cannot be read". */
export function parseJsonBody(req: SandboxRequest): JsonBody {
  if (req.body.length === 0) return { ok: false };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(req.body);
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
