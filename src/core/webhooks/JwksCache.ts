// One issuer's key set, fetched from the address configured for that issuer (never from a token), cached:
// hourly refresh, refetch on an unknown kid, at most 5 key-set requests per minute counting failures,
// one fetch in flight shared by concurrent deliveries, the last good set kept when a refresh fails.
// Keys become node:crypto KeyObjects once per fetch, so each delivery verifies synchronously on the main thread
// (WebCrypto's asynchronous verify cost ~200 µs a delivery in latency; see bench/).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { httpRequest } from '../http/request';
import type { Clock } from '../time/clock';

export interface JwksCacheOptions {
  jwksUrl: string;
  clock: Clock;
  refreshMs?: number;
  maxFetchesPerMinute?: number;
  timeoutMs?: number;
}

export class KeySetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeySetError';
  }
}

interface Jwk {
  kty?: unknown;
  kid?: unknown;
  use?: unknown;
  alg?: unknown;
  key_ops?: unknown;
  [k: string]: unknown;
}

/** The smallest RSA modulus accepted (RFC 7518 §3.3 requires 2048 bits for RS256). */
export const MIN_RSA_BITS = 2048;

/** Keys of a key set usable for RS256 verification, as the JWKS selection rules say (kty, use, alg, key_ops). */
function usableForRs256(k: Jwk): boolean {
  return (
    k.kty === 'RSA' &&
    (k.use === undefined || k.use === 'sig') &&
    (k.alg === undefined || k.alg === 'RS256') &&
    (k.key_ops === undefined || (Array.isArray(k.key_ops) && k.key_ops.includes('verify')))
  );
}

export class JwksCache {
  private keys?: Jwk[];
  private kids = new Set<string>();
  private readonly imported = new Map<Jwk, KeyObject>();
  /** Keys that passed every check of getKey, by kid, since the last fetch. */
  private readonly usable = new Map<string, KeyObject>();
  private fetchedAt = -Infinity;
  private readonly attempts: number[] = [];
  private inFlight?: Promise<void>;
  private lastError?: string;

  constructor(private readonly options: JwksCacheOptions) {}

  /** The key for this kid when the cache already holds it, fresh, and it was usable when last asked for: the
   * receiver's hot path, with no promise. Undefined means "ask getKey". */
  cachedKey(kid: string | undefined): KeyObject | undefined {
    if (kid === undefined || !this.keys) return undefined;
    const key = this.usable.get(kid);
    return key && !this.isStale(this.options.clock.now()) ? key : undefined;
  }

  /** The public key for this kid, usable for RS256 and at least 2048 bits. */
  async getKey(kid: string | undefined): Promise<KeyObject> {
    const now = this.options.clock.now();
    const stale = this.isStale(now);
    const unknownKid = kid !== undefined && !this.kids.has(kid);
    if (!this.keys || stale || unknownKid) await this.refresh();
    if (!this.keys) throw new KeySetError(`no key set from ${this.options.jwksUrl}: ${this.lastError ?? 'not fetched'}`);
    const candidates = this.keys.filter((k) => (kid === undefined || k.kid === kid) && usableForRs256(k));
    const why = this.lastError ? ` (last refresh failed: ${this.lastError})` : '';
    if (candidates.length === 0) throw new KeySetError(`no RS256 key with kid "${kid}" in the key set${why}`);
    if (candidates.length > 1) throw new KeySetError(`${candidates.length} RS256 keys match ${kid === undefined ? 'a token without kid' : `kid "${kid}"`}: ambiguous`);
    const jwk = candidates[0]!;
    let key = this.imported.get(jwk);
    if (!key) {
      try {
        key = createPublicKey({ key: jwk as never, format: 'jwk' });
      } catch (err) {
        throw new KeySetError(`the key "${kid}" cannot be used: ${(err as Error).message}`);
      }
      this.imported.set(jwk, key);
    }
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) throw new KeySetError(`the key "${kid}" has ${bits} bits; RS256 needs at least ${MIN_RSA_BITS}`);
    if (kid !== undefined) this.usable.set(kid, key);
    return key;
  }

  private isStale(now: number): boolean {
    return now - this.fetchedAt >= (this.options.refreshMs ?? 3600_000);
  }

  /** Fetches unless the per-minute budget is spent; concurrent callers share one fetch. */
  private refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const now = this.options.clock.now();
    while (this.attempts.length > 0 && now - this.attempts[0] >= 60_000) this.attempts.shift();
    if (this.attempts.length >= (this.options.maxFetchesPerMinute ?? 5)) {
      this.lastError = `key-set requests limited to ${this.options.maxFetchesPerMinute ?? 5} per minute`;
      return Promise.resolve();
    }
    this.attempts.push(now);
    this.inFlight = this.fetchOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchOnce(): Promise<void> {
    try {
      const res = await httpRequest({ method: 'GET', url: this.options.jwksUrl, timeoutMs: this.options.timeoutMs ?? 5000, maxResponseBytes: 512 * 1024 });
      if (res.status !== 200) throw new Error(`key set answered ${res.status}`);
      const jwks = JSON.parse(res.body.toString('utf8')) as { keys?: unknown };
      if (!jwks || !Array.isArray(jwks.keys)) throw new Error('key set has no "keys" array');
      this.keys = jwks.keys.filter((k): k is Jwk => !!k && typeof k === 'object');
      this.imported.clear();
      this.usable.clear();
      this.kids = new Set(this.keys.map((k) => k.kid).filter((k): k is string => typeof k === 'string'));
      this.fetchedAt = this.options.clock.now();
      this.lastError = undefined;
    } catch (err) {
      // The last good key set stays in use.
      this.lastError = (err as Error).message;
    }
  }
}
