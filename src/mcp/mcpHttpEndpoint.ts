// `wfs mcp --http PORT`: the MCP Streamable HTTP transport on loopback only. A web page the user visits can reach
// 127.0.0.1 too (DNS rebinding, or a plain cross-site request), so every request must name this machine in Host,
// carry no Origin but this endpoint's own, and carry the per-start bearer token; anything else is refused before the
// MCP layer reads it. One MCP server per client session, a handful of sessions at most.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { isAllowedHost, isLoopbackHost, listenOn } from '../core/http';
import { SystemClock, type Clock } from '../core/time';
import { RefusalLog, type RefusalLine } from './refusalLog';

const MCP_PATH = '/mcp';
/** Client sessions open at once: an editor or two, a CLI, an inspector; past it the one unused longest is closed. */
export const MAX_SESSIONS = 16;
/** A JSON-RPC message from a client is small; a larger body is refused before it is parsed. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface McpHttpOptions {
  host?: string;
  port: number;
  /** The bearer token every request must carry. */
  token: string;
  /** A new MCP server for a new client session. */
  createServer: () => Server;
  /** Requests refused at the door, for the log: never the token. At most one call per 10 s (refusalLog.ts), the
   * first at once, each with the count refused since the call before; a web page cannot flood the log. */
  onRefused?: (e: RefusalLine) => void;
  /** The clock of the refusal log's interval. */
  clock?: Clock;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** When it was last used, in requests served: the one used longest ago gives way when all places are taken. */
  used: number;
}

export class McpHttpEndpoint {
  private http?: HttpServer;
  private readonly sessions = new Map<string, Session>();
  private readonly token: Buffer;
  private port = 0;
  private served = 0;
  private readonly refusals: RefusalLog;

  constructor(private readonly options: McpHttpOptions) {
    this.token = Buffer.from(options.token, 'utf8');
    this.refusals = new RefusalLog(options.clock ?? new SystemClock(), (line) => options.onRefused?.(line));
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async start(): Promise<string> {
    const host = this.options.host ?? '127.0.0.1';
    if (!isLoopbackHost(host))
      throw new Error(`${host} is not a loopback address: the MCP endpoint listens on this machine only`);
    const http = createServer((req, res) => void this.serve(req, res));
    http.headersTimeout = 10_000;
    await listenOn(http, this.options.port, host);
    this.http = http;
    const a = http.address() as AddressInfo;
    this.port = a.port;
    return `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}${MCP_PATH}`;
  }

  async stop(): Promise<void> {
    this.refusals.close();
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map((s) => s.server.close()));
    const http = this.http;
    this.http = undefined;
    if (!http) return;
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  }

  /** Why this request may not reach the MCP layer, or undefined. */
  private refusal(req: IncomingMessage): { status: number; reason: string } | undefined {
    if (!isAllowedHost(req.headers.host))
      return {
        status: 403,
        reason: `the Host header ${JSON.stringify(req.headers.host ?? '')} is not this machine: the endpoint answers only 127.0.0.1, localhost and [::1]`,
      };
    const origin = req.headers.origin;
    if (origin !== undefined && !this.ownOrigin(origin))
      return {
        status: 403,
        reason: `requests from the web origin ${origin} are refused: only an MCP client (no Origin, or this endpoint's own) may call it`,
      };
    const url = (req.url ?? '').split('?')[0];
    if (url !== MCP_PATH) return { status: 404, reason: `nothing here: the MCP endpoint is ${MCP_PATH}` };
    if (!this.authorized(req.headers.authorization))
      return {
        status: 401,
        reason:
          'a bearer token is required: the one `wfs mcp --http` printed when it started (Authorization: Bearer <token>)',
      };
    return undefined;
  }

  private ownOrigin(origin: string): boolean {
    try {
      const u = new URL(origin);
      return u.protocol === 'http:' && isLoopbackHost(u.hostname) && Number(u.port) === this.port;
    } catch {
      return false;
    }
  }

  private authorized(header: string | undefined): boolean {
    const m = /^Bearer (.+)$/.exec(header ?? '');
    if (!m) return false;
    const given = Buffer.from(m[1]!, 'utf8');
    return given.length === this.token.length && timingSafeEqual(given, this.token);
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const refused = this.refusal(req);
      if (refused) {
        this.refusals.refused({
          ...refused,
          ...(req.headers.origin ? { origin: req.headers.origin } : {}),
          ...(req.headers.host ? { host: req.headers.host } : {}),
        });
        return reply(res, refused.status, refused.reason, refused.status === 401);
      }
      const sessionId = header(req, 'mcp-session-id');
      const known = sessionId === undefined ? undefined : this.sessions.get(sessionId);
      if (req.method === 'POST') {
        const body = await readJson(req);
        if (body === undefined) return reply(res, 400, 'the body is not JSON, or larger than 1 MiB');
        if (known) {
          known.used = ++this.served;
          return await known.transport.handleRequest(req, res, body);
        }
        if (sessionId !== undefined) return reply(res, 404, 'this session is closed or unknown: initialize a new one');
        if (!isInitializeRequest(body)) return reply(res, 400, 'no session: the first request must be initialize');
        // A client that went away without closing its session holds a place: the one unused longest gives way.
        if (this.sessions.size >= MAX_SESSIONS) await this.closeLeastUsed();
        return await this.open(req, res, body);
      }
      if (req.method === 'GET' || req.method === 'DELETE') {
        if (!known) return reply(res, sessionId === undefined ? 400 : 404, 'no such session: initialize one first');
        known.used = ++this.served;
        return await known.transport.handleRequest(req, res);
      }
      res.setHeader('allow', 'GET, POST, DELETE');
      return reply(res, 405, `${req.method} is not an MCP request`);
    } catch (err) {
      if (!res.headersSent) reply(res, 500, `the request failed: ${(err as Error).message}`);
      else res.destroy();
    }
  }

  private async closeLeastUsed(): Promise<void> {
    let oldest: [string, Session] | undefined;
    for (const entry of this.sessions) if (!oldest || entry[1].used < oldest[1].used) oldest = entry;
    if (!oldest) return;
    this.sessions.delete(oldest[0]);
    await oldest[1].server.close().catch(() => undefined);
  }

  private async open(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const server = this.options.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, { transport, server, used: ++this.served }),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function reply(res: ServerResponse, status: number, message: string, challenge = false): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(challenge ? { 'www-authenticate': 'Bearer realm="wfs mcp"' } : {}),
  });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
