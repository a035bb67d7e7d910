// Turns a response into an Observation: its status, media type, body kind and the names (never the values) of what
// it holds. classifyBody decides the spec's three kinds; HTML and empty bodies are told apart here.
import { classifyBody } from '../http/bodyKind';
import { said, type Said } from '../presentation/said';
import type { HttpResponse } from '../http/request';
import type { JsonTypeName, JwtNames, Observation } from './probeTypes';

function jsonType(v: unknown): JsonTypeName {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

/** Field names of a JSON object with each value's type, in sorted order. */
function fieldTypes(value: unknown): Record<string, JsonTypeName> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, JsonTypeName> = {};
  for (const k of Object.keys(value).sort()) out[k] = jsonType((value as Record<string, unknown>)[k]);
  return out;
}

/** A code-like value (OAuth error codes, JOSE algorithm names): safe to record, unlike free text. */
export function codeValue(v: unknown): string | undefined {
  return typeof v === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : undefined;
}

/** A URI without its query or fragment. */
function withoutQuery(uri: string): string {
  return uri.split(/[?#]/)[0]!;
}

export function observe(res: Pick<HttpResponse, 'status' | 'contentType' | 'body' | 'headers'>): Observation {
  const o: Observation = { status: res.status, contentType: res.contentType, bodyKind: 'other' };
  const www = res.headers['www-authenticate'];
  if (www) o.wwwAuthenticate = parseWwwAuthenticate(www);
  if (res.body.length === 0) {
    o.bodyKind = 'empty';
    return o;
  }
  const kind = classifyBody(res);
  if (kind.kind === 'messages') {
    o.bodyKind = 'messages';
    o.fields = fieldTypes(kind.json);
    o.messageCodes = kind.messages.map((m) => m.code);
  } else if (kind.kind === 'problem') {
    o.bodyKind = 'problem';
    o.fields = fieldTypes(JSON.parse(res.body.toString('utf8')));
    o.problemType = withoutQuery(kind.problem.type);
  } else if (kind.kind === 'json') {
    o.bodyKind = 'json';
    o.fields = fieldTypes(kind.json);
    const error = codeValue((kind.json as Record<string, unknown> | null)?.error);
    if (error) o.errorCode = error;
  } else if (res.contentType === 'text/html' || /^\s*<(!doctype|html)/i.test(res.body.subarray(0, 64).toString())) {
    o.bodyKind = 'html';
  }
  return o;
}

/** The scheme and parameter names of a WWW-Authenticate value; error= is kept when it is a plain token. */
export function parseWwwAuthenticate(value: string): { scheme: string; params: string[]; error?: string } {
  const scheme = /^\s*([A-Za-z][\w-]*)/.exec(value)?.[1] ?? '';
  const params: string[] = [];
  let error: string | undefined;
  for (const m of value.matchAll(/([A-Za-z_][\w-]*)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)/g)) {
    const name = m[1]!.toLowerCase();
    params.push(name);
    if (name === 'error') error = codeValue(m[2]!.replace(/^"|"$/g, ''));
  }
  return { scheme, params: [...new Set(params)].sort(), ...(error ? { error } : {}) };
}

/** The names in a compact JWS, or undefined when it is not one. Values never leave this function, except the
 * lifetime (exp − iat) and a JOSE algorithm name. */
export function jwtNames(token: string): JwtNames | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (!header || typeof header !== 'object' || !claims || typeof claims !== 'object') return undefined;
    const names: JwtNames = { header: Object.keys(header).sort(), claims: fieldTypes(claims) ?? {} };
    if (typeof claims.exp === 'number' && typeof claims.iat === 'number')
      names.lifetimeSeconds = claims.exp - claims.iat;
    const alg = codeValue(header.alg);
    if (alg) names.alg = alg;
    return names;
  } catch {
    return undefined;
  }
}

/** The observation in a few words: "401 · application/problem+json · problem · type …/invalid-token"; the status,
 * media type, body kind, codes, type and names are data. */
export function describeSaid(o: Observation | undefined): Said {
  if (!o) return said('{0}', '—');
  const parts: Said[] = [
    said('{0}', o.status),
    o.contentType ? said('{0}', o.contentType) : said('(no Content-Type)'),
    said('{0}', o.bodyKind),
  ];
  if (o.messageCodes?.length) parts.push(said('codes {0}', o.messageCodes.join(', ')));
  if (o.problemType) parts.push(said('type {0}', o.problemType));
  if (o.errorCode) parts.push(said('error {0}', o.errorCode));
  if (o.fields && o.bodyKind !== 'problem') parts.push(said('fields {0}', listSaid(Object.keys(o.fields))));
  return joinSaid(parts, ' · ');
}

/** Names joined with ", ", or "none". */
export function listSaid(names: readonly string[]): Said {
  return names.length ? said('{0}', names.join(', ')) : said('none');
}

/** Parts joined by a separator without letters (" · " or "; "): the separator is not words to translate. */
export function joinSaid(parts: readonly Said[], separator: ' · ' | '; '): Said {
  if (parts.length === 0) return said('{0}', '');
  return parts.reduce((a, b) => (separator === ' · ' ? said('{0} · {1}', a, b) : said('{0}; {1}', a, b)));
}

/** What two observations must share to be "the same choice": status, media type, body kind, field names, codes
 * and the problem type's last segment (its base is the environment's own). */
export function shapeKey(o: Observation | undefined): string {
  if (!o) return '';
  const typeName = o.problemType ? o.problemType.slice(o.problemType.lastIndexOf('/') + 1) : '';
  return JSON.stringify([
    o.status,
    o.contentType,
    o.bodyKind,
    Object.keys(o.fields ?? {}).sort(),
    o.messageCodes ?? [],
    typeName,
    o.errorCode ?? '',
  ]);
}
