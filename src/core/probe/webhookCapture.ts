// The probe's own loopback receiver for its one test webhook. It records what arrives (header names, the JWT's
// header and claim names, its lifetime, whether the body is the testData sent and matches body_sha256) and keeps
// nothing else: no token, no header value, no body. It answers 200 to the first POST so the service does not retry.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAllowedHost } from '../http/hostCheck';
import { listenOn } from '../http/listenError';
import { mediaType } from '../http/request';
import { jwtNames } from './observe';
import type { Observation } from './probeTypes';

/** Headers every HTTP client sends about the connection itself: not a choice of the service's. */
const TRANSPORT_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'te']);
/** A test webhook's body is small; anything larger is read no further. */
const MAX_BODY = 1024 * 1024;

export interface CapturedDelivery {
  observation: Observation;
  /** The delivery's kid, compared with the key sets' later. */
  kid?: string;
}

export class WebhookCapture {
  private server?: Server;
  private captured?: CapturedDelivery;
  private waiters: ((c: CapturedDelivery) => void)[] = [];
  private expectedBody?: string;

  /** publicHost: the host name of the address the service is given, which the Host header may carry. */
  constructor(private readonly publicHost?: string) {}

  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    const server = createServer((req, res) => {
      if (!isAllowedHost(req.headers.host, this.publicHost ? [this.publicHost] : [])) {
        req.resume();
        res.writeHead(421, { connection: 'close' }).end();
        return;
      }
      if (req.method !== 'POST' || this.captured) {
        req.resume();
        res.writeHead(this.captured ? 409 : 405).end();
        return;
      }
      void readCapped(req).then((body) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        this.record(req, body);
      });
    });
    await listenOn(server, port, host);
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  /** The testData the probe sends, as JSON text, to compare with what arrives. */
  expect(testData: unknown): void {
    this.expectedBody = JSON.stringify(testData);
  }

  /** The delivery once it has arrived. */
  next(): Promise<CapturedDelivery> {
    if (this.captured) return Promise.resolve(this.captured);
    return new Promise((r) => this.waiters.push(r));
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    await new Promise<void>((r) => {
      s.close(() => r());
      s.closeAllConnections();
    });
  }

  private record(req: IncomingMessage, body: Buffer | undefined): void {
    const headers = Object.keys(req.headers)
      .map((h) => h.toLowerCase())
      .filter((h) => !TRANSPORT_HEADERS.has(h))
      .sort();
    const auth = typeof req.headers.authorization === 'string' ? req.headers.authorization : '';
    const m = /^(\S+)\s+(\S+)$/.exec(auth.trim());
    const scheme = m ? (m[1]!.toLowerCase() === 'bearer' ? 'Bearer' : m[1]!.slice(0, 32)) : auth ? 'malformed' : '';
    const jwt = m && scheme === 'Bearer' ? jwtNames(m[2]!) : undefined;
    const facts: Observation['facts'] = { method: req.method ?? '', headers, authorizationScheme: scheme };
    let kid: string | undefined;
    if (m && jwt) {
      const claims = JSON.parse(Buffer.from(m[2]!.split('.')[1]!, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      const header = JSON.parse(Buffer.from(m[2]!.split('.')[0]!, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      if (body && typeof claims.body_sha256 === 'string')
        facts.bodyShaMatches = claims.body_sha256.toLowerCase() === createHash('sha256').update(body).digest('hex');
      if (typeof header.kid === 'string') kid = header.kid;
    }
    if (body === undefined) facts.bodyTooLarge = true;
    else if (this.expectedBody !== undefined) facts.bodyIsTestData = sameJson(body, this.expectedBody);
    const observation: Observation = {
      status: 0,
      contentType: mediaType(req.headers['content-type']),
      bodyKind: 'other',
      facts,
      ...(jwt ? { jwt } : {}),
    };
    this.captured = { observation, kid };
    for (const w of this.waiters.splice(0)) w(this.captured);
  }
}

function sameJson(body: Buffer, expected: string): boolean {
  try {
    return JSON.stringify(JSON.parse(body.toString('utf8'))) === expected;
  } catch {
    return false;
  }
}

function readCapped(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
  });
}
