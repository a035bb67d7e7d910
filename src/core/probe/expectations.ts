// One row per observation: what the spec says (docs: the contract's tables), what the sandbox does (src/core/sandbox,
// checked against a running sandbox by test/unit/probe), and how to judge what the service did.
import { REFRESH_PATH, SIGN_IN_PATH, TEST_WEBHOOK_PATH, WORKFLOW_ROOT } from '../http/paths';
import { describeSaid, listSaid, shapeKey } from './observe';
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
  chose?: Said;
  key?: string;
  /** Why the row differs (or a remark on a row as the spec says). */
  notes: Said[];
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

function asSpec(notes: Said[] = []): Judgement {
  return { verdict: 'as-spec', notes };
}
function differs(notes: Said[]): Judgement {
  return { verdict: 'differs', notes };
}
function silent(chose: Said, key: string, notes: Said[] = []): Judgement {
  return { verdict: 'silent', chose, key, notes };
}
/** A silent row whose choice is the response's shape. */
function silentShape(o: Observation, notes: Said[] = []): Judgement {
  return silent(describeSaid(o), shapeKey(o), notes);
}

/** A refused request answered 2xx: whatever the spec leaves open, a refusal that is taken is not one. */
function acceptedRefusal(o: Observation, what: Said): Judgement | undefined {
  return o.status >= 200 && o.status < 300
    ? differs([said('{0} was answered {1}, as if accepted', what, o.status)])
    : undefined;
}

function underBase(type: string, base: string): boolean {
  return type === base || type.startsWith(base.replace(/\/+$/, '') + '/');
}

/** A media type that is not the one the row needs. */
function contentTypeIs(contentType: string): Said {
  return contentType ? said('Content-Type is {0}', contentType) : said('Content-Type is absent');
}

const TOKEN_FIELDS = ['access_token', 'expires_in', 'refresh_token'];

function tokenResponse(o: Observation, what: Said): Said[] {
  const notes: Said[] = [];
  if (o.status !== 200) notes.push(said('{0} answered {1}', what, o.status));
  if (o.bodyKind !== 'json') notes.push(said('the body is {0}, not a JSON token response', o.bodyKind));
  const have = names(o.fields);
  const missing = TOKEN_FIELDS.filter((f) => !have.includes(f));
  if (missing.length) notes.push(said('{0} missing', missing.join(', ')));
  if (o.fields?.expires_in && o.fields.expires_in !== 'number') notes.push(said('expires_in is not a number'));
  if (typeof o.facts?.expiresInInteger === 'boolean' && !o.facts.expiresInInteger)
    notes.push(said('expires_in is not an integer'));
  return notes;
}

/** The spec's rows for start refusals (Errors: Start workflow), with a problem type's base checked. */
function problemUnderBase(o: Observation, ctx: JudgeContext, notes: Said[]): void {
  if (o.problemType && o.problemType !== 'about:blank' && !underBase(o.problemType, ctx.problemsBase))
    notes.push(said('the problem type {0} is not under {problems_base} ({1})', o.problemType, ctx.problemsBase));
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
    ? said('header {0}; claims {1}; lifetime {2} s', listSaid(header), listSaid(claims), lifetime)
    : said('header {0}; claims {1}', listSaid(header), listSaid(claims));
}

const SPECS: Spec[] = [
  {
    id: 'sign-in',
    title: said('Sign in with the given credentials'),
    request: `POST {base_url}${SIGN_IN_PATH}`,
    spec: said('200, JSON with access_token, refresh_token and expires_in (an integer; 3600 in most cases)'),
    sandbox: said('200 application/json with access_token, refresh_token, expires_in 3600'),
    judge(o) {
      const notes = tokenResponse(o, said('sign-in'));
      if (notes.length) return differs(notes);
      const ttl = o.facts?.expiresIn;
      return asSpec(
        typeof ttl === 'number' && ttl !== 3600 ? [said('expires_in is {0}, not the usual 3600', ttl)] : [],
      );
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
      if (!o.jwt) return differs([said('the access token is not a JWT (three base64url JSON parts)')]);
      const claims = names(o.jwt.claims);
      return silent(tokenWords(o.jwt.header, claims), tokenKey(o.jwt.header, claims));
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
    judge: (o) => acceptedRefusal(o, said('a wrong password')) ?? silentShape(o),
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
      const notes = tokenResponse(o, said('the refresh'));
      if (o.facts?.refreshTokenRotated === true)
        notes.push(
          said('a new refresh token came back: the spec reuses the refresh token until it expires (Authentication 3)'),
        );
      if (typeof o.facts?.expiresIn === 'number' && o.facts.expiresIn !== 3600)
        notes.push(said('expires_in is {0}, not 3600 from issue', o.facts.expiresIn));
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
    judge: (o) => acceptedRefusal(o, said('a garbage refresh token')) ?? silentShape(o),
  },
  {
    id: 'start-no-auth',
    title: said('Start with no Authorization'),
    request: START,
    spec: said('401 problem document, type about:blank, WWW-Authenticate: Bearer with a realm'),
    sandbox: said('as the spec says (realm "workflow-service")'),
    judge(o) {
      const notes: Said[] = [];
      if (o.status !== 401) notes.push(said('answered {0}, not 401', o.status));
      if (o.bodyKind !== 'problem') notes.push(said('the body is {0}, not a problem document', o.bodyKind));
      else if (o.problemType !== 'about:blank')
        notes.push(said('the type is {0}, not about:blank', String(o.problemType)));
      const w = o.wwwAuthenticate;
      if (!w || w.scheme.toLowerCase() !== 'bearer') notes.push(said('no WWW-Authenticate: Bearer'));
      else if (!w.params.includes('realm')) notes.push(said('WWW-Authenticate has no realm'));
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
      const notes: Said[] = [];
      if (o.status !== 401) notes.push(said('answered {0}, not 401', o.status));
      if (o.bodyKind !== 'problem') notes.push(said('the body is {0}, not a problem document', o.bodyKind));
      else if (o.problemType === 'about:blank') notes.push(said('the type is about:blank, not an invalid-token type'));
      problemUnderBase(o, ctx, notes);
      const w = o.wwwAuthenticate;
      if (!w || w.scheme.toLowerCase() !== 'bearer') notes.push(said('no WWW-Authenticate: Bearer'));
      else {
        if (!w.params.includes('realm')) notes.push(said('WWW-Authenticate has no realm'));
        if (w.error !== 'invalid_token') notes.push(said('WWW-Authenticate has no error=invalid_token'));
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
      const notes: Said[] = [];
      if (o.status !== 400) notes.push(said('answered {0}, not 400', o.status));
      if (o.bodyKind !== 'problem') notes.push(said('the body is {0}, not a problem document', o.bodyKind));
      if (o.contentType !== 'application/problem+json') notes.push(contentTypeIs(o.contentType));
      if (o.fields && 'messages' in o.fields) notes.push(said('it has a messages key'));
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
      if (o.status !== 403) return differs([said('answered {0}, not 403', o.status)]);
      if (o.bodyKind === 'messages') return differs([said('a 403 is never the messages envelope')]);
      return asSpec(
        o.bodyKind === 'html' ? [] : [said('the 403 body is {0}, not HTML (still an opaque 403)', o.bodyKind)],
      );
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
          : differs([said('codes {0}, not one VALIDATION_ERROR', listSaid(codes))]);
      }
      if (o.status === 404 && o.bodyKind === 'problem') {
        const notes: Said[] = [];
        if (!o.problemType?.endsWith('/problems/not-found'))
          notes.push(said('type {0} does not end /problems/not-found', String(o.problemType)));
        problemUnderBase(o, ctx, notes);
        return notes.length ? differs(notes) : asSpec();
      }
      return differs([said('answered {0}', describeSaid(o))]);
    },
  },
  {
    id: 'wrong-context-root',
    title: said('A path under a wrong context root'),
    request: 'POST {base_url}/resources/v1/sessions/{wfs-probe-…}/workflows',
    spec: said('404 (infrastructure), no body defined: branch on status only'),
    sandbox: said('404, empty body'),
    judge: (o) => (o.status === 404 ? asSpec() : differs([said('answered {0}, not 404', o.status)])),
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
      const notes: Said[] = [];
      if (o.status !== 200) notes.push(said('answered {0}', o.status));
      if (!o.fields?.keys || o.fields.keys !== 'array') notes.push(said('no keys list'));
      if (o.facts?.keysWithoutKid) notes.push(said('{0} key(s) without a kid', String(o.facts.keysWithoutKid)));
      const kty = (o.facts?.keyTypes as string[] | undefined) ?? [];
      if (kty.some((t) => t !== 'RSA')) notes.push(said('key types {0}: RS256 needs RSA keys', listSaid(kty)));
      const algs = (o.facts?.algorithms as string[] | undefined) ?? [];
      if (algs.some((a) => a !== 'RS256')) notes.push(said('algorithms {0}: RS256 is pinned', listSaid(algs)));
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
      return silent(cache.length ? said('{0}', cache.join('; ')) : said('no cache headers'), JSON.stringify(cache));
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
      const notes: Said[] = [];
      const f = o.facts ?? {};
      if (f.authorizationScheme !== 'Bearer')
        notes.push(
          f.authorizationScheme
            ? said('Authorization is {0}, not Bearer <JWT>', String(f.authorizationScheme))
            : said('Authorization is absent, not Bearer <JWT>'),
        );
      if (o.contentType !== 'application/json') notes.push(contentTypeIs(o.contentType));
      if (f.bodyIsTestData === false) notes.push(said('the body is not the testData sent'));
      if (f.method !== 'POST') notes.push(said('the method is {0}, not POST', String(f.method)));
      return notes.length ? differs(notes) : asSpec();
    },
  },
  {
    id: 'webhook-headers',
    title: said('Headers sent to a test-webhook address'),
    request: 'POST {webhook_address} (sent by the service)',
    spec: said('not shown (the headers sent to address), beyond Authorization and Content-Type'),
    sandbox: listSaid(SANDBOX_WEBHOOK_HEADERS),
    sandboxKey: JSON.stringify(SANDBOX_WEBHOOK_HEADERS),
    judge(o) {
      const headers = ((o.facts?.headers as string[] | undefined) ?? []).slice().sort();
      return silent(listSaid(headers), JSON.stringify(headers));
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
      if (!jwt) return differs([said('the Authorization token is not a JWT')]);
      const notes: Said[] = [];
      const claims = names(jwt.claims);
      const missing = SPEC_WEBHOOK_CLAIMS.filter((c) => !claims.includes(c));
      if (missing.length) notes.push(said('claims {0} missing', missing.join(', ')));
      if (!jwt.header.includes('kid')) notes.push(said('no kid in the header'));
      if (jwt.alg !== 'RS256')
        notes.push(jwt.alg ? said('alg {0}, not RS256', jwt.alg) : said('alg unknown, not RS256'));
      if (o.facts?.bodyShaMatches === false)
        notes.push(said('body_sha256 is not the SHA-256 of the bytes that arrived'));
      if (ctx.publishedKids && o.facts?.kidPublished === false) notes.push(said('its kid is not in the key set read'));
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
      if (!o.jwt) return silent(said('no JWT'), 'null');
      const claims = names(o.jwt.claims);
      return silent(
        tokenWords(o.jwt.header, claims, o.jwt.lifetimeSeconds),
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
