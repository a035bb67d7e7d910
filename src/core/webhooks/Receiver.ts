// The embedded webhook receiver (spec: Events, Authentication 6; DESIGN.md §3 Receiver): node:http on loopback,
// raw body with a size cap, the seven verification steps, dedupe on webhookId recorded only after verification,
// an optional response override, forwarding to the developer's own app, and a log of every request.
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { isUtf8 as isUtf8Native } from 'node:buffer';
import { httpRequest } from '../http/request';
import type { Clock } from '../time/clock';
import { DedupeSet } from './DedupeSet';
import { DeliveryLog, redactHeaders, type DeliveryRecord, type ForwardResult } from './DeliveryLog';
import type { Verifier, VerificationResult } from './Verifier';

export interface ReceiverOptions {
  verifier: Verifier;
  clock: Clock;
  host?: string;
  port?: number;
  path?: string;
  maxBodyBytes?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** How often Node checks those timeouts (its default is 30 s). */
  timeoutCheckIntervalMs?: number;
  log?: DeliveryLog;
  /** Answer verified deliveries with this status instead (e.g. 500 to rehearse the service's retries). */
  respondWith?: number;
  forwardTo?: string;
  forwardTimeoutMs?: number;
}

export const DEFAULT_MAX_BODY = 1024 * 1024;
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'proxy-connection']);

export class Receiver extends EventEmitter {
  readonly log: DeliveryLog;
  private server?: Server;
  private readonly dedupe = new DedupeSet();
  private respondWith?: number;
  private localUrl?: string;
  /** Requests being served and connections open: the verifier moves signature checks off the event loop when either is > 1. */
  private inFlight = 0;
  private connections = 0;

  constructor(private readonly options: ReceiverOptions) {
    super();
    this.log = options.log ?? new DeliveryLog();
    this.respondWith = options.respondWith;
  }

  get url(): string | undefined {
    return this.localUrl;
  }

  get path(): string {
    return this.options.path ?? '/webhooks';
  }

  /** Sets or clears (undefined) the status answered to verified deliveries. */
  setResponseOverride(status: number | undefined): void {
    if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599)) throw new RangeError('the override must be an HTTP status from 200 to 599');
    this.respondWith = status;
  }

  async start(): Promise<string> {
    if (this.localUrl) return this.localUrl;
    const server = createServer({ connectionsCheckingInterval: this.options.timeoutCheckIntervalMs ?? 1000 }, (req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.connections++;
      socket.once('close', () => this.connections--);
    });
    server.headersTimeout = this.options.headersTimeoutMs ?? 10_000;
    server.requestTimeout = this.options.bodyTimeoutMs ?? 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Loopback only: the public side is the tunnel's job.
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    this.server = server;
    const a = server.address() as AddressInfo;
    this.localUrl = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}${this.path}`;
    return this.localUrl;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    this.localUrl = undefined;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
    await this.log.flush();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight++;
    try {
      await this.serve(req, res);
    } finally {
      this.inFlight--;
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const receivedAt = new Date(this.options.clock.now()).toISOString();
    const path = (req.url ?? '/').split('?')[0];
    const record: DeliveryRecord = {
      id: randomUUID(),
      receivedAt,
      method: req.method ?? '',
      path,
      headers: redactHeaders(req.headers),
      rawBodyBase64: '',
      bodyIsUtf8: true,
      checks: [],
      verified: false,
      status: 0,
      durationMs: 0,
      duplicate: false,
    };
    const finish = (status: number, body = '') => {
      record.status = status;
      record.durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      if (!res.headersSent) {
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }
      this.log.add(record);
      this.emit('delivery', record);
    };

    if (path !== this.path) return finish(404, 'not the webhook path\n');
    if (req.method !== 'POST') return finish(405, 'POST only\n');
    const raw = await readCapped(req, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY);
    if (raw === 'too-large') {
      finish(413, 'body too large\n');
      req.destroy();
      return;
    }
    if (raw === 'aborted') return finish(400, 'body not received\n');
    record.rawBodyBase64 = raw.toString('base64');
    record.bodyIsUtf8 = isUtf8(raw);

    let result: VerificationResult;
    try {
      result = await this.options.verifier.verify(headerValue(req, 'authorization'), raw, this.inFlight > 1 || this.connections > 1);
    } catch (err) {
      // Any exception inside verification is a refusal (DESIGN.md §8: jose throws plain TypeErrors for some keys).
      result = { ok: false, checks: [{ step: 7, name: 'decision', ok: false, detail: `refused with 403: ${(err as Error).message}` }] };
    }
    record.checks = result.checks;
    record.jwt = result.header || result.claims ? { header: result.header, claims: result.claims } : undefined;
    record.verified = result.ok;
    if (!result.ok) return finish(403, 'forbidden\n');
    if (result.bodyError !== undefined) return finish(400, 'the body is not JSON\n');

    record.parsedBody = result.body;
    const event = (result.body ?? {}) as Record<string, unknown>;
    const data = event.data as Record<string, unknown> | undefined;
    record.webhookId = typeof event.webhookId === 'string' ? event.webhookId : headerValue(req, 'x-svc-webhook-id');
    record.topic = typeof event.topic === 'string' ? event.topic : headerValue(req, 'x-svc-topic');
    if (data && typeof data.runId === 'string') record.runId = data.runId;

    if (record.webhookId && this.dedupe.has(record.webhookId)) {
      record.duplicate = true;
      return finish(200, 'duplicate\n');
    }
    let status = 200;
    if (this.options.forwardTo) {
      record.forward = await this.forward(req, raw);
      status = record.forward.status ?? 502;
    }
    if (this.respondWith !== undefined) status = this.respondWith;
    // Only a delivery answered 2xx counts as processed: a 5xx is resent by the service and must not look duplicated.
    if (record.webhookId && status >= 200 && status < 300) this.dedupe.add(record.webhookId);
    this.emit('verified-event', { event: result.body, record });
    return finish(status, status < 300 ? 'ok\n' : 'not processed\n');
  }

  private async forward(req: IncomingMessage, raw: Buffer): Promise<ForwardResult> {
    const target = this.options.forwardTo!;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const t = performance.now();
    try {
      const res = await httpRequest({ method: 'POST', url: target, headers, body: raw, timeoutMs: this.options.forwardTimeoutMs ?? 10_000, maxResponseBytes: 64 * 1024 });
      return { target, status: res.status, latencyMs: Math.round((performance.now() - t) * 1000) / 1000 };
    } catch (err) {
      return { target, latencyMs: Math.round((performance.now() - t) * 1000) / 1000, error: (err as Error).message };
    }
  }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function isUtf8(buf: Buffer): boolean {
  return isUtf8Native(buf);
}

function readCapped(req: IncomingMessage, cap: number): Promise<Buffer | 'too-large' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) return Promise.resolve('too-large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > cap) {
        req.removeAllListeners('data');
        resolve('too-large');
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve('aborted'));
    req.on('aborted', () => resolve('aborted'));
  });
}
