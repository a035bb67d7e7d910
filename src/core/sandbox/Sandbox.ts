// The embedded simulator of the Workflow Service: one node:http server implementing every endpoint and error
// row of the spec, plus a control API under /sandbox/ (docs/design.md). Everything time-dependent runs on an
// injectable clock.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TypedEmitter } from '../events/TypedEmitter';
import { OffsetClock, type Clock } from '../time/clock';
import { edgeViolation } from '../http/edgeFilter';
import { isAllowedHost } from '../http/hostCheck';
import { connectableAddress } from '../http/everyInterface';
import { healthAnswer, isHealthRequest } from '../http/health';
import { REFRESH_PATH, SIGN_IN_PATH, TEST_WEBHOOK_PATH, WORKFLOW_ROOT } from '../http/paths';
import { controlRoute, type AdvanceableClock } from './sandboxControlRoutes';
import type { SandboxContext } from './sandboxContext';
import { SandboxFaults } from './sandboxFaults';
import {
  MAX_REQUEST_BYTES,
  MAX_REQUEST_BYTES_IN_FLIGHT,
  parsePath,
  sizeInWords,
  type SandboxRequest,
} from './sandboxRequest';
import { edgeHtmlReply, emptyReply, problemReply, send, type Reply } from './sandboxResponses';
import { DEFAULT_THROTTLE, RateThrottle, type ThrottleOptions } from './rateThrottle';
import {
  EMPTY_SESSION_ID,
  SANDBOX_AUDIENCE,
  SANDBOX_ISSUER,
  SANDBOX_PASSWORD,
  SANDBOX_PRODUCTS,
  SANDBOX_USERNAME,
  STAGED_SESSION_ID,
} from './sandboxSeed';
import * as service from './sandboxServiceRoutes';
import { SandboxTokens } from './sandboxTokens';
import { SandboxWorkflows, type WorkflowEvent } from './sandboxWorkflows';
import { DEFAULT_RETRY, WebhookDispatcher, type DeliveryAttempt, type RetryPolicy } from './webhookDispatcher';
import { WebhookSigner } from '../signing/webhookSigner';
import { listenOn } from '../http/listenError';
import { newControlSecret, originRefusal } from './sandboxAccess';
import type { SandboxProfile } from './sandboxProfile';
import { FaultedDeliveries } from './faultedDeliveries';
import type { JWK } from 'jose';

export interface SandboxOptions {
  host?: string;
  port?: number;
  clock?: Clock & Partial<AdvanceableClock>;
  accessTokenTtlSeconds?: number;
  workflowDurationSeconds?: number;
  issuer?: string;
  audience?: string;
  throttle?: Partial<ThrottleOptions>;
  retry?: Partial<RetryPolicy>;
  allowLoopbackHttp?: boolean;
  maxBodyBytes?: number;
  /** Host names the sandbox answers besides loopback addresses and localhost (e.g. a name a proxy or container
   * reaches it by). Any other Host header is refused with 421, so a DNS-rebinding page cannot use it. */
  allowedHosts?: readonly string[];
  /** Imitate an environment where the spec is silent (sandboxProfile.ts). */
  profile?: SandboxProfile;
  /** Signing keys kept from an earlier start (private JWKs, current first), and its control secret: the same port
   * then keeps the same key set and secret (sandboxState.ts). Default: new ones. */
  kept?: { keys: JWK[]; controlSecret: string };
  /** The control secret to take, in place of a kept or new one: given by whoever starts it (containers that share it
   * through their environment). */
  controlSecret?: string;
  /** Told after the keys change (rotate-key), so whoever keeps them writes them again. */
  onKeysChanged?: (keys: JWK[]) => Promise<void>;
  /** GET /healthz answers 503 until markReady(): for a starter that has more to do after start() (make the key, keep
   * the state, print its ready line) before a container may count on it. Default: healthy once it serves. */
  healthWaitsForReady?: boolean;
}

export interface SandboxInfo {
  baseUrl: string;
  testWebhookUrl: string;
  problemsBase: string;
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** The signing key's id: its JWK thumbprint, so two sandboxes (same issuer string) never share one. The key is
   * made when first needed (a signature, the key set, infoWithKey()), so start() may answer before it exists. */
  kid?: string;
  username: string;
  password: string;
  sessions: { staged: string; empty: string };
  products: { service: string; model: string }[];
  unentitledProduct: { service: string; model: string };
  /** What the control API and /sandbox/sign need in X-Sandbox-Secret: new at every start, so only whoever started
   * the sandbox (or was told by them) can sign deliveries with its key or change its state. */
  controlSecret: string;
}

// Type literals, not interfaces: `wfs sandbox` prints each as a JSON line (a Record of its fields).
type RequestEvent = {
  event: 'request';
  method: string;
  path: string;
  status: number;
  durationMs: number;
  correlationId?: string;
};

/** A webhook attempt of the dispatcher, as `wfs sandbox` prints it. */
type WebhookAttemptEvent = { event: 'webhook' } & DeliveryAttempt;

/** A fault of the sandbox's own while handling a request (answered 500). */
type SandboxErrorEvent = {
  event: 'sandbox-error';
  message: string;
};

export interface SandboxEvents {
  /** Every request answered. */
  request: [RequestEvent];
  /** Every webhook attempt, retries included. */
  webhook: [WebhookAttemptEvent];
  /** A workflow event published to the registered endpoints. */
  'workflow-event': [WorkflowEvent];
  'error-event': [SandboxErrorEvent];
}

export const JWKS_PATH = '/.well-known/jwks.json';

export class Sandbox extends TypedEmitter<SandboxEvents> {
  readonly clock: Clock & Partial<AdvanceableClock>;
  private server?: Server;
  private ctx?: SandboxContext;
  private readonly options: SandboxOptions;
  private readyForHealth: boolean;

  constructor(options: SandboxOptions = {}) {
    super();
    this.options = options;
    this.clock = options.clock ?? new OffsetClock();
    this.readyForHealth = !options.healthWaitsForReady;
  }

  get context(): SandboxContext {
    if (!this.ctx) throw new Error('the sandbox is not started');
    return this.ctx;
  }

  async start(): Promise<SandboxInfo> {
    if (this.server) return this.info();
    const server = createServer((req, res) => void this.handle(req, res));
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    await listenOn(server, this.options.port ?? 0, this.options.host ?? '127.0.0.1');
    this.server = server;
    const addr = server.address() as AddressInfo;
    // Listening on every interface (0.0.0.0, ::) is not an address to connect to, nor a Host the sandbox answers: the
    // addresses it hands out (baseUrl, jwksUrl, links) name this machine's loopback, which it always answers.
    const connectable = connectableAddress(addr.address);
    const host = addr.family === 'IPv6' ? `[${connectable}]` : connectable;
    const baseUrl = `http://${host}:${addr.port}`;
    const clock = this.clock;
    const signer = await this.newSigner(clock);
    const dispatcher = new WebhookDispatcher(clock, signer, { ...DEFAULT_RETRY, ...this.options.retry });
    dispatcher.on('attempt', (a) => this.emit('webhook', { event: 'webhook', ...a }));
    const ctx: SandboxContext = {
      clock,
      baseUrl,
      problemsBase: `${baseUrl}/problems`,
      username: SANDBOX_USERNAME,
      password: SANDBOX_PASSWORD,
      tokens: new SandboxTokens(
        clock,
        `${baseUrl}/user-management-services-ws`,
        this.options.accessTokenTtlSeconds ?? 3600,
      ),
      workflows: new SandboxWorkflows(clock, (this.options.workflowDurationSeconds ?? 20) * 1000, (e) =>
        this.publish(e),
      ),
      signer,
      dispatcher,
      faults: new SandboxFaults(),
      deliveries: new FaultedDeliveries(clock, signer, dispatcher),
      throttle: new RateThrottle(clock, { ...DEFAULT_THROTTLE, ...this.options.throttle }),
      webhookEndpoints: new Set(),
      allowLoopbackHttp: this.options.allowLoopbackHttp ?? true,
      controlSecret: this.options.controlSecret ?? this.options.kept?.controlSecret ?? newControlSecret(),
      keysChanged: this.options.onKeysChanged
        ? async () => this.options.onKeysChanged!(await signer.exportKeys())
        : undefined,
      stats: { jwksRequests: 0, requests: 0 },
      profile: this.options.profile,
    };
    ctx.tokens.imitate = this.options.profile?.accessToken;
    ctx.deliveries.set(this.options.profile?.deliveryFaults);
    this.ctx = ctx;
    return this.info();
  }

  private async newSigner(clock: Clock): Promise<WebhookSigner> {
    const issuer = this.options.issuer ?? SANDBOX_ISSUER;
    const audience = this.options.audience ?? SANDBOX_AUDIENCE;
    const kept = this.options.kept?.keys;
    if (kept?.length) return WebhookSigner.fromKeys(clock, issuer, audience, kept);
    // Its key is made when first needed (webhookSigner.ts): start-up does not wait on an RSA key pair.
    return new WebhookSigner(clock, issuer, audience);
  }

  info(): SandboxInfo {
    const ctx = this.context;
    const unentitled = SANDBOX_PRODUCTS.find((p) => !p.entitled)!;
    return {
      baseUrl: ctx.baseUrl,
      testWebhookUrl: ctx.baseUrl,
      problemsBase: ctx.problemsBase,
      issuer: ctx.signer.issuer,
      audience: ctx.signer.audience,
      jwksUrl: `${ctx.baseUrl}${JWKS_PATH}`,
      ...(ctx.signer.hasKey ? { kid: ctx.signer.currentKid } : {}),
      username: ctx.username,
      password: ctx.password,
      sessions: { staged: STAGED_SESSION_ID, empty: EMPTY_SESSION_ID },
      products: SANDBOX_PRODUCTS.filter((p) => p.entitled).map((p) => ({ service: p.service, model: p.model })),
      unentitledProduct: { service: unentitled.service, model: unentitled.model },
      controlSecret: ctx.controlSecret,
    };
  }

  /** The info with the signing key's id: the key is made now if it was not yet. */
  async infoWithKey(): Promise<SandboxInfo & { kid: string }> {
    await this.context.signer.init();
    return { ...this.info(), kid: this.context.signer.currentKid };
  }

  /** With healthWaitsForReady: from now on GET /healthz answers 200. */
  markReady(): void {
    this.readyForHealth = true;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.ctx?.deliveries.stop();
    this.ctx?.dispatcher.stop();
    this.ctx?.workflows.stop();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Workflow events go to every registered endpoint as signed deliveries. */
  private publish(event: WorkflowEvent): void {
    const ctx = this.ctx;
    if (!ctx) return;
    this.emit('workflow-event', event);
    ctx.deliveries.workflowEvent(event, [...ctx.webhookEndpoints]);
  }

  /** GET /healthz from an allowed Host and no web page: 200 once it serves, not logged as a request (a container's
   * healthcheck asks every few seconds) nor counted. */
  private health(req: IncomingMessage, res: ServerResponse): boolean {
    if (!isHealthRequest(req.method, req.url)) return false;
    if (!isAllowedHost(req.headers.host, this.options.allowedHosts) || originRefusal(req.headers.origin)) return false;
    const { status, body } = healthAnswer('sandbox', this.ctx !== undefined && this.readyForHealth);
    req.resume();
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.health(req, res)) return;
    const started = performance.now();
    const ctx = this.ctx;
    let reply: Reply;
    const rawUrl = req.url ?? '/';
    try {
      const hostAllowed = isAllowedHost(req.headers.host, this.options.allowedHosts);
      // A web page's request is refused on every route before anything counts it (the throttle above all).
      const fromPage = hostAllowed ? originRefusal(req.headers.origin) : undefined;
      const cap = this.options.maxBodyBytes ?? MAX_REQUEST_BYTES;
      const body = hostAllowed && !fromPage ? await this.readBody(req, cap) : undefined;
      if (!hostAllowed) reply = misdirected(req.headers.host);
      else if (fromPage) reply = fromPage;
      else if (!ctx) reply = emptyReply(503);
      else if (body === 'too-large')
        reply = problemReply(
          413,
          `${ctx.problemsBase}/request-too-large`,
          'Request too large',
          `The sandbox reads requests of at most ${sizeInWords(cap)}; this one was larger, and nothing was done. Send a smaller body (testData included).`,
        );
      else if (body === 'busy')
        reply = problemReply(
          503,
          `${ctx.problemsBase}/busy`,
          'Busy',
          `The sandbox is reading ${sizeInWords(MAX_REQUEST_BYTES_IN_FLIGHT)} of other requests at once; nothing was done. Send it again in a moment.`,
          { 'retry-after': '1' },
        );
      else if (body === undefined) reply = emptyReply(400);
      else {
        const parsed = parsePath(rawUrl);
        if (!parsed) reply = emptyReply(404);
        else {
          const sreq: SandboxRequest = {
            method: req.method ?? 'GET',
            segments: parsed.segments,
            query: parsed.query,
            headers: req.headers,
            body,
            remoteAddress: req.socket.remoteAddress ?? 'unknown',
          };
          reply = await this.route(ctx, sreq, rawUrl);
        }
      }
    } catch (err) {
      reply = { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' };
      this.emit('error-event', { event: 'sandbox-error', message: (err as Error).message });
    }
    if (!res.headersSent) send(res, reply);
    if (ctx) ctx.stats.requests++;
    const event: RequestEvent = {
      event: 'request',
      method: req.method ?? 'GET',
      path: rawUrl.split('?')[0],
      status: reply.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    const cid = req.headers['x-svc-correlationid'];
    if (typeof cid === 'string') event.correlationId = cid;
    this.emit('request', event);
  }

  private async route(ctx: SandboxContext, req: SandboxRequest, rawUrl: string): Promise<Reply> {
    const seg = req.segments;
    if (seg[0] === 'sandbox')
      return controlRoute(ctx, req, seg.slice(1), {
        info: () => this.infoWithKey(),
        reset: () => this.reset(),
        advance: this.advanceable(),
      });
    if (req.method === 'GET' && '/' + seg.join('/') === JWKS_PATH) return service.jwks(ctx);

    const handler = this.serviceHandler(ctx, req);
    if (handler === 'not-served') return emptyReply(404);
    // The edge runs before the service: the throttle, then the Content-Type and injection checks (HTML 403).
    if (!ctx.throttle.admit(req.remoteAddress)) return emptyReply(429);
    if (handler === 'method-not-allowed') return emptyReply(405);
    if (req.method === 'POST' && !req.headers['content-type']) return edgeHtmlReply('missing Content-Type');
    const violation = edgeScan(req, rawUrl);
    if (violation) return edgeHtmlReply(violation);
    const reply = await handler();
    if (reply.status === 401) ctx.throttle.recordRefusedCredential(req.remoteAddress);
    return reply;
  }

  private serviceHandler(
    ctx: SandboxContext,
    req: SandboxRequest,
  ): (() => Promise<Reply>) | 'not-served' | 'method-not-allowed' {
    const path = '/' + req.segments.join('/');
    const post = req.method === 'POST';
    const only = (ok: boolean, fn: () => Promise<Reply>) => (ok ? fn : 'method-not-allowed');
    if (path === SIGN_IN_PATH) return only(post, () => service.signIn(ctx, req));
    if (path === REFRESH_PATH) return only(post, () => service.refresh(ctx, req));
    if (path === TEST_WEBHOOK_PATH) return only(post, () => service.testWebhook(ctx, req));
    const root = WORKFLOW_ROOT.split('/').filter(Boolean);
    if (root.every((s, i) => req.segments[i] === s)) {
      const rest = req.segments.slice(root.length);
      if (rest.length === 3 && rest[0] === 'sessions' && rest[2] === 'workflows')
        return only(post, () => service.startWorkflow(ctx, req, rest[1]));
      if (rest.length === 2 && rest[0] === 'workflows') {
        if (req.method === 'GET') return () => service.readWorkflow(ctx, req, rest[1]);
        return only(post, () => service.reconfirmWorkflow(ctx, req, rest[1]));
      }
      if (rest.length === 1 && rest[0] === 'workflows')
        return only(req.method === 'GET', () => service.findWorkflows(ctx, req));
    }
    return 'not-served';
  }

  private advanceable(): AdvanceableClock | undefined {
    const c = this.clock;
    return typeof c.advance === 'function' ? { advance: (ms) => c.advance!(ms) } : undefined;
  }

  /** Bytes of request bodies being read now, across connections (MAX_REQUEST_BYTES_IN_FLIGHT). */
  private bytesInFlight = 0;

  /** The whole body, or why not: larger than `cap` (read to its end and dropped, so the sender reads the 413), or
   * the bodies being read at once past their bound. */
  private readBody(req: IncomingMessage, cap: number): Promise<Buffer | 'too-large' | 'busy'> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let held = 0;
      let refused: 'too-large' | 'busy' | undefined;
      const release = () => {
        this.bytesInFlight -= held;
        held = 0;
        chunks.length = 0;
      };
      req.on('data', (c: Buffer) => {
        if (refused) return;
        if (held + c.length > cap) refused = 'too-large';
        else if (this.bytesInFlight + c.length > MAX_REQUEST_BYTES_IN_FLIGHT) refused = 'busy';
        if (refused) return release();
        chunks.push(c);
        held += c.length;
        this.bytesInFlight += c.length;
      });
      req.on('end', () => {
        if (refused) return resolve(refused);
        const body = Buffer.concat(chunks);
        release();
        resolve(body);
      });
      req.on('error', (err) => {
        release();
        reject(err);
      });
      // A sender gone mid-body: what it sent is given back to the budget (release twice is harmless).
      req.on('close', release);
    });
  }

  private reset(): void {
    const ctx = this.context;
    ctx.workflows.reset();
    ctx.faults.clear();
    ctx.deliveries.set(undefined);
    ctx.throttle.reset();
    ctx.tokens.reset();
    ctx.webhookEndpoints.clear();
  }
}

/** 421: this server does not answer that name. Said in plain text, never echoing the name as HTML. */
function misdirected(host: string | undefined): Reply {
  return {
    status: 421,
    headers: { 'content-type': 'text/plain; charset=utf-8', connection: 'close' },
    body: `This sandbox answers only loopback names (127.0.0.1, [::1], localhost) and the names given with --allow-host; Host ${JSON.stringify(host ?? '')} is not one of them.\n`,
  };
}

function edgeScan(req: SandboxRequest, rawUrl: string): string | undefined {
  let decodedUrl = rawUrl;
  try {
    decodedUrl = decodeURIComponent(rawUrl);
  } catch {
    // keep the raw form
  }
  const values = [decodedUrl, req.body.toString('utf8')];
  for (const [name, v] of Object.entries(req.headers)) {
    if (name === 'authorization') continue;
    values.push(...(Array.isArray(v) ? v : [v ?? '']));
  }
  for (const v of values) {
    const rule = edgeViolation(v);
    if (rule) return rule;
  }
  return undefined;
}
