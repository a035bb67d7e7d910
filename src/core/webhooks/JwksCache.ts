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
import { said, SaidError, saidOf, type Said, type SaidValue } from '../presentation/said';
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
export class KeySetError extends SaidError {
  constructor(what: Said) {
    super(what);
    this.name = 'KeySetError';
  }
}

/** The key set could not be consulted (not fetched yet, fetch failed, or not fetched again yet after the delivery
 * arrived): nothing is decided, and the delivery may be asked for again after retryAfterMs. */
export class KeySetUnavailable extends KeySetError {
  constructor(
    what: Said,
    readonly retryAfterMs: number,
  ) {
    super(what);
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
  private lastError?: SaidValue;
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
    if (!this.keys) throw this.unavailable(said('not fetched yet ({0})', this.whyNotFetched()));
    if (kid !== undefined && !this.kids.has(kid)) {
      if (this.fetchedBy <= startedBefore && !this.options.keys)
        throw this.unavailable(
          said(
            'the kid {0} is not in the key set fetched {1} s ago, and the set was not fetched again since the delivery arrived ({2})',
            kidText(kid),
            Math.round((this.options.clock.now() - this.fetchedAt) / 1000),
            this.whyNotFetched(),
          ),
        );
      throw new KeySetError(
        this.options.keys
          ? said('no key with kid {0}: the key set holds {1}', kidText(kid), this.heldKids())
          : said(
              'no key with kid {0}: the key set, fetched after the delivery arrived, holds {1}',
              kidText(kid),
              this.heldKids(),
            ),
      );
    }
    const candidates = this.keys.filter((k) => (kid === undefined || k.kid === kid) && usableForRs256(k));
    if (candidates.length === 0)
      throw new KeySetError(
        this.lastError
          ? said('no RS256 key with kid {0} in the key set (last refresh failed: {1})', kidText(kid), this.lastError)
          : said('no RS256 key with kid {0} in the key set', kidText(kid)),
      );
    if (candidates.length > 1)
      throw new KeySetError(
        kid === undefined
          ? said('{0} RS256 keys match a token without kid: ambiguous', candidates.length)
          : said('{0} RS256 keys match kid {1}: ambiguous', candidates.length, kidText(kid)),
      );
    const jwk = candidates[0]!;
    let key = this.imported.get(jwk);
    if (!key) {
      try {
        key = createPublicKey({ key: jwk as never, format: 'jwk' });
      } catch (err) {
        throw new KeySetError(said('the key {0} cannot be used: {1}', kidText(kid), (err as Error).message));
      }
      this.imported.set(jwk, key);
    }
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS)
      throw new KeySetError(
        said('the key {0} has {1} bits; RS256 needs at least {2}', kidText(kid), bits, MIN_RSA_BITS),
      );
    if (kid !== undefined) this.usable.set(kid, key);
    return key;
  }

  private unavailable(what: Said): KeySetUnavailable {
    const waitMs = Math.max(1000, this.waitMs(this.options.clock.now()));
    return new KeySetUnavailable(
      said(
        'could not be consulted: {0}; the next key-set request is possible in {1} s',
        what,
        Math.ceil(waitMs / 1000),
      ),
      waitMs,
    );
  }

  private whyNotFetched(): Said {
    if (this.lastError !== undefined) return said('the last request failed: {0}', this.lastError);
    return said(
      'key-set requests are limited to one every {0} s and {1} a minute',
      Math.round((this.options.cooldownMs ?? DEFAULT_COOLDOWN_MS) / 1000),
      this.options.maxFetchesPerMinute ?? 5,
    );
  }

  /** The kids of the set, a few of them. */
  private heldKids(): Said {
    const kids = [...this.kids];
    if (kids.length === 0) return said('no kid');
    const named = `${kids.slice(0, 4).map(kidText).join(', ')}${kids.length > 4 ? ', …' : ''}`;
    return kids.length === 1 ? said('1 kid: {0}', named) : said('{0} kids: {1}', kids.length, named);
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
      if (res.status !== 200) throw new SaidError(said('key set answered {0}', res.status));
      const jwks = JSON.parse(res.body.toString('utf8')) as { keys?: unknown };
      if (!jwks || !Array.isArray(jwks.keys)) throw new SaidError(said('key set has no "keys" array'));
      this.hold(jwks.keys, n);
    } catch (err) {
      // The last good key set stays in use.
      this.lastError = saidOf(err);
    }
  }
}
