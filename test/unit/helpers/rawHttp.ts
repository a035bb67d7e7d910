// Raw HTTP for tests that must control every header (e.g. omit Content-Type), bypassing our request function.
import { request } from 'undici';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  json: () => any;
}

export async function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; json?: unknown } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await request(url, { method: (opts.method ?? (body !== undefined ? 'POST' : 'GET')) as 'GET', headers, body });
  const buf = Buffer.from(await res.body.arrayBuffer());
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.statusCode, headers: flat, body: buf, text: buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}
