// The one request function every part of the core uses (docs/design.md, HTTP).
import type { Dispatcher } from 'undici';
import { undici } from './undiciOnDemand';
import { said, SaidError, type Said } from '../presentation/said';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string | undefined>;
  /** A JS value is sent as JSON; a Buffer/string is sent as is. POSTs without a body still carry Content-Type. */
  json?: unknown;
  body?: Buffer | string;
  timeoutMs?: number;
  /** Responses larger than this are cut off with an error rather than buffered without bound. */
  maxResponseBytes?: number;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  /** Sends a POST without Content-Type: only `wfs probe-service` does, to see the edge's answer to one. */
  omitContentType?: boolean;
  /** Told when the whole request (head and body) was handed to the socket, and when an answer's status came: a
   * billed start asks whether it may have reached the service. Needs a body. */
  wire?: RequestWire;
}

export interface RequestWire {
  written(): void;
  answered(status: number): void;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Media type without parameters, lower case; '' when absent. */
  contentType: string;
  body: Buffer;
  durationMs: number;
}

/** A request that got no answer. Its message is core's Said (English in the CLI, worded in the extension); English
 * alone, from a caller outside core's messages, is shown as it is. */
export class TransportError extends SaidError {
  constructor(
    message: string | Said,
    readonly reason: 'timeout' | 'network' | 'too-large' | 'aborted',
    readonly url: string,
    /** The system or undici error code, when there was one (ECONNREFUSED, ECONNRESET, …). */
    readonly code?: string,
    /** Known only for a request with a `wire`: whether all of it was handed to the socket before the failure. */
    readonly written?: boolean,
  ) {
    super(typeof message === 'string' ? said('{0}', message) : message);
    this.name = 'TransportError';
  }

  /** Whether the request may have reached the server before the answer was lost. Known for a request sent with a
   * `wire`; otherwise guessed from the failure: a timeout, or a connection reset or closed mid-exchange. A refused
   * connection or an unknown host never sent anything. */
  get mayHaveBeenSent(): boolean {
    if (this.written !== undefined) return this.written;
    return (
      this.reason === 'timeout' ||
      this.reason === 'too-large' ||
      (this.reason === 'network' &&
        ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(this.code ?? ''))
    );
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Our requests' dispatcher when a request names none: a proxy router, set from the environment (CLI) or VS Code's
 * settings (extension). Kept here, not as undici's global dispatcher, which other extensions in the host share. */
let defaultDispatcher: Dispatcher | undefined;

export function setDefaultDispatcher(dispatcher: Dispatcher | undefined): Dispatcher | undefined {
  const previous = defaultDispatcher;
  defaultDispatcher = dispatcher;
  return previous;
}
const DEFAULT_MAX_RESPONSE = 16 * 1024 * 1024;

export async function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [k, v] of Object.entries(req.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
  let body: Buffer | string | undefined = req.body;
  if (req.json !== undefined) body = JSON.stringify(req.json);
  // Spec: every POST sends Content-Type: application/json, including a POST with no body.
  // A DELETE carrying JSON says so too.
  if ((req.method === 'POST' || req.method === 'PUT' || req.json !== undefined) && !req.omitContentType)
    headers['content-type'] ??= 'application/json';

  let written: boolean | undefined;
  let payload: Buffer | string | AsyncIterable<Buffer> | undefined = body;
  if (req.wire && body !== undefined) {
    // Handed over as an iterable, undici asks for what follows the one chunk only once it wrote the head and the
    // chunk to the socket: that moment is "written". The length stays explicit, so the bytes on the wire are the same.
    const bytes = Buffer.from(body);
    const wire = req.wire;
    written = false;
    headers['content-length'] = String(bytes.length);
    payload = (async function* () {
      yield bytes;
      written = true;
      wire.written();
    })();
  }
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
  const { request } = await undici();
  const started = performance.now();
  let res: Dispatcher.ResponseData;
  try {
    res = await request(req.url, {
      method: req.method,
      headers,
      // undici takes an async iterable body (writeIterable); its types name only the other kinds.
      body: payload as Buffer | string | undefined,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher: req.dispatcher ?? defaultDispatcher,
    });
  } catch (err) {
    throw toTransportError(err, req, timeout, timeoutMs, written);
  }
  req.wire?.answered(res.statusCode);
  const limit = req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        res.body.destroy();
        throw new TransportError(
          said('response from {0} exceeds {1} bytes', redactUrl(req.url), limit),
          'too-large',
          req.url,
          undefined,
          written,
        );
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof TransportError) throw err;
    throw toTransportError(err, req, timeout, timeoutMs, written);
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return {
    status: res.statusCode,
    headers: flat,
    contentType: mediaType(flat['content-type']),
    body: Buffer.concat(chunks),
    durationMs: performance.now() - started,
  };
}

function toTransportError(
  err: unknown,
  req: HttpRequest,
  timeout: AbortSignal,
  timeoutMs: number,
  written: boolean | undefined,
): TransportError {
  const url = redactUrl(req.url);
  const e = err as { code?: string; message?: string };
  if (timeout.aborted || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT')
    return new TransportError(
      said('no answer from {0} within {1} ms', url, timeoutMs),
      'timeout',
      req.url,
      undefined,
      written,
    );
  if (req.signal?.aborted)
    return new TransportError(said('request to {0} was cancelled', url), 'aborted', req.url, undefined, written);
  return new TransportError(
    said('cannot reach {0}: {1}', url, tlsHint(e?.code) ?? e?.code ?? e?.message ?? String(err)),
    'network',
    req.url,
    e?.code,
    written,
  );
}

/** Certificates this process does not trust: most often a proxy or an organisation that re-signs TLS traffic. */
const UNTRUSTED_CERT = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);

/** A TLS failure said with what to do, the code kept; undefined for any other error. */
function tlsHint(code: string | undefined): Said | undefined {
  if (code === undefined) return undefined;
  if (UNTRUSTED_CERT.has(code))
    return said(
      'its TLS certificate is not trusted by this process ({0}); if a proxy or your organisation re-signs TLS traffic, give its CA certificate in NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment VS Code or wfs starts from',
      code,
    );
  if (code === 'CERT_HAS_EXPIRED') return said('its TLS certificate has expired ({0})', code);
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return said('its TLS certificate is for another host name ({0})', code);
  return undefined;
}

/** Media type of a Content-Type header value, lower case, without parameters. */
export function mediaType(value: string | undefined): string {
  return (value ?? '').split(';')[0].trim().toLowerCase();
}

/** A URL fit for messages and logs: no userinfo, no query string (it may carry secrets). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}
