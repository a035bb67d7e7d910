// The probe: a fixed series of at most 20 requests that can never bill, spaced on the injected clock, every
// credential sent only to the environment's own origins. A 429 stops it; a 2xx on any start stops it at once.
import { randomUUID } from 'node:crypto';
import type { AliasPlacement, Credentials } from '../auth/TokenManager';
import { assertCredentialOrigin } from '../http/credentialOrigin';
import {
  REFRESH_PATH,
  SIGN_IN_PATH,
  TEST_WEBHOOK_PATH,
  WORKFLOW_ROOT,
  joinUrl,
  startWorkflowUrl,
  workflowUrl,
} from '../http/paths';
import { httpRequest, redactUrl, TransportError, type HttpRequest, type HttpResponse } from '../http/request';
import type { Clock } from '../time/clock';
import { buildTestWebhookRequest } from '../webhooks/testWebhookRequest';
import { findWorkflowsUrl } from '../workflows/WorkflowClient';
import { TOOLKIT_NAME, TOOLKIT_VERSION } from '../version';
import { ROWS, rowSpec, type JudgeContext } from './expectations';
import { codeValue, describe, jwtNames, observe } from './observe';
import {
  VERDICT_WORDS,
  type Observation,
  type ProbeOutcome,
  type ProbeReport,
  type RowResult,
  type Verdict,
} from './probeTypes';
import type { WebhookCapture } from './webhookCapture';

/** The most requests one run may send, every one counted (the key sets' too). */
export const MAX_PROBE_REQUESTS = 20;
/** Key sets read at most: the rest of the budget is the fixed series. */
export const MAX_KEY_SETS = 3;
export const DEFAULT_SPACING_MS = 1000;

export interface ProbeTarget {
  baseUrl: string;
  testWebhookUrl: string;
  credentials: Credentials;
  aliasPlacement: AliasPlacement;
  /** {problems_base}; default: baseUrl. */
  problemsBase?: string;
  /** Find Workflows' address with {correlationId}; without it Find Workflows is not probed. */
  findWorkflowsUrl?: string;
  jwksUrls: string[];
  /** Whether the test endpoint is a local sandbox (which takes loopback http addresses). */
  isLocalSandbox: boolean;
}

export interface ProbeOptions {
  clock: Clock;
  spacingMs?: number;
  includeRefusal?: boolean;
  /** The test webhook: the address the service is given and the receiver that sees what arrives there. */
  webhook?: { address: string; capture: WebhookCapture; waitMs?: number };
  onRow?: (row: RowResult) => void;
  timeoutMs?: number;
}

class Stop extends Error {
  constructor(readonly outcome: ProbeOutcome) {
    super(outcome.message);
  }
}

interface Sent {
  res: HttpResponse;
  obs: Observation;
}

export async function runProbe(target: ProbeTarget, options: ProbeOptions): Promise<ProbeReport> {
  if (target.jwksUrls.length > MAX_KEY_SETS)
    throw new Error(`at most ${MAX_KEY_SETS} key sets are read in one probe (got ${target.jwksUrls.length})`);
  const clock = options.clock;
  const spacing = options.spacingMs ?? DEFAULT_SPACING_MS;
  const credentialOrigins = new Set([new URL(target.baseUrl).origin, new URL(target.testWebhookUrl).origin]);
  assertCredentialOrigin(target.baseUrl, 'The service address');
  assertCredentialOrigin(target.testWebhookUrl, 'The webhook test endpoint');
  const ctx: JudgeContext = { problemsBase: (target.problemsBase ?? target.baseUrl).replace(/\/+$/, '') };
  const rows: RowResult[] = [];
  let requests = 0;
  const probeId = `wfs-probe-${randomUUID()}`;

  const emit = (row: RowResult) => {
    rows.push(row);
    options.onRow?.(row);
  };
  const record = (id: string, obs: Observation) => emit(judgeRow(id, obs, ctx));
  const skip = (id: string, why: string) => emit(notProbed(id, why));

  async function send(req: HttpRequest, credential: boolean): Promise<Sent> {
    if (requests >= MAX_PROBE_REQUESTS) throw new Error(`the probe sends at most ${MAX_PROBE_REQUESTS} requests`);
    if (credential) {
      const origin = new URL(req.url).origin;
      if (!credentialOrigins.has(origin))
        throw new Error(`refusing to send a credential to ${origin}, which is not the environment's`);
      assertCredentialOrigin(req.url, 'The address');
    }
    if (requests > 0) await new Promise<void>((r) => clock.setTimeout(r, spacing));
    requests++;
    let res: HttpResponse;
    try {
      res = await httpRequest({ timeoutMs: options.timeoutMs ?? 30_000, maxResponseBytes: 1024 * 1024, ...req });
    } catch (err) {
      const message = err instanceof TransportError ? err.message : `${redactUrl(req.url)}: ${(err as Error).message}`;
      throw new Stop({ ended: 'request-failed', message: `The probe stopped: ${message}.` });
    }
    if (res.status === 429)
      throw new Stop({
        ended: 'throttled',
        message: `The service throttled the probe (429 at ${req.method} ${redactUrl(req.url)}): it stopped there. Wait a minute or more, then run it again (without --include-refusal, which adds a refused credential).`,
      });
    return { res, obs: observe(res) };
  }

  /** A start-like request: any 2xx stops the probe at once (outcome unknown, as a 500 would be). */
  async function start(id: string, req: HttpRequest, credential: boolean): Promise<void> {
    const { res, obs } = await send(req, credential);
    if (res.status >= 200 && res.status < 300) {
      record(id, obs);
      throw new Stop({
        ended: 'start-accepted',
        message: `A start the probe sent was answered ${res.status} (${rowSpec(id).title}): a workflow may have been started and billed. It stopped at once. Search Find Workflows for correlationId ${probeId} and tell the service's support; the probe never sends a start that should be accepted.`,
        accepted: { row: id, status: res.status, workflowId: workflowIdOf(res), correlationId: probeId },
      });
    }
    record(id, obs);
  }

  let outcome: ProbeOutcome = { ended: 'complete' };
  try {
    // 1. Sign in with the given credentials.
    const signIn = await send(signInRequest(target, target.credentials.password), true);
    const tokens = tokenFields(signIn.res);
    signIn.obs.facts = { ...signIn.obs.facts, ...tokens.facts };
    record('sign-in', signIn.obs);
    if (signIn.res.status !== 200 || !tokens.access)
      throw new Stop({
        ended: 'sign-in-refused',
        message: `Sign-in with the given credentials was answered ${describe(signIn.obs)}: the probe needs a token to go on. Check the username and password (WFS_USERNAME, WFS_PASSWORD), then run it again.`,
      });
    const access = tokens.access;
    const jwt = jwtNames(access);
    record('access-token', { status: 200, contentType: '', bodyKind: 'other', ...(jwt ? { jwt } : {}) });

    // 2. Optionally, once, a wrong password.
    if (options.includeRefusal) {
      const wrong = await send(signInRequest(target, `wfs-probe-wrong-${randomUUID()}`), true);
      record('sign-in-refusal', wrong.obs);
    } else skip('sign-in-refusal', 'not asked (--include-refusal)');

    // 3. Refresh with the refresh token, then with a garbage one.
    if (tokens.refresh) {
      const refresh = await send(
        { method: 'POST', url: joinUrl(target.baseUrl, REFRESH_PATH), json: { refresh_token: tokens.refresh } },
        true,
      );
      const renewed = tokenFields(refresh.res);
      refresh.obs.facts = {
        ...refresh.obs.facts,
        ...renewed.facts,
        ...(renewed.refresh !== undefined ? { refreshTokenRotated: renewed.refresh !== tokens.refresh } : {}),
      };
      record('refresh', refresh.obs);
    } else skip('refresh', 'the sign-in gave no refresh_token');
    const garbage = await send(
      {
        method: 'POST',
        url: joinUrl(target.baseUrl, REFRESH_PATH),
        json: { refresh_token: `wfs-probe-${randomUUID()}` },
      },
      true,
    );
    record('refresh-refusal', garbage.obs);

    // 4. Starts that can never be accepted: on a session that cannot exist, for a product that cannot resolve.
    const startUrl = startWorkflowUrl(target.baseUrl, probeId);
    const body = { product: { service: probeId, model: 'wfs-probe' }, correlationId: probeId };
    const common = { 'x-svc-correlationid': probeId };
    await start('start-no-auth', { method: 'POST', url: startUrl, headers: common, json: body }, false);
    await start(
      'start-bad-token',
      {
        method: 'POST',
        url: startUrl,
        headers: { ...common, authorization: 'Bearer wfs-probe.not-a.token' },
        json: body,
      },
      true,
    );
    const bearer = { ...common, authorization: `Bearer ${access}` };
    await start(
      'start-malformed-json',
      { method: 'POST', url: startUrl, headers: bearer, body: '{"product": {"service": ' },
      true,
    );
    await start(
      'start-no-content-type',
      { method: 'POST', url: startUrl, headers: bearer, body: JSON.stringify(body), omitContentType: true },
      true,
    );
    await start('start-unresolvable', { method: 'POST', url: startUrl, headers: bearer, json: body }, true);

    // 5. The start path without its context root: the infrastructure's 404.
    const wrongRoot = joinUrl(target.baseUrl, `${WORKFLOW_ROOT.replace(/^\/[^/]+/, '')}/sessions/${probeId}/workflows`);
    await start('wrong-context-root', { method: 'POST', url: wrongRoot, headers: bearer, json: body }, true);

    // 6. A read of a workflow that cannot exist; 7. Find Workflows, where configured.
    const read = await send(
      { method: 'GET', url: workflowUrl(target.baseUrl, `wf_${probeId}`), headers: bearer },
      true,
    );
    record('read-unknown', read.obs);
    if (target.findWorkflowsUrl) {
      const find = await send(
        { method: 'GET', url: findWorkflowsUrl(target.baseUrl, probeId, target.findWorkflowsUrl), headers: bearer },
        true,
      );
      record('find', find.obs);
    } else skip('find', "Find Workflows' address is not configured for this environment");

    // 8. The key sets: no credential goes there.
    const kids: string[] = [];
    if (target.jwksUrls.length === 0) {
      skip('key-set', 'no key set is configured for this environment');
      skip('key-set-cache', 'no key set is configured for this environment');
    }
    for (const url of target.jwksUrls) {
      const ks = await send({ method: 'GET', url }, false);
      ks.obs.facts = { ...ks.obs.facts, ...keySetFacts(ks.res) };
      kids.push(...((ks.obs.facts.kids as string[] | undefined) ?? []));
      record('key-set', ks.obs);
      record('key-set-cache', ks.obs);
    }
    if (target.jwksUrls.length > 0) ctx.publishedKids = kids;

    // 9. One test webhook, and what arrives.
    if (options.webhook) await testWebhook(options.webhook, access, kids);
    else
      for (const id of [
        'test-webhook-response',
        'webhook-delivery',
        'webhook-headers',
        'webhook-jwt',
        'webhook-jwt-extra',
      ])
        skip(id, 'no --webhook-address given');
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    outcome = err.outcome;
  }
  // Rows the probe did not reach are listed, so the report always has every row.
  for (const r of ROWS)
    if (!rows.some((x) => x.id === r.id)) skip(r.id, `not reached: ${outcome.ended.replace(/-/g, ' ')}`);

  const counts: Record<Verdict, number> = { 'as-spec': 0, silent: 0, differs: 0, 'not-probed': 0 };
  for (const r of rows) counts[r.verdict]++;
  return {
    tool: TOOLKIT_NAME,
    version: TOOLKIT_VERSION,
    at: new Date(clock.now()).toISOString(),
    origins: {
      service: new URL(target.baseUrl).origin,
      testWebhook: new URL(target.testWebhookUrl).origin,
      keySets: target.jwksUrls.map((u) => new URL(u).origin),
    },
    requests,
    rows: ROWS.flatMap((r) => rows.filter((x) => x.id === r.id)),
    outcome,
    counts,
  };

  async function testWebhook(hook: NonNullable<ProbeOptions['webhook']>, access: string, kids: string[]) {
    const testData = { probe: 'wfs probe-service', id: probeId };
    const built = buildTestWebhookRequest(
      {
        address: hook.address,
        topic: 'probe/test',
        subTopic: 'probe:probe/test',
        tenantId: 'wfs-probe',
        testData,
      },
      clock.now(),
      target.isLocalSandbox,
    );
    hook.capture.expect(testData);
    const sent = await send(
      {
        method: 'POST',
        url: joinUrl(target.testWebhookUrl, TEST_WEBHOOK_PATH),
        headers: { ...built.headers, authorization: `Bearer ${access}` },
        json: built.json,
      },
      true,
    );
    record('test-webhook-response', sent.obs);
    const waitMs = hook.waitMs ?? 30_000;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const arrived = await Promise.race([
      hook.capture.next(),
      new Promise<undefined>((r) => (timer = clock.setTimeout(() => r(undefined), waitMs))),
    ]);
    clock.clearTimeout(timer);
    if (!arrived) {
      const why = `nothing arrived at the webhook address within ${Math.round(waitMs / 1000)} s`;
      for (const id of ['webhook-delivery', 'webhook-headers', 'webhook-jwt', 'webhook-jwt-extra']) skip(id, why);
      return;
    }
    const obs = arrived.observation;
    if (kids.length > 0 && arrived.kid !== undefined)
      obs.facts = { ...obs.facts, kidPublished: kids.includes(arrived.kid) };
    for (const id of ['webhook-delivery', 'webhook-headers', 'webhook-jwt', 'webhook-jwt-extra']) record(id, obs);
  }
}

function signInRequest(target: ProbeTarget, password: string): HttpRequest {
  const { username, userAlias } = target.credentials;
  let url = joinUrl(target.baseUrl, SIGN_IN_PATH);
  const json: Record<string, string> = { username, password };
  const headers: Record<string, string> = {};
  if (userAlias && target.aliasPlacement === 'body') json.useralias = userAlias;
  if (userAlias && target.aliasPlacement === 'header') headers['x-svc-useralias'] = userAlias;
  if (userAlias && target.aliasPlacement === 'query') url += `?useralias=${encodeURIComponent(userAlias)}`;
  return { method: 'POST', url, headers, json };
}

/** The tokens of a token response (kept in memory for the next requests only) and the facts the rows need. */
function tokenFields(res: HttpResponse): {
  access?: string;
  refresh?: string;
  facts: Record<string, number | boolean>;
} {
  const facts: Record<string, number | boolean> = {};
  let json: Record<string, unknown> = {};
  try {
    const v = JSON.parse(res.body.toString('utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) json = v as Record<string, unknown>;
  } catch {
    // not JSON: the observation says so
  }
  if (typeof json.expires_in === 'number') {
    facts.expiresIn = json.expires_in;
    facts.expiresInInteger = Number.isInteger(json.expires_in);
  }
  return {
    access: typeof json.access_token === 'string' && json.access_token ? json.access_token : undefined,
    refresh: typeof json.refresh_token === 'string' && json.refresh_token ? json.refresh_token : undefined,
    facts,
  };
}

const CACHE_HEADERS = ['cache-control', 'expires', 'etag', 'last-modified', 'age'];

/** Keys, kids, algorithms and cache headers of a key set: all public, none a secret. */
function keySetFacts(res: HttpResponse): Record<string, string | number | string[]> {
  const facts: Record<string, string | number | string[]> = {};
  facts.cacheHeaders = CACHE_HEADERS.filter((h) => res.headers[h] !== undefined).map((h) =>
    h === 'cache-control' ? String(res.headers[h]) : h,
  );
  try {
    const keys = (JSON.parse(res.body.toString('utf8')) as { keys?: unknown }).keys;
    if (Array.isArray(keys)) {
      const ks = keys.filter((k): k is Record<string, unknown> => !!k && typeof k === 'object');
      facts.keys = ks.length;
      facts.kids = ks.map((k) => (typeof k.kid === 'string' ? k.kid.slice(0, 128) : '')).filter(Boolean);
      facts.keysWithoutKid = ks.filter((k) => typeof k.kid !== 'string' || !k.kid).length;
      facts.keyTypes = [...new Set(ks.map((k) => codeValue(k.kty) ?? '?'))];
      facts.algorithms = [...new Set(ks.map((k) => codeValue(k.alg)).filter((a): a is string => !!a))];
    }
  } catch {
    // not JSON: the observation says so
  }
  return facts;
}

/** The workflowId of a start's answer, when it names one that looks like an id. */
function workflowIdOf(res: HttpResponse): string | undefined {
  try {
    const id = (JSON.parse(res.body.toString('utf8')) as { workflow?: { workflowId?: unknown } }).workflow?.workflowId;
    return typeof id === 'string' && /^[\w.:-]{1,128}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

export function judgeRow(id: string, obs: Observation, ctx: JudgeContext): RowResult {
  const spec = rowSpec(id);
  const j = spec.judge(obs, ctx);
  const base = { id, title: spec.title, request: spec.request, spec: spec.spec, sandbox: spec.sandbox, service: obs };
  const serviceText =
    id.startsWith('webhook-') || id === 'access-token' ? (j.chose ?? observedWords(obs)) : describe(obs);
  if (j.verdict === 'silent') {
    const matchesSandbox = spec.sandboxKey !== undefined && j.key === spec.sandboxKey;
    return {
      ...base,
      serviceText: j.chose ?? serviceText,
      verdict: 'silent',
      verdictText: matchesSandbox
        ? `${VERDICT_WORDS.silent}: the service chose ${j.chose}, as the sandbox does`
        : `${VERDICT_WORDS.silent}: the service chose ${j.chose}, the sandbox ${spec.sandbox}`,
      matchesSandbox,
      notes: j.notes,
    };
  }
  return {
    ...base,
    serviceText,
    verdict: j.verdict,
    verdictText: j.verdict === 'differs' ? `${VERDICT_WORDS.differs}: ${j.notes.join('; ')}` : VERDICT_WORDS['as-spec'],
    notes: j.notes,
  };
}

function observedWords(o: Observation): string {
  const f = o.facts ?? {};
  const parts: string[] = [];
  if (f.method) parts.push(String(f.method));
  if (o.contentType) parts.push(o.contentType);
  if (f.authorizationScheme) parts.push(`Authorization ${f.authorizationScheme}`);
  if (o.jwt) parts.push(`JWT ${o.jwt.alg ?? ''} claims ${Object.keys(o.jwt.claims).join(', ')}`);
  return parts.join(' · ') || describe(o);
}

function notProbed(id: string, why: string): RowResult {
  const spec = rowSpec(id);
  return {
    id,
    title: spec.title,
    request: spec.request,
    spec: spec.spec,
    sandbox: spec.sandbox,
    serviceText: '—',
    verdict: 'not-probed',
    verdictText: `${VERDICT_WORDS['not-probed']}: ${why}`,
    notes: [why],
  };
}
