// What the probe reads from the service's answers: a token response's tokens and facts, a key set's public facts, a
// start's workflowId. Secrets stay in memory for the next requests only; the facts hold none.
import type { HttpResponse } from '../http/request';
import { codeValue } from './observe';

/** The tokens of a token response (kept in memory for the next requests only) and the facts the rows need. */
export function tokenFields(res: HttpResponse): {
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
export function keySetFacts(res: HttpResponse): Record<string, string | number | string[]> {
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
export function workflowIdOf(res: HttpResponse): string | undefined {
  try {
    const id = (JSON.parse(res.body.toString('utf8')) as { workflow?: { workflowId?: unknown } }).workflow?.workflowId;
    return typeof id === 'string' && /^[\w.:-]{1,128}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}
