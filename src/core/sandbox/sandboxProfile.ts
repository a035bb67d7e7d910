// A sandbox profile: what `wfs probe-service --profile-out` saw a real environment do where the spec is silent,
// for the sandbox to imitate (the sign-in refusal's shape, the refresh refusal's, the access token's claims, the
// headers and token claims of a test webhook). The loader keeps only what is silent in the spec: an entry that
// would make the sandbox differ from the spec is ignored, and the loader says so. Format: README "Sandbox profiles".
import { parseJsonText } from '../jsonText';
import { randomUUID } from 'node:crypto';
import { messageTimestamp } from '../time/timestamps';
import type { SandboxContext } from './sandboxContext';
import type { Reply } from './sandboxResponses';
import { deliveryFaultKinds, deliveryFaultsFromJson, type DeliveryFaults } from './deliveryFaults';
import { english, said, saidOf, type Said } from '../presentation/said';

export const PROFILE_FORMAT = 'wfs-sandbox-profile';
export const PROFILE_VERSION = 1;
/** A profile is a few kilobytes of names. */
export const MAX_PROFILE_BYTES = 256 * 1024;

export type JsonTypeName = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';
const TYPE_NAMES: readonly JsonTypeName[] = ['string', 'number', 'boolean', 'array', 'object', 'null'];
const BODY_KINDS = ['messages', 'problem', 'json', 'empty', 'html', 'other'] as const;

/** A response to imitate: its status, media type, body kind and field names (with their types), never values. */
export interface ResponseTemplate {
  status: number;
  contentType: string;
  bodyKind: (typeof BODY_KINDS)[number];
  fields?: Record<string, JsonTypeName>;
  messageCodes?: string[];
  /** The last segment of a problem type: the sandbox puts it under its own problems base. */
  problemTypeName?: string;
  /** An OAuth-style error code. */
  errorCode?: string;
}

interface TokenTemplate {
  header: string[];
  claims: Record<string, JsonTypeName>;
  lifetimeSeconds?: number;
}

/** The profile file as the probe writes it. */
export interface SandboxProfileFile {
  format: typeof PROFILE_FORMAT;
  version: number;
  observedAt?: string;
  origin?: string;
  signInRefusal?: ResponseTemplate;
  refreshRefusal?: ResponseTemplate;
  refresh?: { rotatesRefreshToken?: boolean };
  accessToken?: TokenTemplate;
  testWebhook?: { headers?: string[]; token?: TokenTemplate };
  /** Delivery faults in force from the start (deliveryFaults.ts deliveryFaultsFromJson). */
  deliveryFaults?: Record<string, unknown>;
}

/** What the sandbox imitates, checked. */
export interface SandboxProfile {
  origin?: string;
  signInRefusal?: ResponseTemplate;
  refreshRefusal?: ResponseTemplate;
  /** Extra access-token header parameters and claims (by type): added to the sandbox's own, which stay. */
  accessToken?: { header: string[]; claims: Record<string, JsonTypeName> };
  testWebhook?: { headers: string[]; header: string[]; claims: Record<string, JsonTypeName>; lifetimeSeconds?: number };
  deliveryFaults?: DeliveryFaults;
}

export interface LoadedProfile {
  profile: SandboxProfile;
  /** What the sandbox imitates, in words. */
  imitated: string[];
  /** Entries left out, each with why. */
  ignored: string[];
  /** The same two, for a face that words them in the user's language. */
  imitatedSaid: Said[];
  ignoredSaid: Said[];
}

export class ProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileError';
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const HEADER_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_NAMES = 32;
/** What the sandbox's access token must keep to verify it (sub, exp, iss) and says itself. */
const OWN_ACCESS_CLAIMS = new Set(['sub', 'exp', 'iat', 'iss', 'jti', 'alias']);
/** Webhook claims the spec requires or the signer sets: never replaced. */
const OWN_WEBHOOK_CLAIMS = new Set(['iss', 'aud', 'exp', 'iat', 'jti', 'body_sha256']);
/** Header parameters that change how a token is verified: never imitated (a key address in a token is never
 * followed, and crit would make verifiers refuse it). */
const NEVER_HEADER = new Set(['alg', 'typ', 'kid', 'crit', 'jku', 'x5u', 'jwk', 'x5c', 'b64', 'enc', 'zip']);
/** Headers about the connection, or that the spec fixes (Endpoints 7): never imitated. */
const NEVER_WEBHOOK_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'te',
  'upgrade',
  'expect',
  'authorization',
  'content-type',
  'cookie',
]);

/** Reads and checks a profile's text. Throws ProfileError when it is not a profile at all. */
export function loadSandboxProfile(text: string): LoadedProfile {
  let raw: unknown;
  try {
    raw = parseJsonText(text);
  } catch (err) {
    throw new ProfileError(`not JSON: ${(err as Error).message}`);
  }
  if (!isObject(raw) || raw.format !== PROFILE_FORMAT)
    throw new ProfileError(
      `not a sandbox profile: "format" must be "${PROFILE_FORMAT}" (written by wfs probe-service --profile-out)`,
    );
  if (raw.version !== PROFILE_VERSION)
    throw new ProfileError(
      `profile version ${String(raw.version)} is not known to this sandbox (it reads version ${PROFILE_VERSION})`,
    );
  const out: LoadedProfile = { profile: {}, imitated: [], ignored: [], imitatedSaid: [], ignoredSaid: [] };
  const known = new Set([
    'format',
    'version',
    'observedAt',
    'origin',
    'signInRefusal',
    'refreshRefusal',
    'refresh',
    'accessToken',
    'testWebhook',
    'deliveryFaults',
  ]);
  for (const k of Object.keys(raw))
    if (!known.has(k)) out.ignoredSaid.push(said('"{0}": not a profile entry this sandbox knows', k));
  if (typeof raw.origin === 'string' && /^https?:\/\/[^/?#\s]+$/.test(raw.origin)) out.profile.origin = raw.origin;

  for (const key of ['signInRefusal', 'refreshRefusal'] as const) {
    if (raw[key] === undefined) continue;
    const t = responseTemplate(raw[key], key, out.ignoredSaid);
    if (t) {
      out.profile[key] = t;
      const contentType = t.contentType || said('(no Content-Type)');
      out.imitatedSaid.push(
        key === 'signInRefusal'
          ? said('a refused sign-in: {0} {1} {2}', t.status, contentType, t.bodyKind)
          : said('a refused refresh: {0} {1} {2}', t.status, contentType, t.bodyKind),
      );
    }
  }
  if (raw.refresh !== undefined) {
    const r = isObject(raw.refresh) ? raw.refresh : {};
    if (r.rotatesRefreshToken === true)
      out.ignoredSaid.push(
        said(
          'refresh.rotatesRefreshToken: a refresh that returns a new refresh token differs from the spec (Authentication 3: the refresh token is reused until it expires); the sandbox keeps reusing it',
        ),
      );
  }
  if (raw.accessToken !== undefined) {
    const t = tokenTemplate(raw.accessToken, 'accessToken', out.ignoredSaid);
    if (t) {
      const claims = pick(t.claims, (n) => !OWN_ACCESS_CLAIMS.has(n));
      const header = t.header.filter((h) => !NEVER_HEADER.has(h) || h === 'kid');
      for (const h of t.header.filter((x) => NEVER_HEADER.has(x) && x !== 'kid' && x !== 'alg' && x !== 'typ'))
        out.ignoredSaid.push(said('accessToken.header {0}: changes how a token is verified; never imitated', h));
      out.profile.accessToken = { header, claims };
      out.imitatedSaid.push(
        said(
          'access-token claims {0}; header {1}',
          Object.keys(claims).join(', ') || said('(none beyond its own)'),
          header.join(', ') || said('(its own)'),
        ),
      );
    }
  }
  if (raw.testWebhook !== undefined) readTestWebhook(raw.testWebhook, out);
  if (raw.deliveryFaults !== undefined) readDeliveryFaults(raw.deliveryFaults, out);
  out.imitated = out.imitatedSaid.map(english);
  out.ignored = out.ignoredSaid.map(english);
  return out;
}

/** The test webhook's headers and token, as the probe saw them. */
function readTestWebhook(v: unknown, out: LoadedProfile): void {
  const w = isObject(v) ? v : {};
  const headers: string[] = [];
  for (const h of Array.isArray(w.headers) ? w.headers.slice(0, MAX_NAMES) : []) {
    const name = typeof h === 'string' ? h.toLowerCase() : '';
    if (!HEADER_NAME.test(name))
      out.ignoredSaid.push(said('testWebhook.headers {0}: not a header name', JSON.stringify(h)));
    else if (NEVER_WEBHOOK_HEADERS.has(name)) continue;
    else headers.push(name);
  }
  const imitated: SandboxProfile['testWebhook'] = { headers, header: [], claims: {} };
  if (w.token !== undefined) {
    const t = tokenTemplate(w.token, 'testWebhook.token', out.ignoredSaid);
    if (t) {
      const missing = ['iss', 'aud', 'exp', 'body_sha256'].filter((c) => !(c in t.claims));
      if (missing.length)
        out.ignoredSaid.push(
          said(
            'testWebhook.token lacks {0}: the spec requires them, so the sandbox keeps signing them',
            missing.join(', '),
          ),
        );
      imitated.claims = pick(t.claims, (n) => !OWN_WEBHOOK_CLAIMS.has(n));
      imitated.header = t.header.filter((h) => !NEVER_HEADER.has(h));
      for (const h of t.header.filter((x) => NEVER_HEADER.has(x) && !['alg', 'typ', 'kid'].includes(x)))
        out.ignoredSaid.push(said('testWebhook.token header {0}: changes how a token is verified; never imitated', h));
      if (t.lifetimeSeconds !== undefined) imitated.lifetimeSeconds = t.lifetimeSeconds;
    }
  }
  out.profile.testWebhook = imitated;
  const headersShown = headers.join(', ') || said('(its own)');
  const claimsShown = Object.keys(imitated.claims).join(', ') || said('(its own)');
  out.imitatedSaid.push(
    imitated.lifetimeSeconds !== undefined
      ? said(
          'test-webhook headers {0}; token claims {1}, lifetime {2} s',
          headersShown,
          claimsShown,
          imitated.lifetimeSeconds,
        )
      : said('test-webhook headers {0}; token claims {1}', headersShown, claimsShown),
  );
}

/** Delivery faults to set at start (deliveryFaults.ts): a setting of the sandbox's own, not an observation. */
function readDeliveryFaults(v: unknown, out: LoadedProfile): void {
  try {
    const f = deliveryFaultsFromJson(v);
    out.profile.deliveryFaults = f;
    out.imitatedSaid.push(
      said('delivery faults {0} (seed {1}, to {2} deliveries)', deliveryFaultKinds(f).join(', '), f.seed, f.to),
    );
  } catch (err) {
    out.ignoredSaid.push(said('deliveryFaults: {0}', saidOf(err)));
  }
}

function responseTemplate(v: unknown, where: string, ignored: Said[]): ResponseTemplate | undefined {
  if (!isObject(v)) return void ignored.push(said('{0}: not an object', where));
  const status = v.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    return void ignored.push(said('{0}: no HTTP status', where));
  // A refusal answered anything but 4xx would be a refusal that is not one (2xx), a redirect the clients do not
  // follow, or an unhandled failure: the sandbox keeps its own.
  if (status < 400 || status > 499)
    return void ignored.push(
      said('{0}: status {1} is not a refusal (4xx); the sandbox keeps its own answer', where, status),
    );
  const contentType = typeof v.contentType === 'string' ? v.contentType.toLowerCase() : '';
  if (contentType && !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(contentType))
    return void ignored.push(said('{0}: contentType {1} is not a media type', where, JSON.stringify(v.contentType)));
  const bodyKind = BODY_KINDS.find((k) => k === v.bodyKind);
  if (!bodyKind) return void ignored.push(said('{0}: bodyKind must be one of {1}', where, BODY_KINDS.join(', ')));
  const t: ResponseTemplate = { status, contentType, bodyKind };
  if (v.fields !== undefined) t.fields = typedNames(v.fields, `${where}.fields`, ignored);
  if (Array.isArray(v.messageCodes))
    t.messageCodes = v.messageCodes
      .filter((c): c is string => typeof c === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(c))
      .slice(0, 8);
  if (typeof v.problemTypeName === 'string' && /^[a-z0-9][a-z0-9._-]{0,63}$/i.test(v.problemTypeName))
    t.problemTypeName = v.problemTypeName;
  if (typeof v.errorCode === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(v.errorCode)) t.errorCode = v.errorCode;
  return t;
}

function tokenTemplate(v: unknown, where: string, ignored: Said[]): TokenTemplate | undefined {
  if (!isObject(v)) return void ignored.push(said('{0}: not an object', where));
  const header = (Array.isArray(v.header) ? v.header : [])
    .filter((h): h is string => typeof h === 'string' && NAME.test(h))
    .slice(0, MAX_NAMES);
  const claims = typedNames(v.claims, `${where}.claims`, ignored);
  const t: TokenTemplate = { header, claims };
  if (v.lifetimeSeconds !== undefined) {
    const l = v.lifetimeSeconds;
    if (typeof l === 'number' && Number.isInteger(l) && l >= 1 && l <= 86_400) t.lifetimeSeconds = l;
    else ignored.push(said('{0}.lifetimeSeconds: must be 1 to 86400 seconds', where));
  }
  return t;
}

function typedNames(v: unknown, where: string, ignored: Said[]): Record<string, JsonTypeName> {
  const out: Record<string, JsonTypeName> = {};
  if (!isObject(v)) {
    if (v !== undefined) ignored.push(said('{0}: not an object of names and types', where));
    return out;
  }
  for (const [name, type] of Object.entries(v).slice(0, MAX_NAMES)) {
    if (!NAME.test(name) || !TYPE_NAMES.includes(type as JsonTypeName))
      ignored.push(said('{0}.{1}: not a name with a JSON type', where, name));
    else out[name] = type as JsonTypeName;
  }
  return out;
}

function pick<T>(r: Record<string, T>, keep: (name: string) => boolean): Record<string, T> {
  return Object.fromEntries(Object.entries(r).filter(([k]) => keep(k)));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Values standing in for the service's: a claim or field of each type, written by the sandbox. */
export function placeholderValues(
  types: Record<string, JsonTypeName>,
  iatSeconds: number,
  audience?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(types)) {
    if (name === 'aud' && audience) out[name] = type === 'array' ? [audience] : audience;
    else if (type === 'number') out[name] = iatSeconds;
    else if (type === 'string') out[name] = `sandbox-${name}`;
    else if (type === 'boolean') out[name] = false;
    else if (type === 'array') out[name] = [];
    else if (type === 'object') out[name] = {};
    else out[name] = null;
  }
  return out;
}

/** The sandbox's refusal in the observed shape: the same status, media type, body kind and field names, with the
 * sandbox's own words and its own problems base. */
export function profileReply(
  ctx: Pick<SandboxContext, 'problemsBase' | 'clock'>,
  t: ResponseTemplate,
  detail: string,
): Reply {
  const headers: Record<string, string> = t.contentType ? { 'content-type': t.contentType } : {};
  const now = ctx.clock.now();
  if (t.bodyKind === 'empty') return { status: t.status, headers };
  if (t.bodyKind === 'html')
    return {
      status: t.status,
      headers,
      body: `<!DOCTYPE html>\n<html><body><h1>${t.status}</h1><p>Refused.</p></body></html>\n`,
    };
  if (t.bodyKind === 'other') return { status: t.status, headers, body: 'Refused.\n' };
  const body = placeholderValues(t.fields ?? {}, Math.floor(now / 1000));
  for (const [k, type] of Object.entries(t.fields ?? {})) {
    if (type === 'string' && /detail|description|message|text|title/i.test(k)) body[k] = detail;
    if (type === 'number' && k === 'status') body[k] = t.status;
  }
  if (t.bodyKind === 'problem') {
    body.type = t.problemTypeName ? `${ctx.problemsBase}/${t.problemTypeName}` : 'about:blank';
    if ('instance' in body) body.instance = `urn:uuid:${randomUUID()}`;
  }
  if (t.bodyKind === 'messages')
    body.messages = (t.messageCodes?.length ? t.messageCodes : ['REFUSED']).map((code) => ({
      code,
      text: detail,
      timestamp: messageTimestamp(now),
    }));
  if (t.errorCode && t.fields?.error === 'string') body.error = t.errorCode;
  return { status: t.status, headers, body: JSON.stringify(body) };
}
