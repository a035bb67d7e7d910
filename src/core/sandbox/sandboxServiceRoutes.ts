// The service's endpoints as the spec states them (Endpoints 1–5, Authentication, Errors).
import { createHash } from 'node:crypto';
import { WORKFLOW_ROOT } from '../http/paths';
import { isLoopbackHost } from '../http/loopback';
import { parseUtcTimestamp } from '../time/timestamps';
import type { SandboxContext } from './sandboxContext';
import { header, isPlainObject, parseJsonBody, type SandboxRequest } from './sandboxRequest';
import { emptyReply, jsonReply, messagesReply, problemReply, type Reply } from './sandboxResponses';
import { SANDBOX_TENANT, resolveProduct } from './sandboxSeed';
import type { TokenSubject } from './sandboxTokens';
import type { SandboxWorkflow } from './sandboxWorkflows';
import { placeholderValues, profileReply } from './sandboxProfile';

const REALM = 'workflow-service';

function problemType(ctx: SandboxContext, name: string): string {
  return `${ctx.problemsBase}/${name}`;
}

function malformed(ctx: SandboxContext, detail: string): Reply {
  return problemReply(400, problemType(ctx, 'malformed-request'), 'Request body cannot be read', detail);
}

function links(ctx: SandboxContext, w: SandboxWorkflow) {
  const href = `${ctx.baseUrl}${WORKFLOW_ROOT}/workflows/${encodeURIComponent(w.workflowId)}`;
  return { self: { href }, reconfirm: { href, method: 'POST' } };
}

/** Checks the bearer token; on refusal returns the spec's 401 problem document with WWW-Authenticate. */
async function authenticate(
  ctx: SandboxContext,
  req: SandboxRequest,
): Promise<{ ok: true; subject: TokenSubject } | { ok: false; reply: Reply }> {
  const check = await ctx.tokens.checkAuthorization(header(req, 'authorization'));
  if (check.ok) {
    if (ctx.faults.take('forbidden')) return { ok: false, reply: emptyReply(403) };
    return check;
  }
  if (check.reason === 'missing')
    return {
      ok: false,
      reply: problemReply(401, 'about:blank', 'Unauthorized', 'No credential was sent.', {
        'www-authenticate': `Bearer realm="${REALM}"`,
      }),
    };
  const detail = check.reason === 'expired' ? 'The access token has expired.' : 'The access token was rejected.';
  return {
    ok: false,
    reply: problemReply(401, problemType(ctx, 'invalid-token'), 'Invalid token', detail, {
      'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${check.reason}"`,
    }),
  };
}

// --- 1. Sign in; 2. Refresh (errors "not shown": ours are problem documents, see README) ---

export async function signIn(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const parsed = parseJsonBody(req);
  if (!parsed.ok || !isPlainObject(parsed.value))
    return malformed(ctx, 'The body must be a JSON object with username and password.');
  const { username, password, useralias } = parsed.value;
  if (typeof username !== 'string' || typeof password !== 'string' || username === '' || password === '')
    return problemReply(
      400,
      problemType(ctx, 'invalid-request'),
      'Invalid request',
      'username and password are required strings.',
    );
  if (useralias !== undefined && typeof useralias !== 'string') return malformed(ctx, 'useralias must be a string.');
  if (username !== ctx.username || password !== ctx.password)
    return ctx.profile?.signInRefusal
      ? profileReply(ctx, ctx.profile.signInRefusal, 'The username or password is not correct.')
      : problemReply(
          401,
          problemType(ctx, 'invalid-credentials'),
          'Invalid credentials',
          'The username or password is not correct.',
        );
  // The alias's placement is "not shown": the sandbox accepts the body field, the X-Svc-UserAlias header or the query
  // parameter.
  const alias =
    (useralias as string | undefined) ?? header(req, 'x-svc-useralias') ?? req.query.get('useralias') ?? undefined;
  return jsonReply(200, await ctx.tokens.issue({ username, alias: alias || undefined }));
}

export async function refresh(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const parsed = parseJsonBody(req);
  if (!parsed.ok || !isPlainObject(parsed.value))
    return malformed(ctx, 'The body must be a JSON object with refresh_token.');
  const token = parsed.value.refresh_token;
  if (typeof token !== 'string' || token === '')
    return problemReply(
      400,
      problemType(ctx, 'invalid-request'),
      'Invalid request',
      'refresh_token is a required string.',
    );
  const redeemed = ctx.tokens.redeem(token);
  if (!redeemed.ok && ctx.profile?.refreshRefusal)
    return profileReply(ctx, ctx.profile.refreshRefusal, 'The refresh token is not known or has lapsed.');
  if (!redeemed.ok)
    return problemReply(
      401,
      problemType(ctx, 'invalid-refresh-token'),
      'Invalid refresh token',
      redeemed.reason === 'expired'
        ? 'The refresh token has lapsed; sign in again.'
        : 'The refresh token is not known.',
    );
  return jsonReply(200, await ctx.tokens.issue(redeemed.subject, token));
}

// --- 4. Start a workflow ---

const START_FIELDS = new Set(['product', 'correlationId']);

export async function startWorkflow(ctx: SandboxContext, req: SandboxRequest, sessionId: string): Promise<Reply> {
  const auth = await authenticate(ctx, req);
  if (!auth.ok) return auth.reply;
  const parsed = parseJsonBody(req);
  if (!parsed.ok) return malformed(ctx, 'The body is not valid JSON.');
  const body = parsed.value;
  if (!isPlainObject(body)) return malformed(ctx, 'The body must be a JSON object.');
  const { product, correlationId } = body;
  // A field of the wrong type means the body cannot be read as the request at all: problem document.
  if (product !== undefined && product !== null && !isPlainObject(product))
    return malformed(ctx, 'product must be an object.');
  if (isPlainObject(product)) {
    for (const f of ['service', 'model'] as const)
      if (product[f] !== undefined && product[f] !== null && typeof product[f] !== 'string')
        return malformed(ctx, `product.${f} must be a string.`);
  }
  if (correlationId !== undefined && typeof correlationId !== 'string')
    return malformed(ctx, 'correlationId must be a string.');

  const now = ctx.clock.now();
  const invalid = (text: string) => messagesReply(400, 'VALIDATION_ERROR', text, now);
  if ('terms' in body) return invalid('The request must not carry a terms field.');
  const extra = Object.keys(body).filter((k) => !START_FIELDS.has(k));
  if (extra.length > 0) return invalid(`Unexpected field(s): ${extra.join(', ')}.`);
  if (!isPlainObject(product)) return invalid('product is required.');
  const service = typeof product.service === 'string' ? product.service.trim() : '';
  const model = typeof product.model === 'string' ? product.model.trim() : '';
  if (!service || !model) return invalid('product needs both service and model.');
  if (typeof correlationId === 'string' && correlationId.length > 255)
    return invalid('correlationId is longer than 255 characters.');
  // Product resolution runs before the empty-session check (spec: Errors, rule 1).
  const definition = resolveProduct(service, model);
  if (!definition) return invalid('The service/model pair does not resolve to a permitted product.');

  const session = ctx.workflows.sessions.get(sessionId);
  if (!session)
    return problemReply(404, problemType(ctx, 'not-found'), 'Not found', `No session with identifier "${sessionId}".`);
  if (!definition.entitled) return emptyReply(403);

  if (ctx.faults.take('start-500'))
    return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' };
  if (ctx.faults.take('start-write-conflict'))
    return messagesReply(409, 'WORKFLOW_WRITE_CONFLICT', 'A concurrent change won the race.', now);
  if (ctx.faults.take('start-conflict-problem'))
    return problemReply(
      409,
      problemType(ctx, 'session-locked'),
      'Conflict',
      'The session is locked by another operation.',
    );
  if (session.loan === null) return messagesReply(409, 'SESSION_EMPTY', 'Nothing is staged in this session.', now);

  const workflow = ctx.workflows.start(
    session,
    definition,
    correlationId as string | undefined,
    actorIdFor(auth.subject),
  );
  if (ctx.faults.take('start-500-billed'))
    return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' };
  return messagesReply(202, 'ACCEPTED', 'The workflow was accepted.', now, {
    workflow: { ...workflow },
    links: links(ctx, workflow),
  });
}

// --- 5. Read workflow (GET self) and reconfirm (POST reconfirm): "not shown" shapes, ours in README ---

export async function readWorkflow(ctx: SandboxContext, req: SandboxRequest, workflowId: string): Promise<Reply> {
  const auth = await authenticate(ctx, req);
  if (!auth.ok) return auth.reply;
  const w = ctx.workflows.get(workflowId);
  if (!w)
    return problemReply(
      404,
      problemType(ctx, 'not-found'),
      'Not found',
      `No workflow with identifier "${workflowId}".`,
    );
  const oversized = ctx.faults.take('read-oversized')
    ? { ordered: { note: 'read-oversized fault', padding: 'x'.repeat(1024 * 1024) } }
    : {};
  return jsonReply(200, { workflow: { ...w, ...oversized }, links: links(ctx, w) });
}

export async function reconfirmWorkflow(ctx: SandboxContext, req: SandboxRequest, workflowId: string): Promise<Reply> {
  const auth = await authenticate(ctx, req);
  if (!auth.ok) return auth.reply;
  if (req.body.length > 0) {
    const parsed = parseJsonBody(req);
    if (!parsed.ok || !isPlainObject(parsed.value))
      return malformed(ctx, 'A reconfirm body, when sent, must be a JSON object.');
  }
  const existing = ctx.workflows.get(workflowId);
  if (!existing)
    return problemReply(
      404,
      problemType(ctx, 'not-found'),
      'Not found',
      `No workflow with identifier "${workflowId}".`,
    );
  const w = ctx.workflows.reconfirm(workflowId);
  if (!w)
    return problemReply(
      409,
      problemType(ctx, 'reconfirm-not-available'),
      'Reconfirm not available',
      'This workflow cannot be reconfirmed now.',
    );
  return messagesReply(202, 'ACCEPTED', 'The reconfirm was accepted.', ctx.clock.now(), {
    workflow: { ...w },
    links: links(ctx, w),
  });
}

/** Find Workflows by correlationId ("not shown" in the spec; the sandbox's own shape). */
export async function findWorkflows(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const auth = await authenticate(ctx, req);
  if (!auth.ok) return auth.reply;
  const cid = req.query.get('correlationId');
  if (!cid) return messagesReply(400, 'VALIDATION_ERROR', 'correlationId is required.', ctx.clock.now());
  const found = ctx.workflows.findByCorrelationId(cid);
  return jsonReply(200, { workflows: found.map((w) => ({ ...w })) });
}

// --- 3. Webhook test endpoint ---

const TEST_HEADERS = [
  'x-svc-topic',
  'x-svc-sub-topic',
  'x-svc-tenant-id',
  'x-svc-webhook-id',
  'x-svc-triggered-at',
] as const;

export async function testWebhook(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const auth = await authenticate(ctx, req);
  if (!auth.ok) return auth.reply;
  const missing = TEST_HEADERS.filter((h) => !header(req, h));
  if (missing.length > 0)
    return problemReply(
      400,
      problemType(ctx, 'missing-header'),
      'Missing header',
      `Required header(s) missing: ${missing.join(', ')}.`,
    );
  const triggeredAt = header(req, 'x-svc-triggered-at')!;
  if (parseUtcTimestamp(triggeredAt) === undefined || !triggeredAt.endsWith('Z'))
    return problemReply(
      400,
      problemType(ctx, 'invalid-header'),
      'Invalid header',
      'X-Svc-Triggered-At must be a UTC timestamp ending in Z.',
    );
  const parsed = parseJsonBody(req);
  if (!parsed.ok || !isPlainObject(parsed.value))
    return malformed(ctx, 'The body must be a JSON object with address and testData.');
  const { address } = parsed.value;
  if (typeof address !== 'string')
    return problemReply(400, problemType(ctx, 'invalid-address'), 'Invalid address', 'address is a required string.');
  const refusal = addressRefusal(address, ctx.allowLoopbackHttp);
  if (refusal) return problemReply(400, problemType(ctx, 'invalid-address'), 'Invalid address', refusal);

  const webhookId = header(req, 'x-svc-webhook-id')!;
  const topic = header(req, 'x-svc-topic')!;
  // testData is sent as the body; without one the sandbox sends an event built from the headers.
  const payload =
    'testData' in parsed.value
      ? parsed.value.testData
      : {
          webhookId,
          topic,
          subTopic: header(req, 'x-svc-sub-topic'),
          tenantId: header(req, 'x-svc-tenant-id'),
          triggeredAt,
          actorId: actorIdFor(auth.subject),
          data: {},
        };
  const body = Buffer.from(JSON.stringify(payload) ?? 'null', 'utf8');
  const forwarded: Record<string, string> = {};
  for (const h of TEST_HEADERS) forwarded[h] = header(req, h)!;
  // A profile adds the headers and token claims an environment was seen to send (sandboxProfile.ts).
  const imitate = ctx.profile?.testWebhook;
  for (const h of imitate?.headers ?? []) forwarded[h] ??= `sandbox-${h}`;
  const iat = Math.floor(ctx.clock.now() / 1000);
  const sign = imitate && {
    claims: placeholderValues(imitate.claims, iat),
    header: placeholderValues(Object.fromEntries(imitate.header.map((h) => [h, 'string' as const])), iat),
    ttlSeconds: imitate.lifetimeSeconds,
  };
  const attempt = await ctx.deliveries.test({ address, body, webhookId, topic, headers: forwarded, sign });
  return jsonReply(200, {
    webhookId,
    address,
    deliveryId: attempt.deliveryId,
    attempt: attempt.attempt,
    ...(attempt.status !== undefined ? { receiverStatus: attempt.status } : {}),
    ...(attempt.error !== undefined ? { error: attempt.error } : {}),
    retryScheduled: attempt.nextAttemptAt !== undefined,
    ...(attempt.retryRefused !== undefined ? { retryRefused: attempt.retryRefused } : {}),
  });
}

function addressRefusal(address: string, allowLoopbackHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'address is not a valid URL.';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(url.hostname)) return undefined;
  return 'address must be a publicly reachable https URL (expose a local receiver through a tunnel).';
}

/** An opaque actor id, never an e-mail address or a name (spec: Webhook event.actorId). */
function actorIdFor(subject: TokenSubject): string {
  return 'act_' + createHash('sha256').update(`${SANDBOX_TENANT}:${subject.username}`).digest('hex').slice(0, 24);
}

export async function jwks(ctx: SandboxContext): Promise<Reply> {
  ctx.stats.jwksRequests++;
  if (ctx.faults.take('jwks-unavailable')) return emptyReply(503);
  return jsonReply(200, await ctx.signer.keySet(), { 'cache-control': 'public, max-age=3600' });
}
