// One row per observation: what the spec says (docs: the contract's tables), what the sandbox does (src/core/sandbox,
// checked against a running sandbox by test/unit/probe), and how to judge what the service did.
import { REFRESH_PATH, SIGN_IN_PATH, TEST_WEBHOOK_PATH, WORKFLOW_ROOT } from '../http/paths';
import { describe, shapeKey } from './observe';
import type { Observation } from './probeTypes';
import { english, said, type Said } from '../presentation/said';

export interface JudgeContext {
  /** Problem types the spec places under {problems_base} must start with this. */
  problemsBase: string;
  /** Key ids the key sets published (to check a webhook's kid), when they were read. */
  publishedKids?: string[];
}

interface Judgement {
  verdict: 'as-spec' | 'silent' | 'differs';
  /** Silent rows: the service's choice in words, and the key compared with the sandbox's. */
  chose?: string;
  key?: string;
  notes: string[];
}

export interface RowSpec {
  id: string;
  title: string;
  request: string;
  spec: string;
  sandbox: string;
  /** The title, spec and sandbox as Saids, for a face that words them; the fields above are their English. */
  said: { title: Said; spec: Said; sandbox: Said };
  /** Silent rows: the sandbox's choice, in the same key judge() gives the service's. */
  sandboxKey?: string;
  judge(o: Observation, ctx: JudgeContext): Judgement;
}

/** A row as written below: its words as Saids, their English derived once (ROWS). */
type Spec = Omit<RowSpec, 'title' | 'spec' | 'sandbox' | 'said'> & { title: Said; spec: Said; sandbox: Said };

const START = `POST {base_url}${WORKFLOW_ROOT}/sessions/{wfs-probe-…}/workflows`;

const names = (r: Record<string, unknown> | undefined) => Object.keys(r ?? {}).sort();
const list = (a: readonly string[]) => (a.length ? a.join(', ') : 'none');

function asSpec(notes: string[] = []): Judgement {
  return { verdict: 'as-spec', notes };
}
function differs(notes: string[]): Judgement {
  return { verdict: 'differs', notes };
}
function silent(chose: string, key: string, notes: string[] = []): Judgement {
  return { verdict: 'silent', chose, key, notes };
}
/** A silent row whose choice is the response's shape. */
function silentShape(o: Observation, notes: string[] = []): Judgement {
  return silent(describe(o), shapeKey(o), notes);
}

/** A refused request answered 2xx: whatever the spec leaves open, a refusal that is taken is not one. */
function acceptedRefusal(o: Observation, what: string): Judgement | undefined {
  return o.status >= 200 && o.status < 300 ? differs([`${what} was answered ${o.status}, as if accepted`]) : undefined;
}

function underBase(type: string, base: string): boolean {
  return type === base || type.startsWith(base.replace(/\/+$/, '') + '/');
}

const TOKEN_FIELDS = ['access_token', 'expires_in', 'refresh_token'];

function tokenResponse(o: Observation, what: string): string[] {
  const notes: string[] = [];
  if (o.status !== 200) notes.push(`${what} answered ${o.status}`);
  if (o.bodyKind !== 'json') notes.push(`the body is ${o.bodyKind}, not a JSON token response`);
  const have = names(o.fields);
  const missing = TOKEN_FIELDS.filter((f) => !have.includes(f));
  if (missing.length) notes.push(`${missing.join(', ')} missing`);
  if (o.fields?.expires_in && o.fields.expires_in !== 'number') notes.push('expires_in is not a number');
  if (typeof o.facts?.expiresInInteger === 'boolean' && !o.facts.expiresInInteger)
    notes.push('expires_in is not an integer');
  return notes;
}

/** The spec's rows for start refusals (Errors: Start workflow), with a problem type's base checked. */
function problemUnderBase(o: Observation, ctx: JudgeContext, notes: string[]): void {
  if (o.problemType && o.problemType !== 'about:blank' && !underBase(o.problemType, ctx.problemsBase))
    notes.push(`the problem type ${o.problemType} is not under {problems_base} (${ctx.problemsBase})`);
}

const SANDBOX_ACCESS_TOKEN = { header: ['alg', 'typ'], claims: ['exp', 'iat', 'iss', 'jti', 'sub'] };
/** What the sandbox's test webhook carries besides the transport's own headers (host, content-length, …). */
const SANDBOX_WEBHOOK_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'user-agent',
  'x-svc-sub-topic',
  'x-svc-tenant-id',
  'x-svc-topic',
  'x-svc-triggered-at',
  'x-svc-webhook-id',
];
const SANDBOX_WEBHOOK_TOKEN = {
  header: ['alg', 'kid', 'typ'],
  claims: ['aud', 'body_sha256', 'exp', 'iat', 'iss', 'jti'],
  lifetimeSeconds: 300,
};
const SPEC_WEBHOOK_CLAIMS = ['aud', 'body_sha256', 'exp', 'iss'];

function tokenKey(header: readonly string[], claims: readonly string[], lifetime?: number): string {
  return JSON.stringify([[...header].sort(), [...claims].sort(), lifetime ?? null]);
}
function tokenWords(header: readonly string[], claims: readonly string[], lifetime?: number): Said {
  return lifetime !== undefined
    ? said('header {0}; claims {1}; lifetime {2} s', list(header), list(claims), lifetime)
    : said('header {0}; claims {1}', list(header), list(claims));
}

const SPECS: Spec[] = [
  {
    id: 'sign-in',
    title: said('Sign in with the given credentials'),
    request: `POST {base_url}${SIGN_IN_PATH}`,
    spec: said('200, JSON with access_token, refresh_token and expires_in (an integer; 3600 in most cases)'),
    sandbox: said('200 application/json with access_token, refresh_token, expires_in 3600'),
    judge(o) {
      const notes = tokenResponse(o, 'sign-in');
      if (notes.length) return differs(notes);
      const ttl = o.facts?.expiresIn;
      return asSpec(typeof ttl === 'number' && ttl !== 3600 ? [`expires_in is ${ttl}, not the usual 3600`] : []);
    },
  },
  {
    id: 'access-token',
    title: said('The access token'),
    request: '(the access_token of the sign-in)',
    spec: said('a JWT; its header and claims: not shown'),
    sandbox: said('a JWT (HS256): {0}', tokenWords(SANDBOX_ACCESS_TOKEN.header, SANDBOX_ACCESS_TOKEN.claims)),
    sandboxKey: tokenKey(SANDBOX_ACCESS_TOKEN.header, SANDBOX_ACCESS_TOKEN.claims),
    judge(o) {
      if (!o.jwt) return differs(['the access token is not a JWT (three base64url JSON parts)']);
      const claims = names(o.jwt.claims);
      return silent(english(tokenWords(o.jwt.header, claims)), tokenKey(o.jwt.header, claims));
    },
  },
  {
    id: 'sign-in-refusal',
    title: said('Sign in with a wrong password (--include-refusal)'),
    request: `POST {base_url}${SIGN_IN_PATH}`,
    spec: said('not shown (Authentication 7); repeated refusals meet the throttle'),
    sandbox: said('401 application/problem+json problem, type {problems_base}/invalid-credentials'),
    sandboxKey: shapeKey({
      status: 401,
      contentType: 'application/problem+json',
      bodyKind: 'problem',
      fields: { detail: 'string', instance: 'string', status: 'number', title: 'string', type: 'string' },
      problemType: '/invalid-credentials',
    }),
    judge: (o) => acceptedRefusal(o, 'a wrong password') ?? silentShape(o),
  },
  {
    id: 'refresh',
    title: said('Refresh with the refresh token'),
    request: `POST {base_url}${REFRESH_PATH}`,
    spec: said(
      '200, JSON with access_token, refresh_token, expires_in (3600); the refresh token is reused until it expires',
    ),
    sandbox: said('200 application/json; the same refresh token comes back'),
    judge(o) {
      const notes = tokenResponse(o, 'the refresh');
      if (o.facts?.refreshTokenRotated === true)
        notes.push(
          'a new refresh token came back: the spec reuses the refresh token until it expires (Authentication 3)',
        );
      if (typeof o.facts?.expiresIn === 'number' && o.facts.expiresIn !== 3600)
        notes.push(`expires_in is ${o.facts.expiresIn}, not 3600 from issue`);
      return notes.length ? differs(notes) : asSpec();
    },
  },
  {
    id: 'refresh-refusal',
    title: said('Refresh with a garbage refresh token'),
    request: `POST {base_url}${REFRESH_PATH}`,
    spec: said('not shown (Errors of the sign-in and refresh endpoints)'),
    sandbox: said('401 application/problem+json problem, type {problems_base}/invalid-refresh-token'),
    sandboxKey: shapeKey({
      status: 401,
      contentType: 'application/problem+json',
      bodyKind: 'problem',
      fields: { detail: 'string', instance: 'string', status: 'number', title: 'string', type: 'string' },
      problemType: '/invalid-refresh-token',
    }),
    judge: (o) => acceptedRefusal(o, 'a garbage refresh token') ?? silentShape(o),
  },
  {
    id: 'start-no-auth',
    title: said('Start with no Authorization'),
    request: START,
    spec: said('401 problem document, type about:blank, WWW-Authenticate: Bearer with a realm'),
    sandbox: said('as the spec says (realm "workflow-service")'),
    judge(o) {
      const notes: string[] = [];
      if (o.status !== 401) notes.push(`answered ${o.status}, not 401`);
      if (o.bodyKind !== 'problem') notes.push(`the body is ${o.bodyKind}, not a problem document`);
      else if (o.problemType !== 'about:blank') notes.push(`the type is ${o.problemType}, not about:blank`);
      const w = o.wwwAuthenticate;
      if (!w || w.scheme.toLowerCase() !== 'bearer') notes.push('no WWW-Authenticate: Bearer');
      else if (!w.params.includes('realm')) notes.push('WWW-Authenticate has no realm');
      return notes.length ? differs(notes) : asSpec();
    },
  },
  {
    id: 'start-bad-token',
    title: said('Start with a malformed token'),
    request: START,
    spec: said(
      '401 problem document, an invalid-token type under {problems_base}; WWW-Authenticate: Bearer with a realm and error=invalid_token',
    ),
    sandbox: said('as the spec says (type {problems_base}/invalid-token)'),
    judge(o, ctx) {
      const notes: string[] = [];
      if (o.status !== 401) notes.push(`answered ${o.status}, not 401`);
      if (o.bodyKind !== 'problem') notes.push(`the body is ${o.bodyKind}, not a problem document`);
      else if (o.problemType === 'about:blank') notes.push('the type is about:blank, not an invalid-token type');
      problemUnderBase(o, ctx, notes);
      const w = o.wwwAuthenticate;
      if (!w || w.scheme.toLowerCase() !== 'bearer') notes.push('no WWW-Authenticate: Bearer');
      else {
        if (!w.params.includes('realm')) notes.push('WWW-Authenticate has no realm');
        if (w.error !== 'invalid_token') notes.push('WWW-Authenticate has no error=invalid_token');
      }
      return notes.length ? differs(notes) : asSpec();
    },
  },
  {
    id: 'start-malformed-json',
    title: said('Start with malformed JSON'),
    request: START,
    spec: said('400 problem document, Content-Type application/problem+json, no messages key'),
    sandbox: said('as the spec says (type {problems_base}/malformed-request)'),
    judge(o, ctx) {
      const notes: string[] = [];
      if (o.status !== 400) notes.push(`answered ${o.status}, not 400`);
      if (o.bodyKind !== 'problem') notes.push(`the body is ${o.bodyKind}, not a problem document`);
      if (o.contentType !== 'application/problem+json') notes.push(`Content-Type is ${o.contentType || 'absent'}`);
      if (o.fields && 'messages' in o.fields) notes.push('it has a messages key');
      problemUnderBase(o, ctx, notes);
      return notes.length ? differs(notes) : asSpec();
    },
  },
  {
    id: 'start-no-content-type',
    title: said('Start without Content-Type'),
    request: START,
    spec: said('403, an HTML body produced before the service is reached (edge)'),
    sandbox: said('as the spec says (403 text/html)'),
    judge(o) {
      if (o.status !== 403) return differs([`answered ${o.status}, not 403`]);
      if (o.bodyKind === 'messages') return differs(['a 403 is never the messages envelope']);
      return asSpec(o.bodyKind === 'html' ? [] : [`the 403 body is ${o.bodyKind}, not HTML (still an opaque 403)`]);
    },
  },
  {
    id: 'start-unresolvable',
    title: said('Start with a product that cannot resolve, on a session that cannot exist'),
    request: START,
    spec: said(
      '400 messages envelope, code VALIDATION_ERROR (product resolution), or 404 problem …/problems/not-found (no session)',
    ),
    sandbox: said('400 messages envelope VALIDATION_ERROR (it resolves the product first)'),
    judge(o, ctx) {
      if (o.status === 400 && o.bodyKind === 'messages') {
        const codes = o.messageCodes ?? [];
        return codes.length === 1 && codes[0] === 'VALIDATION_ERROR'
          ? asSpec()
          : differs([`codes ${list(codes)}, not one VALIDATION_ERROR`]);
      }
      if (o.status === 404 && o.bodyKind === 'problem') {
        const notes: string[] = [];
        if (!o.problemType?.endsWith('/problems/not-found'))
          notes.push(`type ${o.problemType} does not end /problems/not-found`);
        problemUnderBase(o, ctx, notes);
        return notes.length ? differs(notes) : asSpec();
      }
      return differs([`answered ${describe(o)}`]);
    },
  },
  {
    id: 'wrong-context-root',
    title: said('A path under a wrong context root'),
    request: 'POST {base_url}/resources/v1/sessions/{wfs-probe-…}/workflows',
    spec: said('404 (infrastructure), no body defined: branch on status only'),
    sandbox: said('404, empty body'),
    judge: (o) => (o.status === 404 ? asSpec() : differs([`answered ${o.status}, not 404`])),
  },
  {
    id: 'read-unknown',
    title: said('Read a workflow id that cannot exist'),
    request: `GET {base_url}${WORKFLOW_ROOT}/workflows/{wf_wfs-probe-…}`,
    spec: said('not shown (the read method and response body)'),
    sandbox: said('404 application/problem+json problem, type {problems_base}/not-found'),
    sandboxKey: shapeKey({
      status: 404,
      contentType: 'application/problem+json',
      bodyKind: 'problem',
      fields: { detail: 'string', instance: 'string', status: 'number', title: 'string', type: 'string' },
      problemType: '/not-found',
    }),
    judge: (o) => silentShape(o),
  },
  {
    id: 'find',
    title: said('Find Workflows by a random correlationId'),
    request: 'GET {find_workflows_url} with correlationId wfs-probe-…',
    spec: said('not shown (Find Workflows)'),
    sandbox: said('200 application/json, fields workflows (an empty list)'),
    sandboxKey: shapeKey({
      status: 200,
      contentType: 'application/json',
      bodyKind: 'json',
      fields: { workflows: 'array' },
    }),
    judge: (o) => silentShape(o),
  },
  {
    id: 'key-set',
    title: said("The environment's key set"),
    request: 'GET {jwks_url} (no credential)',
    spec: said('keys selected by kid; RS256 pinned (Authentication 6)'),
    sandbox: said('200 application/json {keys}: RSA keys, each with kid, alg RS256, use sig'),
    judge(o) {
      const notes: string[] = [];
      if (o.status !== 200) notes.push(`answered ${o.status}`);
      if (!o.fields?.keys || o.fields.keys !== 'array') notes.push('no keys list');
      if (o.facts?.keysWithoutKid) notes.push(`${o.facts.keysWithoutKid} key(s) without a kid`);
      const kty = (o.facts?.keyTypes as string[] | undefined) ?? [];
      if (kty.some((t) => t !== 'RSA')) notes.push(`key types ${list(kty)}: RS256 needs RSA keys`);
      const algs = (o.facts?.algorithms as string[] | undefined) ?? [];
      if (algs.some((a) => a !== 'RS256')) notes.push(`algorithms ${list(algs)}: RS256 is pinned`);
      return notes.length ? differs(notes) : asSpec();
    },
  },
  {
    id: 'key-set-cache',
    title: said("The key set's cache headers"),
    request: 'GET {jwks_url} (the same answer)',
    spec: said('caching keys is permitted (examples: refresh hourly); the headers: not shown'),
    sandbox: said('Cache-Control: public, max-age=3600'),
    sandboxKey: JSON.stringify(['public, max-age=3600']),
    judge(o) {
      const cache = (o.facts?.cacheHeaders as string[] | undefined) ?? [];
      return silent(cache.length ? cache.join('; ') : 'no cache headers', JSON.stringify(cache));
    },
  },
  {
    id: 'test-webhook-response',
    title: said('The webhook test endpoint'),
    request: `POST {test_webhook_url}${TEST_WEBHOOK_PATH}`,
    spec: said('not shown (the response of the test endpoint)'),
    sandbox: said('200 application/json: address, attempt, deliveryId, receiverStatus, retryScheduled, webhookId'),
    sandboxKey: shapeKey({
      status: 200,
      contentType: 'application/json',
      bodyKind: 'json',
      fields: {
        address: 'string',
        attempt: 'number',
        deliveryId: 'string',
        receiverStatus: 'number',
        retryScheduled: 'boolean',
        webhookId: 'string',
      },
    }),
    judge: (o) => silentShape(o),
  },
  {
    id: 'webhook-delivery',
    title: said('The test webhook, as it arrived'),
    request: 'POST {webhook_address} (sent by the service)',
    spec: said('Authorization: Bearer <JWT>, Content-Type: application/json, testData as the exact body'),
    sandbox: said('as the spec says'),
    judge(o) {
      const notes: string[] = [];
      const f = o.facts ?? {};
      if (f.authorizationScheme !== 'Bearer')
        notes.push(`Authorization is ${f.authorizationScheme || 'absent'}, not Bearer <JWT>`);
      if (o.contentType !== 'application/json') notes.push(`Content-Type is ${o.contentType || 'absent'}`);
      if (f.bodyIsTestData === false) notes.push('the body is not the testData sent');
      if (f.method !== 'POST') notes.push(`the method is ${f.method}, not POST`);
      return notes.length ? differs(notes) : asSpec();
    },
  },
  {
    id: 'webhook-headers',
    title: said('Headers sent to a test-webhook address'),
    request: 'POST {webhook_address} (sent by the service)',
    spec: said('not shown (the headers sent to address), beyond Authorization and Content-Type'),
    sandbox: said('{0}', list(SANDBOX_WEBHOOK_HEADERS)),
    sandboxKey: JSON.stringify(SANDBOX_WEBHOOK_HEADERS),
    judge(o) {
      const headers = ((o.facts?.headers as string[] | undefined) ?? []).slice().sort();
      return silent(list(headers), JSON.stringify(headers));
    },
  },
  {
    id: 'webhook-jwt',
    title: said("The test webhook's JWT"),
    request: 'Authorization of the delivery',
    spec: said(
      'RS256; claims iss, aud, exp, body_sha256 (hex SHA-256 of the exact body); kid in the header, from the key set',
    ),
    sandbox: said('as the spec says'),
    judge(o, ctx) {
      const jwt = o.jwt;
      if (!jwt) return differs(['the Authorization token is not a JWT']);
      const notes: string[] = [];
      const claims = names(jwt.claims);
      const missing = SPEC_WEBHOOK_CLAIMS.filter((c) => !claims.includes(c));
      if (missing.length) notes.push(`claims ${missing.join(', ')} missing`);
      if (!jwt.header.includes('kid')) notes.push('no kid in the header');
      if (jwt.alg !== 'RS256') notes.push(`alg ${jwt.alg ?? 'unknown'}, not RS256`);
      if (o.facts?.bodyShaMatches === false) notes.push('body_sha256 is not the SHA-256 of the bytes that arrived');
      if (ctx.publishedKids && o.facts?.kidPublished === false) notes.push('its kid is not in the key set read');
      return notes.length ? differs(notes) : asSpec();
    },
  },
  {
    id: 'webhook-jwt-extra',
    title: said("The test webhook's JWT beyond the spec"),
    request: 'Authorization of the delivery',
    spec: said('not shown: other claims and header parameters, and the lifetime (exp is required; 60 s tolerance)'),
    sandbox: tokenWords(
      SANDBOX_WEBHOOK_TOKEN.header,
      SANDBOX_WEBHOOK_TOKEN.claims,
      SANDBOX_WEBHOOK_TOKEN.lifetimeSeconds,
    ),
    sandboxKey: tokenKey(
      SANDBOX_WEBHOOK_TOKEN.header,
      SANDBOX_WEBHOOK_TOKEN.claims,
      SANDBOX_WEBHOOK_TOKEN.lifetimeSeconds,
    ),
    judge(o) {
      if (!o.jwt) return silent('no JWT', 'null');
      const claims = names(o.jwt.claims);
      return silent(
        english(tokenWords(o.jwt.header, claims, o.jwt.lifetimeSeconds)),
        tokenKey(o.jwt.header, claims, o.jwt.lifetimeSeconds),
      );
    },
  },
];

/** The rows, their English beside their words (the CLI, the Markdown and JSON reports and the MCP tools read the
 * English; the editor words the Saids). */
export const ROWS: RowSpec[] = SPECS.map((r) => ({
  ...r,
  title: english(r.title),
  spec: english(r.spec),
  sandbox: english(r.sandbox),
  said: { title: r.title, spec: r.spec, sandbox: r.sandbox },
}));

export function rowSpec(id: string): RowSpec {
  const r = ROWS.find((x) => x.id === id);
  if (!r) throw new Error(`no probe row ${id}`);
  return r;
}
