// The "apps" of the acceptance checks: what a user writes beside the toolkit, from the docs alone. A node:http app
// that verifies deliveries with jose as docs/receiver.md and docs/testkit.md show (issuer, audience, key set,
// RS256, body_sha256 over the raw bytes), optionally deduping on the body's webhookId as the spec asks; a free
// port; and a proxy standing in for a tunnel that can be told to stop routing.
import { createHash } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/** The sandbox's issuer and audience as docs/cli.md's ready line and docs/agents.md give them. */
export const SANDBOX_ISSUER = 'https://sandbox.workflow-service.invalid/webhooks';
export const SANDBOX_AUDIENCE = 'workflow-service-toolkit';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  json?: any;
  verified: boolean;
  reason?: string;
  status: number;
}

export interface App {
  url: string;
  port: number;
  received: Received[];
  /** Times the handler itself ran (verified, not a duplicate). */
  handled: Received[];
  /** What the handler answers a verified, first-seen delivery (default 200 {"ok":true}). */
  answer: (r: Received) => { status: number; headers?: Record<string, string>; body: string };
  stop(): Promise<void>;
}

export interface AppOptions {
  jwksUrl?: string;
  dedupe?: boolean;
  path?: string;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** An app on 127.0.0.1 at `path` (default /webhooks) that verifies with jose against `jwksUrl`, when given. */
export async function startJoseApp(o: AppOptions = {}): Promise<App> {
  const path = o.path ?? '/webhooks';
  const jwks = o.jwksUrl ? createRemoteJWKSet(new URL(o.jwksUrl)) : undefined;
  const seen = new Set<string>();
  const app: App = {
    url: '',
    port: 0,
    received: [],
    handled: [],
    answer: () => ({ status: 200, body: JSON.stringify({ ok: true }) }),
    stop: async () => undefined,
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const r: Received = { path: req.url ?? '', headers: req.headers, body, verified: false, status: 0 };
    app.received.push(r);
    const send = (status: number, text: string, headers: Record<string, string> = {}): void => {
      r.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
    };
    if (req.url !== path || req.method !== 'POST') return send(404, '{"error":"not found"}');
    if (jwks) {
      try {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        const { payload } = await jwtVerify(token, jwks, {
          issuer: SANDBOX_ISSUER,
          audience: SANDBOX_AUDIENCE,
          algorithms: ['RS256'],
          clockTolerance: 60,
        });
        if (payload.body_sha256 !== createHash('sha256').update(body).digest('hex')) throw new Error('body_sha256');
      } catch (e) {
        r.reason = (e as Error).message;
        return send(401, JSON.stringify({ error: r.reason }));
      }
    }
    r.verified = true;
    try {
      r.json = JSON.parse(body.toString('utf8'));
    } catch {
      return send(400, '{"error":"not json"}');
    }
    if (o.dedupe && typeof r.json.webhookId === 'string') {
      if (seen.has(r.json.webhookId)) return send(200, JSON.stringify({ ok: true, duplicate: true }));
    }
    app.handled.push(r);
    const a = app.answer(r);
    if (o.dedupe && a.status >= 200 && a.status < 300) seen.add(r.json.webhookId);
    send(a.status, a.body, a.headers);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  app.port = (server.address() as AddressInfo).port;
  app.url = `http://127.0.0.1:${app.port}${path}`;
  app.stop = () => closeServer(server);
  return app;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
}

/** A port free now (listened on, then closed), for commands that need a fixed one. */
export async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface Proxy {
  url: string;
  /** false: every request is answered 502 as a tunnel's edge does when nothing is behind it. */
  routing: boolean;
  forwarded: number;
  stop(): Promise<void>;
}

/** A reverse proxy on 127.0.0.1 standing in for a tunnel's public address, forwarding to 127.0.0.1:target. */
export async function startProxy(target: number): Promise<Proxy> {
  const proxy: Proxy = { url: '', routing: true, forwarded: 0, stop: async () => undefined };
  const server = createServer((req, res) => {
    if (!proxy.routing) {
      req.resume();
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway: tunnel not connected</h1>');
      return;
    }
    proxy.forwarded++;
    const out = httpRequest(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.stop = () => closeServer(server);
  return proxy;
}
