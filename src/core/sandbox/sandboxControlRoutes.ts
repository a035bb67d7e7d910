// The sandbox's own control API under /sandbox/ (not part of the service): create and stage sessions,
// register webhook endpoints, inject faults, move the clock, sign bytes. No throttle: it is a loopback test harness,
// but only for whoever holds the per-start secret (sandboxAccess.ts).
import type { SandboxContext } from './sandboxContext';
import { isFaultKind, FAULT_KINDS } from './sandboxFaults';
import { DELIVERY_FAULT_KINDS, isDeliveryFaultKind, withDeliveryFault } from './deliveryFaults';
import { isPlainObject, parseJsonBody, type SandboxRequest } from './sandboxRequest';
import { jsonReply, problemReply, type Reply } from './sandboxResponses';
import type { WorkflowStatus } from './sandboxWorkflows';
import { randomBytes } from 'node:crypto';
import { signCustom } from '../signing/webhookSigner';
import { signedHereClaims } from '../webhooks/signedHereClaim';
import { SANDBOX_SECRET_HEADER, secretRefusal } from './sandboxAccess';
import { claimProof, MAX_NONCE_CHARS } from './sandboxClaim';

export interface AdvanceableClock {
  advance(ms: number): void;
}

function bad(ctx: SandboxContext, detail: string): Reply {
  return problemReply(400, `${ctx.problemsBase}/sandbox-control`, 'Bad control request', detail);
}

/** What the sandbox holds is bounded (it runs in the extension host): past a bound, nothing is changed. */
function tooMuch(ctx: SandboxContext, detail: string): Reply {
  return problemReply(507, `${ctx.problemsBase}/sandbox-full`, 'Sandbox full', `${detail}.`);
}

function notFound(ctx: SandboxContext, detail: string): Reply {
  return problemReply(404, `${ctx.problemsBase}/not-found`, 'Not found', detail);
}

function body(req: SandboxRequest): Record<string, unknown> | undefined {
  if (req.body.length === 0) return {};
  const p = parseJsonBody(req);
  return p.ok && isPlainObject(p.value) ? p.value : undefined;
}

/** Every fault still to come with its count left: the injected ones, the forced throttle and failing workflows. */
function pendingFaults(ctx: SandboxContext): Record<string, number> {
  const out = ctx.faults.list();
  if (ctx.throttle.forcedPending > 0) out.throttle = ctx.throttle.forcedPending;
  if (ctx.workflows.failNext > 0) out['workflow-fails'] = ctx.workflows.failNext;
  return out;
}

function mediaTypeOf(req: SandboxRequest): string {
  const v = req.headers['content-type'];
  return (Array.isArray(v) ? v[0] : (v ?? '')).split(';')[0].trim().toLowerCase();
}

const LITERAL_ROUTES = new Set(['POST clock/advance', 'POST keys/rotate']);

/** The explorer's bound on a session id too. */
export const MAX_SESSION_ID_CHARS = 255;
/** Addresses every event goes to, each delivery a request: a handful is what a developer registers. */
export const MAX_WEBHOOK_ENDPOINTS = 100;
export const MAX_ENDPOINT_URL_CHARS = 2048;

export interface ControlHooks {
  info: () => Promise<unknown>;
  reset: () => void;
  advance?: AdvanceableClock;
}

/** One control request, checked: its JSON body (an object), the id its path names, and what the Sandbox lends. */
interface ControlCall {
  ctx: SandboxContext;
  req: SandboxRequest;
  b: Record<string, unknown>;
  id: string;
  hooks: ControlHooks;
}

type ControlHandler = (call: ControlCall) => Reply | Promise<Reply>;

export async function controlRoute(
  ctx: SandboxContext,
  req: SandboxRequest,
  rest: string[],
  hooks: ControlHooks,
): Promise<Reply> {
  // The one route without the secret: it proves the sandbox holds it, never showing it (sandboxClaim.ts).
  if (req.method === 'POST' && rest.length === 1 && rest[0] === 'claim') return claim(ctx, req);
  const refused = refusal(ctx, req);
  if (refused) return refused;
  const b = body(req);
  if (b === undefined) return bad(ctx, 'The body must be a JSON object.');
  const handler = ROUTES.get(routeOf(req.method, rest));
  if (!handler) return notFound(ctx, `No control route ${req.method} /sandbox/${rest.join('/')}.`);
  return handler({ ctx, req, b, id: rest[1], hooks });
}

/** POST /sandbox/claim {nonce}: {baseUrl, proof}, the proof that this sandbox holds its control secret. */
function claim(ctx: SandboxContext, req: SandboxRequest): Reply {
  if (mediaTypeOf(req) !== 'application/json')
    return problemReply(
      415,
      `${ctx.problemsBase}/sandbox-control`,
      'Unsupported media type',
      'Send {"nonce": …} as application/json.',
    );
  const nonce = body(req)?.nonce;
  if (typeof nonce !== 'string' || nonce.length === 0 || nonce.length > MAX_NONCE_CHARS)
    return bad(ctx, `The body must be {"nonce": a string of 1 to ${MAX_NONCE_CHARS} characters}.`);
  return jsonReply(200, { baseUrl: ctx.baseUrl, proof: claimProof(ctx.controlSecret, nonce, ctx.baseUrl) });
}

/** Why a request is refused before anything is read: no secret, or not JSON. */
function refusal(ctx: SandboxContext, req: SandboxRequest): Reply | undefined {
  // The secret first: without it nothing is read, changed or signed (a preflight carries none, so it fails too).
  const refused = secretRefusal(ctx.problemsBase, req.headers[SANDBOX_SECRET_HEADER], ctx.controlSecret);
  if (refused) return refused;
  // A cross-site page can send a form or text/plain without a preflight, never application/json: so any body, and
  // every POST or PUT (with or without one), must say application/json. GET and DELETE without a body need no type:
  // a page cannot send a DELETE without a preflight that is refused above.
  if (
    (req.body.length > 0 || (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE')) &&
    mediaTypeOf(req) !== 'application/json'
  )
    return problemReply(
      415,
      `${ctx.problemsBase}/sandbox-control`,
      'Unsupported media type',
      'The control API takes Content-Type: application/json only.',
    );
  return undefined;
}

/** The route a request names: two-segment literal routes (clock/advance, keys/rotate) first; otherwise the second
 * segment is an id. */
function routeOf(method: string, rest: string[]): string {
  const literal = `${method} ${rest.join('/')}`;
  if (LITERAL_ROUTES.has(literal)) return literal;
  const [head, id, sub] = rest;
  return `${method} ${head ?? ''}${id !== undefined ? '/:id' : ''}${sub !== undefined ? '/' + sub : ''}`;
}

function createSession({ ctx, b }: ControlCall): Reply {
  const sessionId = b.sessionId ?? 'sess-' + randomBytes(6).toString('hex');
  if (typeof sessionId !== 'string' || sessionId === '') return bad(ctx, 'sessionId must be a non-empty string.');
  // Bounded like the explorer's: a thousand sessions must not hold a megabyte of id each.
  if (sessionId.length > MAX_SESSION_ID_CHARS || /[\u0000-\u001f\u007f]/.test(sessionId))
    return bad(ctx, `sessionId must be at most ${MAX_SESSION_ID_CHARS} characters, with no control characters.`);
  if (ctx.workflows.sessions.has(sessionId))
    return problemReply(
      409,
      `${ctx.problemsBase}/session-exists`,
      'Session exists',
      `Session "${sessionId}" already exists.`,
    );
  const loan = b.loan === undefined ? null : b.loan;
  if (loan !== null && !isPlainObject(loan)) return bad(ctx, 'loan must be an object.');
  const staged = ctx.workflows.stage(sessionId, loan as Record<string, unknown> | null);
  if (!staged.ok) return tooMuch(ctx, staged.reason);
  return jsonReply(201, { sessionId, staged: loan !== null });
}

function getSession({ ctx, id }: ControlCall): Reply {
  const s = ctx.workflows.sessions.get(id);
  return s ? jsonReply(200, { ...s, staged: s.loan !== null }) : notFound(ctx, `No session "${id}".`);
}

function stageLoan({ ctx, b, id }: ControlCall): Reply {
  if (!ctx.workflows.sessions.get(id)) return notFound(ctx, `No session "${id}".`);
  const loan = b.loan ?? b;
  if (!isPlainObject(loan)) return bad(ctx, 'loan must be an object.');
  const staged = ctx.workflows.stage(id, structuredClone(loan) as Record<string, unknown>);
  if (!staged.ok) return tooMuch(ctx, staged.reason);
  return jsonReply(200, { sessionId: id, staged: true });
}

function unstageLoan({ ctx, id }: ControlCall): Reply {
  if (!ctx.workflows.sessions.get(id)) return notFound(ctx, `No session "${id}".`);
  ctx.workflows.stage(id, null);
  return jsonReply(200, { sessionId: id, staged: false });
}

/** POST adds an address events go to, DELETE removes one. */
function changeWebhooks({ ctx, req, b }: ControlCall): Reply {
  if (typeof b.url !== 'string') return bad(ctx, 'url is a required string.');
  if (b.url.length > MAX_ENDPOINT_URL_CHARS)
    return bad(ctx, `url must be at most ${MAX_ENDPOINT_URL_CHARS} characters.`);
  try {
    new URL(b.url);
  } catch {
    return bad(ctx, 'url is not a valid URL.');
  }
  const adding = req.method === 'POST';
  if (adding && !ctx.webhookEndpoints.has(b.url) && ctx.webhookEndpoints.size >= MAX_WEBHOOK_ENDPOINTS)
    return tooMuch(
      ctx,
      `the sandbox sends events to at most ${MAX_WEBHOOK_ENDPOINTS} addresses: DELETE /sandbox/webhooks one first`,
    );
  if (adding) ctx.webhookEndpoints.add(b.url);
  else ctx.webhookEndpoints.delete(b.url);
  return jsonReply(adding ? 201 : 200, { endpoints: [...ctx.webhookEndpoints] });
}

/** A delivery fault laid over the setting in force; the answer gives the whole setting (its seed included). */
function addDeliveryFault(ctx: SandboxContext, b: Record<string, unknown>): Reply {
  if (b.after !== undefined) return bad(ctx, 'after applies only to the throttle fault.');
  try {
    ctx.deliveries.set(withDeliveryFault(ctx.deliveries.faults, { ...b, fault: b.fault as never }));
  } catch (err) {
    return bad(ctx, `${(err as Error).message}.`);
  }
  return jsonReply(201, { pending: pendingFaults(ctx), delivery: ctx.deliveries.faults });
}

function addFault({ ctx, b }: ControlCall): Reply {
  if (isDeliveryFaultKind(b.fault)) return addDeliveryFault(ctx, b);
  const count = b.count === undefined ? 1 : b.count;
  const after = b.after === undefined ? 0 : b.after;
  if (!isFaultKind(b.fault))
    return bad(ctx, `fault must be one of: ${[...FAULT_KINDS, ...DELIVERY_FAULT_KINDS].join(', ')}.`);
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 1000)
    return bad(ctx, 'count must be an integer from 1 to 1000.');
  if (b.after !== undefined && b.fault !== 'throttle') return bad(ctx, 'after applies only to the throttle fault.');
  if (typeof after !== 'number' || !Number.isInteger(after) || after < 0 || after > 1000)
    return bad(ctx, 'after must be an integer from 0 to 1000.');
  if (b.fault === 'throttle') ctx.throttle.throttleNext(count, after);
  else if (b.fault === 'workflow-fails') ctx.workflows.failNext += count;
  else ctx.faults.add(b.fault, count);
  return jsonReply(201, { pending: pendingFaults(ctx) });
}

function clearFaults({ ctx }: ControlCall): Reply {
  ctx.faults.clear();
  ctx.workflows.failNext = 0;
  ctx.throttle.clearForced();
  ctx.deliveries.set(undefined);
  return jsonReply(200, { pending: pendingFaults(ctx), delivery: null });
}

function advanceClock({ ctx, b, hooks }: ControlCall): Reply {
  const seconds = b.seconds;
  if (typeof seconds !== 'number' || !(seconds >= 0) || seconds > 366 * 86400)
    return bad(ctx, 'seconds must be a number from 0 to one year.');
  if (!hooks.advance) return bad(ctx, 'This sandbox clock cannot be advanced.');
  hooks.advance.advance(seconds * 1000);
  return jsonReply(200, { now: new Date(ctx.clock.now()).toISOString() });
}

function finishWorkflow({ ctx, b, id }: ControlCall): Reply {
  const status = (b.status ?? 'complete') as WorkflowStatus;
  if (!['complete', 'failed', 'cancelled'].includes(status))
    return bad(ctx, 'status must be complete, failed or cancelled.');
  const current = ctx.workflows.get(id);
  if (!current) return notFound(ctx, `No workflow "${id}".`);
  // A finished workflow stays as it ended: saying 200 with nothing changed read as if it had been changed.
  if (current.status !== 'processing')
    return problemReply(
      409,
      `${ctx.problemsBase}/sandbox-control`,
      'Already finished',
      `Workflow "${id}" has already finished (${current.status}); only a processing one can be finished.`,
    );
  return jsonReply(200, { workflow: ctx.workflows.finish(id, status as Exclude<WorkflowStatus, 'processing'>) });
}

/** For the receiver audit: a token over given bytes, with claims replaced or removed (null), extra header
 * parameters, or another RSA algorithm. Signed with the sandbox's own current key. */
async function signBytes({ ctx, b }: ControlCall): Promise<Reply> {
  if (typeof b.bodyBase64 !== 'string') return bad(ctx, 'bodyBase64 is a required string.');
  if (b.claims !== undefined && !isPlainObject(b.claims)) return bad(ctx, 'claims must be an object.');
  if (b.header !== undefined && !isPlainObject(b.header)) return bad(ctx, 'header must be an object.');
  if (b.alg !== undefined && !['RS256', 'RS384', 'RS512', 'PS256'].includes(b.alg as string))
    return bad(ctx, 'alg must be RS256, RS384, RS512 or PS256.');
  // Signed on request, never one of the sandbox's own deliveries: marked so (a caller may remove the mark with null).
  const token = await signCustom(ctx.signer, ctx.clock, Buffer.from(b.bodyBase64, 'base64'), {
    claims: { ...signedHereClaims(), ...(b.claims as Record<string, unknown> | undefined) },
    header: b.header as Record<string, unknown> | undefined,
    alg: b.alg as 'RS256' | undefined,
  });
  const { signer } = ctx;
  return jsonReply(200, { token, kid: signer.currentKid, issuer: signer.issuer, audience: signer.audience });
}

async function rotateKey({ ctx }: ControlCall): Promise<Reply> {
  const kid = await ctx.signer.rotate();
  // Kept keys are written again, so a restart on this port publishes the rotated key set.
  await ctx.keysChanged?.();
  return jsonReply(200, { kid });
}

const ROUTES = new Map<string, ControlHandler>([
  ['GET ', async ({ hooks }) => jsonReply(200, await hooks.info())],
  [
    'POST reset',
    ({ hooks }) => {
      hooks.reset();
      return jsonReply(200, { reset: true });
    },
  ],
  ['GET sessions', ({ ctx }) => jsonReply(200, { sessions: [...ctx.workflows.sessions.values()] })],
  ['POST sessions', createSession],
  ['GET sessions/:id', getSession],
  ['POST sessions/:id/loan', stageLoan],
  ['PUT sessions/:id/loan', stageLoan],
  ['DELETE sessions/:id/loan', unstageLoan],
  ['GET webhooks', ({ ctx }) => jsonReply(200, { endpoints: [...ctx.webhookEndpoints] })],
  ['POST webhooks', changeWebhooks],
  ['DELETE webhooks', changeWebhooks],
  [
    'GET faults',
    ({ ctx }) =>
      jsonReply(200, {
        pending: pendingFaults(ctx),
        kinds: FAULT_KINDS,
        delivery: ctx.deliveries.faults ?? null,
        deliveryKinds: DELIVERY_FAULT_KINDS,
      }),
  ],
  ['POST faults', addFault],
  ['DELETE faults', clearFaults],
  ['POST clock/advance', advanceClock],
  ['GET clock', ({ ctx }) => jsonReply(200, { now: new Date(ctx.clock.now()).toISOString() })],
  ['GET workflows', ({ ctx }) => jsonReply(200, { workflows: ctx.workflows.all() })],
  ['POST workflows/:id/finish', finishWorkflow],
  ['GET deliveries', ({ ctx }) => jsonReply(200, { attempts: ctx.dispatcher.attempts })],
  ['GET billing', ({ ctx }) => jsonReply(200, { billed: ctx.workflows.billing })],
  ['GET stats', ({ ctx }) => jsonReply(200, ctx.stats)],
  ['POST sign', signBytes],
  ['POST keys/rotate', rotateKey],
]);
