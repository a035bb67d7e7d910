// A stand-in for a real environment, written for the probe's tests: it follows the spec where a probe can check
// it, except in six places where it differs on purpose (the sign-in refusal's shape, a refresh that rotates the
// refresh token, extra JWT claims, an extra test-webhook header, a problem type under another base and, when asked,
// a 2xx on start). It records every request, with whether it could have billed, and the secrets it issued, so a
// test can search the probe's output for them.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify, type CryptoKey, type JWK } from 'jose';

const STAND_IN_USER = 'probe-user';
const STAND_IN_PASSWORD = 'Stand-in-pa55word!';
/** The only product and session that could bill. */
const PRODUCT = { service: 'Appraisal', model: 'Standard' };
const SESSION = 'sess-real-loan';
const ROOT = '/workflow-services-ws/resources/v1';

export interface StandInRequest {
  method: string;
  path: string;
  /** Whether the request carried an Authorization header (the key-set server must never see one). */
  authorization: boolean;
  /** A start that passed every condition of a billed start (valid token, JSON, Content-Type, product, session). */
  couldBill?: boolean;
}

export class StandInService {
  readonly requests: StandInRequest[] = [];
  readonly keySetRequests: StandInRequest[] = [];
  /** Every access and refresh token issued, and the password: none may appear in a report or profile. */
  readonly secrets: string[] = [STAND_IN_PASSWORD];
  baseUrl = '';
  jwksUrl = '';
  private server?: Server;
  private keyServer?: Server;
  private readonly hmac = randomBytes(32);
  private readonly refreshTokens = new Set<string>();
  private key?: { privateKey: CryptoKey; jwk: JWK };

  /** acceptStarts: answer 202 to a start that carries a valid token, whatever else it holds. */
  constructor(private readonly opts: { acceptStarts?: boolean } = {}) {}

  async listen(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    this.key = { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: 'stand-in-1', alg: 'RS256', use: 'sig' } };
    this.server = await listen((req, res) => void this.handle(req, res));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.keyServer = await listen((req, res) => {
      this.keySetRequests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: !!req.headers.authorization,
      });
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600, must-revalidate' });
      res.end(JSON.stringify({ keys: [this.key!.jwk] }));
    });
    this.jwksUrl = `http://127.0.0.1:${(this.keyServer.address() as AddressInfo).port}/keys`;
  }

  /** The environment a CLI user sets for it. */
  get env(): Record<string, string> {
    return {
      WFS_BASE_URL: this.baseUrl,
      WFS_USERNAME: STAND_IN_USER,
      WFS_PASSWORD: STAND_IN_PASSWORD,
      WFS_PROBLEMS_BASE: `${this.baseUrl}/problems`,
      WFS_FIND_WORKFLOWS_URL: `${this.baseUrl}/search/workflows?cid={correlationId}`,
    };
  }

  async stop(): Promise<void> {
    for (const s of [this.server, this.keyServer]) {
      if (!s) continue;
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readAll(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const entry: StandInRequest = { method: req.method ?? '', path, authorization: !!req.headers.authorization };
    this.requests.push(entry);
    const json = parse(body);
    if (path === '/user-management-services-ws/oauth2/002/signInWithPassword') {
      if (json?.username === STAND_IN_USER && json.password === STAND_IN_PASSWORD)
        return send(res, 200, await this.tokens());
      // Differs from the sandbox (the spec is silent): an OAuth-style 400, not a 401 problem document.
      return send(res, 400, { error: 'invalid_grant', error_description: 'Bad credentials' });
    }
    if (path === '/user-management-services-ws/oauth2/002/refreshIdToken') {
      const token = typeof json?.refresh_token === 'string' ? json.refresh_token : '';
      if (!this.refreshTokens.has(token))
        return send(res, 400, { error: 'invalid_grant', error_description: 'Unknown refresh token' });
      // Differs from the spec: a new refresh token on every refresh.
      this.refreshTokens.delete(token);
      return send(res, 200, await this.tokens());
    }
    if (path === '/test-webhook') return this.testWebhook(req, res, json);
    if (req.method === 'GET' && path === '/search/workflows') {
      if (!(await this.valid(req))) return this.unauthorized(req, res);
      return send(res, 200, { items: [], total: 0 });
    }
    const start = new RegExp(`^${ROOT}/sessions/([^/]+)/workflows$`).exec(path);
    if (start && req.method === 'POST') return this.startWorkflow(req, res, body, decodeURIComponent(start[1]!), entry);
    const read = new RegExp(`^${ROOT}/workflows/([^/]+)$`).exec(path);
    if (read && req.method === 'GET') {
      if (!(await this.valid(req))) return this.unauthorized(req, res);
      return problem(res, 404, `${this.baseUrl}/problems/not-found`, 'No such workflow.');
    }
    res.writeHead(404);
    res.end();
  }

  private async startWorkflow(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    session: string,
    entry: StandInRequest,
  ) {
    const validToken = await this.valid(req);
    const json = parse(body);
    const product = json?.product as { service?: unknown; model?: unknown } | undefined;
    entry.couldBill =
      validToken &&
      !!req.headers['content-type'] &&
      product?.service === PRODUCT.service &&
      product?.model === PRODUCT.model &&
      session === SESSION;
    if (this.opts.acceptStarts && validToken) {
      // Differs from the spec on purpose: a start answered 2xx (the probe must stop at once).
      return send(res, 202, {
        workflow: {
          workflowId: 'wf_standin_accepted',
          runId: 'wfrun_standin',
          status: 'processing',
          sessionId: session,
        },
        messages: [{ code: 'ACCEPTED', text: 'Accepted.', timestamp: new Date().toISOString() }],
      });
    }
    if (!req.headers.authorization) return this.unauthorized(req, res);
    if (!validToken) return this.unauthorized(req, res);
    if (!req.headers['content-type']) {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<html><body>Forbidden</body></html>');
      return;
    }
    if (!json) return problem(res, 400, `${this.baseUrl}/problems/malformed-body`, 'Unreadable body.');
    if (entry.couldBill) return send(res, 500, { note: 'the stand-in never bills' });
    return send(res, 400, {
      messages: [
        { code: 'VALIDATION_ERROR', text: 'The product does not resolve.', timestamp: new Date().toISOString() },
      ],
    });
  }

  private unauthorized(req: IncomingMessage, res: ServerResponse): void {
    if (!req.headers.authorization) {
      res.setHeader('www-authenticate', 'Bearer realm="stand-in"');
      return problem(res, 401, 'about:blank', 'No credential.');
    }
    res.setHeader('www-authenticate', 'Bearer realm="stand-in", error="invalid_token"');
    // Differs from the spec on purpose: the invalid-token type under another base than {problems_base}.
    return problem(res, 401, 'https://problems.elsewhere.example/auth/invalid-token', 'Token rejected.');
  }

  private async testWebhook(req: IncomingMessage, res: ServerResponse, json: Record<string, unknown> | undefined) {
    if (!(await this.valid(req))) return this.unauthorized(req, res);
    const address = typeof json?.address === 'string' ? json.address : '';
    const bytes = Buffer.from(JSON.stringify(json?.testData ?? {}));
    const iat = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      body_sha256: createHash('sha256').update(bytes).digest('hex'),
      tid: 'tenant-standin',
      jti: randomUUID(),
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'stand-in-1', typ: 'JWT' })
      .setIssuer('https://stand-in.example/webhooks')
      .setAudience('probe-receiver')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(this.key!.privateKey);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'user-agent': 'StandIn-Webhooks/1',
      // Differs from the sandbox on purpose: one header the sandbox does not send.
      'x-standin-delivery': randomUUID(),
    };
    for (const h of ['x-svc-topic', 'x-svc-sub-topic', 'x-svc-tenant-id', 'x-svc-webhook-id', 'x-svc-triggered-at'])
      headers[h] = String(req.headers[h] ?? '');
    const status = await post(address, headers, bytes);
    send(res, 202, { queued: true, answered: status });
  }

  private async tokens(): Promise<Record<string, unknown>> {
    const iat = Math.floor(Date.now() / 1000);
    // Differs from the sandbox on purpose: a kid in the header, and tid and scope claims.
    const access = await new SignJWT({ tid: 'tenant-standin', scope: 'workflows' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'hs-1' })
      .setSubject(STAND_IN_USER)
      .setIssuer('https://stand-in.example')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .setJti(randomUUID())
      .sign(this.hmac);
    const refresh = randomBytes(24).toString('base64url');
    this.refreshTokens.add(refresh);
    this.secrets.push(access, refresh);
    return { access_token: access, refresh_token: refresh, expires_in: 3600, token_type: 'Bearer' };
  }

  private async valid(req: IncomingMessage): Promise<boolean> {
    const m = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''));
    if (!m) return false;
    try {
      await jwtVerify(m[1]!, this.hmac, { algorithms: ['HS256'] });
      return true;
    } catch {
      return false;
    }
  }
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const s = createServer(handler);
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r(s)));
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function parse(body: Buffer): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

function problem(res: ServerResponse, status: number, type: string, detail: string): void {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ type, title: 'Refused', status, detail, instance: `urn:uuid:${randomUUID()}` }));
}

function post(address: string, headers: Record<string, string>, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(
      address,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}
