// One issuer's key set, fetched from the address configured for that issuer (never from a token), cached:
// hourly refresh, refetch on an unknown kid, one fetch in flight shared by concurrent deliveries, the last good
// set kept when a refresh fails. At most one key-set request per cooldown (15 s), failures included, so nothing a
// stranger sends can make more than 4 a minute (the spec's example limit is 5), and a kid the set does not hold is
// refused only when a fetch made after the delivery arrived says so: until then the key set "cannot be consulted"
// (KeySetUnavailable), and the receiver answers 503 so the service sends the delivery again.
// Keys become node:crypto KeyObjects once per fetch, so each delivery verifies synchronously on the main thread,
// without WebCrypto's asynchronous round trip.
// A key set given in-process (a key folder's jwks.json) is held as given and never fetched.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { httpRequest } from '../http/request';
import type { Clock } from '../time/clock';

export interface JwksCacheOptions {
  jwksUrl: string;
  clock: Clock;
  refreshMs?: number;
  /** The least time between two key-set requests (default 15 s). */
  cooldownMs?: number;
  /** A second bound, over any 60 s (default 5, the spec's example). */
  maxFetchesPerMinute?: number;
  timeoutMs?: number;
  /** A key set given in-process (a key folder's jwks.json, which has no address): held from the start, never
   * fetched, and a kid it lacks is refused at once. `jwksUrl` then only names it. */
  keys?: { keys: readonly unknown[] };
}

const DEFAULT_COOLDOWN_MS = 15_000;

/** The key set says no: no usable key for this kid (a refusal, 403). */
export class KeySetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeySetError';
  }
}

/** The key set could not be consulted (not fetched yet, fetch failed, or not fetched again yet after the delivery
 * arrived): nothing is decided, and the delivery may be asked for again after retryAfterMs. */
export class KeySetUnavailable extends KeySetError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'KeySetUnavailable';
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
const MIN_RSA_BITS = 2048;

/** Keys of a key set usable for RS256 verification, as the JWKS selection rules say (kty, use, alg, key_ops). */
function usableForRs256(k: Jwk): boolean {
  return (
    k.kty === 'RSA' &&
    (k.use === undefined || k.use === 'sig') &&
    (k.alg === undefined || k.alg === 'RS256') &&
    (k.key_ops === undefined || (Array.isArray(k.key_ops) && k.key_ops.includes('verify')))
  );
}

/** A kid as shown in a message: a made-up one may be long. */
function kidText(kid: string | undefined): string {
  return kid === undefined ? '(none)' : JSON.stringify(kid.length > 64 ? `${kid.slice(0, 64)}…` : kid);
}

export class JwksCache {
  private keys?: Jwk[];
  private kids = new Set<string>();
  private readonly imported = new Map<Jwk, KeyObject>();
  /** Keys that passed every check of getKey, by kid, since the last fetch. */
  private readonly usable = new Map<string, KeyObject>();
  private fetchedAt = -Infinity;
  private lastAttemptAt = -Infinity;
  private readonly attempts: number[] = [];
  private inFlight?: Promise<void>;
  private lastError?: string;
  /** Key-set requests started so far, and which of them fetched the set in use. */
  private started = 0;
  private fetchedBy = 0;

  constructor(private readonly options: JwksCacheOptions) {
    if (options.keys) this.hold(options.keys.keys, 0);
  }

  get jwksUrl(): string {
    return this.options.jwksUrl;
  }

  /** The key for this kid when the cache already holds it, fresh, and it was usable when last asked for: the
   * receiver's hot path, with no promise. Undefined means "ask getKey". */
  cachedKey(kid: string | undefined): KeyObject | undefined {
    if (kid === undefined || !this.keys) return undefined;
    const key = this.usable.get(kid);
    return key && !this.isStale(this.options.clock.now()) ? key : undefined;
  }

  /** The public key for this kid, usable for RS256 and at least 2048 bits. Throws KeySetUnavailable while the key
   * set cannot be consulted, KeySetError when it says no. */
  async getKey(kid: string | undefined): Promise<KeyObject> {
    // Requests started before this lookup may have fetched the set before the key was published.
    const startedBefore = this.started;
    const now = this.options.clock.now();
    const stale = this.isStale(now);
    const unknownKid = kid !== undefined && !this.kids.has(kid);
    if (!this.keys || stale || unknownKid) await this.refresh();
    if (!this.keys) throw this.unavailable(`not fetched yet (${this.whyNotFetched()})`);
    if (kid !== undefined && !this.kids.has(kid)) {
      if (this.fetchedBy <= startedBefore && !this.options.keys)
        throw this.unavailable(
          `the kid ${kidText(kid)} is not in the key set fetched ${Math.round((this.options.clock.now() - this.fetchedAt) / 1000)} s ago, and the set was not fetched again since the delivery arrived (${this.whyNotFetched()})`,
        );
      throw new KeySetError(
        `no key with kid ${kidText(kid)}: the key set${this.options.keys ? '' : ', fetched after the delivery arrived,'} holds ${this.heldKids()}`,
      );
    }
    const candidates = this.keys.filter((k) => (kid === undefined || k.kid === kid) && usableForRs256(k));
    const why = this.lastError ? ` (last refresh failed: ${this.lastError})` : '';
    if (candidates.length === 0) throw new KeySetError(`no RS256 key with kid ${kidText(kid)} in the key set${why}`);
    if (candidates.length > 1)
      throw new KeySetError(
        `${candidates.length} RS256 keys match ${kid === undefined ? 'a token without kid' : `kid ${kidText(kid)}`}: ambiguous`,
      );
    const jwk = candidates[0]!;
    let key = this.imported.get(jwk);
    if (!key) {
      try {
        key = createPublicKey({ key: jwk as never, format: 'jwk' });
      } catch (err) {
        throw new KeySetError(`the key ${kidText(kid)} cannot be used: ${(err as Error).message}`);
      }
      this.imported.set(jwk, key);
    }
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS)
      throw new KeySetError(`the key ${kidText(kid)} has ${bits} bits; RS256 needs at least ${MIN_RSA_BITS}`);
    if (kid !== undefined) this.usable.set(kid, key);
    return key;
  }

  private unavailable(what: string): KeySetUnavailable {
    const waitMs = Math.max(1000, this.waitMs(this.options.clock.now()));
    return new KeySetUnavailable(
      `could not be consulted: ${what}; the next key-set request is possible in ${Math.ceil(waitMs / 1000)} s`,
      waitMs,
    );
  }

  private whyNotFetched(): string {
    if (this.lastError !== undefined) return `the last request failed: ${this.lastError}`;
    return `key-set requests are limited to one every ${Math.round((this.options.cooldownMs ?? DEFAULT_COOLDOWN_MS) / 1000)} s and ${this.options.maxFetchesPerMinute ?? 5} a minute`;
  }

  /** The kids of the set, a few of them. */
  private heldKids(): string {
    const kids = [...this.kids];
    if (kids.length === 0) return 'no kid';
    return `${kids.length} kid${kids.length === 1 ? '' : 's'}: ${kids.slice(0, 4).map(kidText).join(', ')}${kids.length > 4 ? ', …' : ''}`;
  }

  private isStale(now: number): boolean {
    if (this.options.keys) return false;
    return now - this.fetchedAt >= (this.options.refreshMs ?? 3600_000);
  }

  /** How long until a key-set request may be made: the cooldown since the last one, and the per-minute bound. */
  private waitMs(now: number): number {
    while (this.attempts.length > 0 && now - this.attempts[0]! >= 60_000) this.attempts.shift();
    const cooldown = this.lastAttemptAt + (this.options.cooldownMs ?? DEFAULT_COOLDOWN_MS) - now;
    const budget =
      this.attempts.length >= (this.options.maxFetchesPerMinute ?? 5) ? this.attempts[0]! + 60_000 - now : 0;
    return Math.max(0, cooldown, budget);
  }

  /** Fetches unless a request was made within the cooldown (or the per-minute bound is reached); concurrent
   * callers share one fetch. */
  private refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.options.keys) return Promise.resolve();
    const now = this.options.clock.now();
    if (this.waitMs(now) > 0) return Promise.resolve();
    this.lastAttemptAt = now;
    this.attempts.push(now);
    const n = ++this.started;
    this.inFlight = this.fetchOnce(n).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Makes `keys` the key set in use, as fetched by request `n`. */
  private hold(keys: readonly unknown[], n: number): void {
    this.keys = keys.filter((k): k is Jwk => !!k && typeof k === 'object');
    this.imported.clear();
    this.usable.clear();
    this.kids = new Set(this.keys.map((k) => k.kid).filter((k): k is string => typeof k === 'string'));
    this.fetchedAt = this.options.clock.now();
    this.fetchedBy = n;
    this.lastError = undefined;
  }

  private async fetchOnce(n: number): Promise<void> {
    try {
      const res = await httpRequest({
        method: 'GET',
        url: this.options.jwksUrl,
        timeoutMs: this.options.timeoutMs ?? 5000,
        maxResponseBytes: 512 * 1024,
      });
      if (res.status !== 200) throw new Error(`key set answered ${res.status}`);
      const jwks = JSON.parse(res.body.toString('utf8')) as { keys?: unknown };
      if (!jwks || !Array.isArray(jwks.keys)) throw new Error('key set has no "keys" array');
      this.hold(jwks.keys, n);
    } catch (err) {
      // The last good key set stays in use.
      this.lastError = (err as Error).message;
    }
  }
}
