// One issuer's key set, fetched from the address configured for that issuer (never from a token), cached:
// hourly refresh, refetch on an unknown kid, at most 5 key-set requests per minute counting failures,
// one fetch in flight shared by concurrent deliveries, the last good set kept when a refresh fails.
// Built on jose's createLocalJWKSet over our own fetch: createRemoteJWKSet refetches on every failure (DESIGN.md §8).
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
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

type Resolver = ReturnType<typeof createLocalJWKSet>;

export class JwksCache {
  private resolver?: Resolver;
  private kids = new Set<string>();
  private fetchedAt = -Infinity;
  private readonly attempts: number[] = [];
  private inFlight?: Promise<void>;
  private lastError?: string;
  /** Key-set requests made, failures included. */
  fetchCount = 0;

  constructor(private readonly options: JwksCacheOptions) {}

  /** The public key for this kid, verified usable for RS256. */
  async getKey(kid: string | undefined): Promise<Awaited<ReturnType<Resolver>>> {
    const now = this.options.clock.now();
    const stale = now - this.fetchedAt >= (this.options.refreshMs ?? 3600_000);
    const unknownKid = kid !== undefined && !this.kids.has(kid);
    if (!this.resolver || stale || unknownKid) await this.refresh();
    if (!this.resolver) throw new KeySetError(`no key set from ${this.options.jwksUrl}: ${this.lastError ?? 'not fetched'}`);
    try {
      return await this.resolver({ alg: 'RS256', kid }, { payload: '', signature: '' } as never);
    } catch (err) {
      throw new KeySetError(`no RS256 key with kid "${kid}" in the key set${this.lastError ? ` (last refresh failed: ${this.lastError})` : ''}: ${(err as Error).message}`);
    }
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
    this.fetchCount++;
    this.inFlight = this.fetchOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchOnce(): Promise<void> {
    try {
      const res = await httpRequest({ method: 'GET', url: this.options.jwksUrl, timeoutMs: this.options.timeoutMs ?? 5000, maxResponseBytes: 512 * 1024 });
      if (res.status !== 200) throw new Error(`key set answered ${res.status}`);
      const jwks = JSON.parse(res.body.toString('utf8')) as JSONWebKeySet;
      if (!jwks || !Array.isArray(jwks.keys)) throw new Error('key set has no "keys" array');
      this.resolver = createLocalJWKSet(jwks);
      this.kids = new Set(jwks.keys.map((k) => k.kid).filter((k): k is string => typeof k === 'string'));
      this.fetchedAt = this.options.clock.now();
      this.lastError = undefined;
    } catch (err) {
      // The last good key set stays in use.
      this.lastError = (err as Error).message;
    }
  }
}
