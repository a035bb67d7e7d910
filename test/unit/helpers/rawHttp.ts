// Raw HTTP for tests that must control every header (e.g. omit Content-Type), bypassing our request function.
import { connect, type Socket } from 'node:net';
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
  const res = await request(url, {
    method: (opts.method ?? (body !== undefined ? 'POST' : 'GET')) as 'GET',
    headers,
    body,
  });
  const buf = Buffer.from(await res.body.arrayBuffer());
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return {
    status: res.statusCode,
    headers: flat,
    body: buf,
    text: buf.toString('utf8'),
    json: () => JSON.parse(buf.toString('utf8')),
  };
}

export interface HeldRequest {
  socket: Socket;
  /** The head of the answer (status line and headers) once one comes, or what came before the connection closed. */
  answer: Promise<string>;
  /** Sends the last byte, without a FIN: a server that is not half-open would close on a FIN before an answer it
   * must wait for (a key-set fetch), and real HTTP clients do not half-close. */
  finish: () => void;
}

/** A POST whose head and all but the last byte of its body are sent, then held open, as a slow or hostile sender
 * would. */
export function heldRequest(url: string, headers: Record<string, string>, body: Buffer): HeldRequest {
  const u = new URL(url);
  const socket = connect(Number(u.port), u.hostname);
  socket.on('error', () => undefined);
  let text = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n')) resolve(text);
    });
    socket.on('close', () => resolve(text));
  });
  const lines = Object.entries({
    host: u.host,
    'content-type': 'application/json',
    'content-length': String(body.length),
    ...headers,
  }).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(`POST ${u.pathname} HTTP/1.1\r\n${lines.join('')}\r\n`);
  socket.write(body.subarray(0, -1));
  return { socket, answer, finish: () => socket.write(body.subarray(-1)) };
}
