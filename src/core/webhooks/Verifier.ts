// The receiver's seven verification steps (spec: Authentication 6), in order, each recorded with its result so
// the UI can show exactly which passed and why one failed. JSON is parsed only after every step passes.
import { createHash, timingSafeEqual, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import { isUtf8 } from 'node:buffer';
import type { Clock } from '../time/clock';
import { JwksCache } from './JwksCache';

export interface TrustedIssuer {
  issuer: string;
  jwksUrl: string;
  audience: string;
}

export interface VerificationCheck {
  step: number;
  name: string;
  ok: boolean;
  detail: string;
}

export interface VerificationResult {
  ok: boolean;
  /** Frozen when every step passed (shared between deliveries): copy before changing. */
  checks: readonly VerificationCheck[];
  /** Decoded (not trusted unless ok) JWT header and claims, for display. */
  header?: ProtectedHeaderParameters;
  claims?: JWTPayload;
  /** Parsed body: present only when every step passed and the body is JSON. */
  body?: unknown;
  /** Set when every step passed but the body is not JSON: the receiver cannot handle it. */
  bodyError?: string;
  /** SHA-256 (hex) of the raw body, when step 6 computed it. */
  bodySha256?: string;
}

export const STEP_NAMES = ['bearer token', 'trusted issuer', 'signing key', 'signature (RS256)', 'claims (iss, aud, exp)', 'body hash', 'decision'] as const;

const TOLERANCE_S = 60;
const HEX64 = /^[0-9a-f]{64}$/;

export interface VerifierOptions {
  issuers: TrustedIssuer[];
  clock: Clock;
  /** Creates the key-set cache for an issuer (tests inject their own limits). */
  keySet?: (issuer: TrustedIssuer) => JwksCache;
}

/**
 * Trust is a set of (issuer, key-set address, audience) entries: two environments may trust one issuer string at
 * different key sets (every sandbox signs as the same issuer) and both keep working. A token's kid is looked up in
 * every key set configured for its issuer, each with its own cache and rate limit; the key that verifies the
 * signature decides which entry's audience applies.
 */
export class Verifier {
  /** One cache per key-set address, shared by the entries that name it. */
  private readonly caches = new Map<string, JwksCache>();
  private byIssuer = new Map<string, TrustedIssuer[]>();
  private entries: TrustedIssuer[] = [];
  /** Signature checks under way (inline or on the thread pool). */
  private verifying = 0;
  private readonly headers = new Map<string, ProtectedHeaderParameters>();
  private readonly passes = new Map<string, readonly VerificationCheck[]>();

  constructor(private readonly options: VerifierOptions) {
    this.setIssuers(options.issuers);
  }

  /** The trust entries, duplicates removed, in the order given. */
  get issuers(): TrustedIssuer[] {
    return [...this.entries];
  }

  /** Replaces the trust entries (the settings changed, or the sandbox restarted on a new port). A key set's cache
   * is kept while some entry still names its address. */
  setIssuers(issuers: readonly TrustedIssuer[]): void {
    const seen = new Set<string>();
    this.entries = issuers.filter((i) => {
      const k = `${i.issuer}\n${i.jwksUrl}\n${i.audience}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    this.byIssuer = new Map();
    for (const e of this.entries) this.byIssuer.set(e.issuer, [...(this.byIssuer.get(e.issuer) ?? []), e]);
    const urls = new Set(this.entries.map((e) => e.jwksUrl));
    for (const url of this.caches.keys()) if (!urls.has(url)) this.caches.delete(url);
    this.passes.clear();
  }

  /** The cache of a key set (created on first use). */
  cacheFor(issuer: TrustedIssuer): JwksCache {
    let c = this.caches.get(issuer.jwksUrl);
    if (!c) {
      c = this.options.keySet?.(issuer) ?? new JwksCache({ jwksUrl: issuer.jwksUrl, clock: this.options.clock });
      this.caches.set(issuer.jwksUrl, c);
    }
    return c;
  }

  /** @param busy the caller has other deliveries coming (several connections open): then the signature check
   * goes to the thread pool instead of running inline. */
  async verify(authorization: string | undefined, rawBody: Buffer, busy = false): Promise<VerificationResult> {
    // A refusal builds its own list of checks; a pass shares one frozen list per issuer and key (see passedChecks),
    // so a verified delivery allocates almost nothing beyond its decoded claims and body.
    const checks: VerificationCheck[] = [];
    const result: VerificationResult = { ok: false, checks };
    const passed = (upTo: number, issuer?: TrustedIssuer, kid?: string) => {
      for (let step = 1; step <= upTo; step++) checks.push(passDetail(step, issuer, kid));
    };
    const fail = (step: number, detail: string, issuer?: TrustedIssuer, kid?: string): VerificationResult => {
      passed(step - 1, issuer, kid);
      checks.push({ step, name: STEP_NAMES[step - 1], ok: false, detail });
      checks.push({ step: 7, name: STEP_NAMES[6], ok: false, detail: `refused with 403: step ${step} (${STEP_NAMES[step - 1]}) failed` });
      return result;
    };

    // 1. Bearer token from the Authorization header.
    if (!authorization) return fail(1, 'no Authorization header');
    const m = BEARER.exec(authorization);
    if (!m) return fail(1, `Authorization is not of the form "Bearer <JWT>" (scheme: ${authorization.split(' ')[0].slice(0, 20)})`);
    const token = m[1];

    // 2. Issuer in our own map, before any network request. Nothing here (jku, x5u, jwk) is ever used for keys.
    // Decoded here without a library: two base64url segments, each a JSON object (nothing is trusted yet).
    const dot1 = token.indexOf('.');
    const dot = token.lastIndexOf('.');
    try {
      result.header = this.decodeHeader(token.slice(0, dot1));
      result.claims = decodeSegment(token.slice(dot1 + 1, dot), 'claims') as JWTPayload;
    } catch (err) {
      return fail(2, `the token cannot be decoded: ${(err as Error).message}`);
    }
    const iss = result.claims.iss;
    const entries = typeof iss === 'string' ? this.byIssuer.get(iss) : undefined;
    if (!entries) return fail(2, `issuer ${JSON.stringify(iss ?? null)} is not trusted; no key-set request was made`);

    // 3. Signing key by kid, from the key sets configured for this issuer (never from the token).
    const kid = typeof result.header.kid === 'string' ? result.header.kid : undefined;
    const candidates: { entry: TrustedIssuer; key: KeyObject }[] = [];
    const misses: string[] = [];
    for (const entry of entries) {
      const cache = this.cacheFor(entry);
      const known = cache.cachedKey(kid);
      if (known) {
        candidates.push({ entry, key: known });
        continue;
      }
      try {
        candidates.push({ entry, key: await cache.getKey(kid) });
      } catch (err) {
        misses.push(entries.length > 1 ? `${entry.jwksUrl}: ${(err as Error).message}` : (err as Error).message);
      }
    }
    if (candidates.length === 0) return fail(3, misses.join('; '), entries[0]);
    let trusted = candidates[0]!.entry;

    // 4. Signature with RS256 pinned; the token's own alg is never honoured.
    if (result.header.alg !== 'RS256') return fail(4, `alg ${JSON.stringify(result.header.alg)} refused: only RS256 is accepted`, trusted, kid);
    if (result.header.crit !== undefined) return fail(4, `critical header parameters ${JSON.stringify(result.header.crit)} are not supported`, trusted, kid);
    // RSASSA-PKCS1-v1_5 / SHA-256 over "header.payload" (RFC 7515's signing input). A lone delivery is checked
    // inline (~30 µs; a thread-pool hop adds ~100 µs of latency); under concurrent load the check goes to
    // libuv's thread pool, so a burst uses every core while the event loop keeps serving (see bench/).
    // With several key sets holding this kid (two sandboxes), each key is tried: the one that verifies decides.
    const signature = Buffer.from(token.slice(dot + 1), 'base64url');
    const input = Buffer.from(token.slice(0, dot), 'latin1');
    let valid = false;
    this.verifying++;
    try {
      const tried = new Set<KeyObject>();
      for (const c of candidates) {
        if (tried.has(c.key)) continue;
        tried.add(c.key);
        valid = signature.length > 0 && (this.verifying === 1 && !busy ? cryptoVerify('RSA-SHA256', input, c.key, signature) : await verifyOnThreadPool(input, c.key, signature));
        if (valid) {
          // Entries naming the same key set share this key: the one whose audience the token names applies.
          const sharing = candidates.filter((o) => o.key === c.key).map((o) => o.entry);
          const aud = result.claims.aud;
          trusted = sharing.find((e) => aud === e.audience || (Array.isArray(aud) && aud.includes(e.audience))) ?? c.entry;
          break;
        }
      }
    } catch (err) {
      return fail(4, `signature does not verify: ${(err as Error).message}`, trusted, kid);
    } finally {
      this.verifying--;
    }
    if (!valid) return fail(4, `signature does not verify: signature verification failed${candidates.length > 1 ? ` with the key "${kid}" of any of ${candidates.length} key sets` : ''}`, trusted, kid);

    // 5. iss, aud, exp (required), 60 s tolerance.
    const c = result.claims;
    const now = Math.floor(this.options.clock.now() / 1000);
    const aud = c.aud;
    if (!(aud === trusted.audience || (Array.isArray(aud) && aud.includes(trusted.audience))))
      return fail(5, `audience ${JSON.stringify(aud ?? null)} is not the one registered for ${trusted.issuer} with the key set ${trusted.jwksUrl} (${trusted.audience})`, trusted, kid);
    if (c.exp === undefined) return fail(5, 'exp is missing; it is required', trusted, kid);
    if (typeof c.exp !== 'number' || !Number.isFinite(c.exp)) return fail(5, `exp is not a number (${JSON.stringify(c.exp)})`, trusted, kid);
    if (now > c.exp + TOLERANCE_S) return fail(5, `expired ${now - c.exp} s ago (tolerance ${TOLERANCE_S} s)`, trusted, kid);
    if (typeof c.nbf === 'number' && now < c.nbf - TOLERANCE_S) return fail(5, `not valid before ${c.nbf} (${c.nbf - now} s from now)`, trusted, kid);

    // 6. SHA-256 over the raw bytes as received, compared in constant time.
    const claimed = c.body_sha256;
    if (typeof claimed !== 'string' || !HEX64.test(claimed)) return fail(6, `body_sha256 is ${claimed === undefined ? 'missing' : 'not 64 lower-case hex digits'}`, trusted, kid);
    const actual = createHash('sha256').update(rawBody).digest();
    result.bodySha256 = actual.toString('hex');
    if (!timingSafeEqual(actual, Buffer.from(claimed, 'hex'))) return fail(6, `body_sha256 does not match the ${rawBody.length} bytes received (got ${result.bodySha256.slice(0, 12)}…)`, trusted, kid);

    result.ok = true;
    result.checks = this.passedChecks(trusted, kid);
    try {
      if (!isUtf8(rawBody)) throw new Error('the body is not UTF-8');
      result.body = JSON.parse(rawBody.toString('utf8'));
    } catch (err) {
      result.bodyError = `verified, but the body is not JSON: ${(err as Error).message}`;
    }
    return result;
  }

  /** The seven passed checks for an issuer and kid: their details name nothing that varies per delivery (the
   * claims and body size are in the record), so one frozen list serves every delivery signed with that key. */
  private passedChecks(issuer: TrustedIssuer, kid: string | undefined): readonly VerificationCheck[] {
    const k = `${issuer.issuer}\n${issuer.jwksUrl}\n${kid ?? ''}`;
    let list = this.passes.get(k);
    if (!list) {
      list = Object.freeze(Array.from({ length: 7 }, (_, i) => passDetail(i + 1, issuer, kid)));
      if (this.passes.size >= MAX_CACHED) this.passes.clear();
      this.passes.set(k, list);
    }
    return list;
  }

  /** Protected headers repeat (one per issuer and key): each distinct one is decoded once and shared, frozen. */
  private decodeHeader(segment: string): ProtectedHeaderParameters {
    let header = this.headers.get(segment);
    if (!header) {
      header = Object.freeze(decodeSegment(segment, 'header')) as ProtectedHeaderParameters;
      if (this.headers.size >= MAX_CACHED) this.headers.clear();
      this.headers.set(segment, header);
    }
    return header;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;
/** Distinct headers or (issuer, kid) pairs remembered; a flood of made-up ones only resets the cache. */
const MAX_CACHED = 64;

/** What a passed step says: constant for a given issuer and kid. Step 7 says what the receiver answers a
 * verified delivery by default; the receiver replaces it when it answers otherwise. */
function passDetail(step: number, issuer: TrustedIssuer | undefined, kid: string | undefined): VerificationCheck {
  let detail: string;
  switch (step) {
    case 1:
      detail = 'Bearer token present';
      break;
    case 2:
      detail = `issuer ${issuer?.issuer} is trusted`;
      break;
    case 3:
      detail = `key ${kid ?? '(no kid)'} found in ${issuer?.jwksUrl}`;
      break;
    case 4:
      detail = 'RS256 signature verifies';
      break;
    case 5:
      detail = `iss and aud match; exp not passed (tolerance ${TOLERANCE_S} s)`;
      break;
    case 6:
      detail = 'SHA-256 of the raw body matches body_sha256';
      break;
    default:
      detail = VERIFIED_DETAIL;
  }
  return Object.freeze({ step, name: STEP_NAMES[step - 1], ok: true, detail });
}

export const VERIFIED_DETAIL = 'verified: answered 200';

function decodeSegment(segment: string, what: string): Record<string, unknown> {
  const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`the ${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

function verifyOnThreadPool(data: Buffer, key: KeyObject, signature: Buffer): Promise<boolean> {
  return new Promise((resolve, reject) => cryptoVerify('RSA-SHA256', data, key, signature, (err, ok) => (err ? reject(err) : resolve(ok))));
}
