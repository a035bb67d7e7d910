// The receiver's seven verification steps (spec: Authentication 6), composed in order from verificationSteps.ts,
// each recorded with its result so the UI can show exactly which passed and why one failed. JSON is parsed only
// after every step passes.
import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import { said, saidOf } from '../presentation/said';
import type { Clock } from '../time/clock';
import { JwksCache } from './JwksCache';
import {
  bearerToken,
  check,
  claimsHold,
  decodeSegment,
  decodeToken,
  digestHolds,
  fetchKeys,
  passedCheck,
  refusedChecks,
  signatureHolds,
  signingKeys,
  StepFailed,
  STEP_SAID,
  TOLERANCE_S,
  trustedEntries,
  type DecodedToken,
  type KeyCandidates,
  type TrustedIssuer,
  type VerificationCheck,
} from './verificationSteps';

export { type TrustedIssuer, type VerificationCheck } from './verificationSteps';

export interface VerificationResult {
  ok: boolean;
  /** Frozen when every step passed (shared between deliveries): copy before changing. */
  checks: readonly VerificationCheck[];
  /** Decoded (not trusted unless ok) JWT header and claims, for display. */
  header?: ProtectedHeaderParameters;
  claims?: JWTPayload;
  /** Set when nothing was decided: a key set could not be consulted. The receiver answers 503 with this
   * Retry-After (seconds), so the service sends the delivery again; it is neither verified nor refused. */
  retryAfterS?: number;
}

/** What the receiver learned of a body as it was read: its size and SHA-256 (hex). Step 6 needs no more. */
export interface BodyDigest {
  size: number;
  sha256: string;
}

/** What headers() decides: a token trusted through step 5, or a refusal. */
export type HeadersVerdict = TrustedToken | VerificationResult;

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
  private readonly decodedHeaders = new Map<string, ProtectedHeaderParameters>();
  private readonly passes = new Map<string, readonly VerificationCheck[]>();
  /** Single tokens trusted beyond the entries, each for its own issuers (Test Public Address's probe, signed by the
   * sandbox while a real environment is in use); every other token of those issuers is refused at step 2. */
  private readonly tokens = new Map<string, TrustedIssuer[]>();
  /** Tokens signed here (by the editor, the audit) for one delivery each: spent by the first delivery that verifies
   * with it, dropped once expired, and bounded in count and bytes (the oldest go first). */
  private readonly once = new Map<string, OnceToken>();
  private onceBytes = 0;
  /** The lookups the verification steps are given. */
  private readonly decodeHeaderOf = (segment: string) => this.decodeHeader(segment);
  private readonly keySetOf = (issuer: TrustedIssuer) => this.cacheFor(issuer);

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
  private cacheFor(issuer: TrustedIssuer): JwksCache {
    let c = this.caches.get(issuer.jwksUrl);
    if (!c) {
      c = this.options.keySet?.(issuer) ?? new JwksCache({ jwksUrl: issuer.jwksUrl, clock: this.options.clock });
      this.caches.set(issuer.jwksUrl, c);
    }
    return c;
  }

  /** Trusts this one token for these issuers, until the returned function is called. With `once`, only for the first
   * delivery that verifies with it, and judged by these issuers' key sets alone; kept until its own exp (with the
   * 60 s tolerance), at least a minute; the function then withdraws it if still unspent. */
  trustToken(token: string, issuers: readonly TrustedIssuer[], o: { once?: boolean } = {}): () => void {
    if (!o.once) {
      this.tokens.set(token, [...issuers]);
      return () => void this.tokens.delete(token);
    }
    const nowS = Math.floor(this.options.clock.now() / 1000);
    this.dropExpired(nowS);
    // Kept until its exp (with the tolerance), and at least a minute: one already expired (the audit sends such) is
    // then refused at step 5 by its signer's key set, as on the Sandbox, not left to another's.
    const expiresAtS = Math.max(tokenExpiry(token, nowS), nowS + MIN_ONCE_S);
    this.forgetOnce(token);
    const entry: OnceToken = { issuers: [...issuers], expiresAtS, bytes: tokenBytes(token, issuers) };
    this.once.set(token, entry);
    this.onceBytes += entry.bytes;
    for (const oldest of this.once.keys()) {
      if (this.once.size <= MAX_ONCE_TOKENS && this.onceBytes <= MAX_ONCE_BYTES) break;
      this.forgetOnce(oldest);
    }
    return () => void (this.once.get(token) === entry && this.forgetOnce(token));
  }

  /** Tokens trusted once and not yet spent nor expired: how many, and the bytes they hold. */
  get pendingOnce(): { count: number; bytes: number } {
    return { count: this.once.size, bytes: this.onceBytes };
  }

  private forgetOnce(token: string): boolean {
    const e = this.once.get(token);
    if (!e) return false;
    this.once.delete(token);
    this.onceBytes -= e.bytes;
    return true;
  }

  private dropExpired(nowS: number): void {
    for (const [token, e] of this.once) if (e.expiresAtS < nowS) this.forgetOnce(token);
  }

  /**
   * Steps 1 to 5, from the Authorization header alone, before any byte of the body: the token trusted through
   * step 5, or a refusal. None of them needs the body (the signature covers the header and claims), so a request
   * no trusted issuer signed, or whose signature does not verify, or that is for another audience or expired, never
   * has its body held. Synchronous while the signing key is cached (every delivery but the first of a key); a
   * promise only while a key set is fetched. Never throws: a fault inside verification is a refusal.
   */
  headers(authorization: string | undefined): HeadersVerdict | Promise<HeadersVerdict> {
    try {
      const token = bearerToken(authorization);
      if (token instanceof StepFailed) return refused(token);
      const decoded = decodeToken(token, this.decodeHeaderOf);
      if (decoded instanceof StepFailed) return refused(decoded, { header: this.headerIfDecodable(token) });
      let entries = trustedEntries(decoded.claims, this.byIssuer);
      // A token trusted on its own adds its issuers' entries to those trusted for every token. One signed here is
      // judged by its signer's key set alone: who signed it is known, and another key set naming the same issuer (a
      // second sandbox as an environment) would only be asked for a kid it never holds, spending its request budget.
      const once = this.once.size > 0 ? this.onceToken(token) : undefined;
      const ownIssuers =
        once !== undefined ? this.once.get(token)!.issuers : this.tokens.size > 0 ? this.tokens.get(token) : undefined;
      const own = ownIssuers?.filter((e) => e.issuer === decoded.claims.iss);
      const signedHere = own?.length ? once : undefined;
      if (own?.length) entries = signedHere !== undefined || entries instanceof StepFailed ? own : [...entries, ...own];
      if (entries instanceof StepFailed) return refused(entries, decoded);
      const kid = typeof decoded.header.kid === 'string' ? decoded.header.kid : undefined;
      // Step 3 fetches the signing key by the token's kid (spec): a token that names none is refused there, before
      // any key set is asked, rather than matched to whichever key a set holds alone.
      if (kid === undefined)
        return refused(
          new StepFailed(3, said('the token names no kid, and the signing key is looked up by kid'), entries[0]),
          decoded,
        );
      const keys = signingKeys(entries, kid, this.keySetOf);
      if (keys instanceof Promise) return keys.then((k) => this.keysHold(decoded, kid, k, signedHere)).catch(threw);
      return this.keysHold(decoded, kid, keys, signedHere);
    } catch (err) {
      return threw(err);
    }
  }

  /**
   * Step 6 for a token headers() trusted: the body's digest against its body_sha256 claim. The verdict on the
   * delivery: every check passed, or the refusal.
   */
  body(token: TrustedToken, digest: BodyDigest, spend = true): VerificationResult {
    const { decoded, issuer, kid } = token;
    const r = digestHolds(decoded.claims, digest.sha256, digest.size, issuer, kid);
    if (r instanceof StepFailed) return refused(r, decoded);
    // A token signed here for one delivery is spent by the first that verifies; a copy that verified meanwhile (its
    // headers checked while the token was unspent) finds it spent. `spend` false: a copy the receiver will not
    // accept anyway (another body under that token is still being received) leaves it for the one it holds.
    if (spend && token.signedHere !== undefined && !this.forgetOnce(token.signedHere))
      return refused(
        new StepFailed(2, said('a token signed here for one delivery, already spent by an earlier one'), issuer, kid),
        decoded,
      );
    return { ok: true, checks: this.passedChecks(issuer, kid), header: decoded.header, claims: decoded.claims };
  }

  /** The token itself when it is trusted once and still valid (an expired one is dropped). */
  private onceToken(token: string): string | undefined {
    const e = this.once.get(token);
    if (!e) return undefined;
    if (e.expiresAtS >= Math.floor(this.options.clock.now() / 1000)) return token;
    this.forgetOnce(token);
    return undefined;
  }

  /** Steps 4 and 5 once the keys are known. When the kid's key cached in one key set did not verify, the sets not
   * consulted may hold another key under that kid (two environments naming keys alike): they are asked before a
   * refusal. */
  private keysHold(
    decoded: DecodedToken,
    kid: string | undefined,
    keys: KeyCandidates | StepFailed,
    signedHere?: string,
  ): HeadersVerdict | Promise<HeadersVerdict> {
    const nowS = Math.floor(this.options.clock.now() / 1000);
    let trusted = keys instanceof StepFailed ? keys : signatureHolds(decoded, keys, kid);
    if (!(trusted instanceof StepFailed)) trusted = claimsHold(decoded.claims, trusted, nowS, kid) ?? trusted;
    if (!(trusted instanceof StepFailed)) return new TrustedToken(decoded, trusted, kid, signedHere);
    const failed = trusted;
    if (
      failed.step === 4 &&
      !(keys instanceof StepFailed) &&
      keys.unconsulted &&
      decoded.header.alg === 'RS256' &&
      decoded.header.crit === undefined
    )
      return fetchKeys(keys.unconsulted, kid, this.keySetOf).then((others) => {
        if (!(others instanceof StepFailed)) return this.keysHold(decoded, kid, others, signedHere);
        if (others.retryAfterS === undefined) return refused(failed, decoded);
        const tried = keys
          .map((k) => said("{0}: holds the kid's key, but the signature does not verify with it", k.entry.jwksUrl))
          .reduce((all, t) => said('{0}; {1}', all, t));
        return refused(
          new StepFailed(3, said('{0}; {1}', tried, others.said), others.issuer, kid, others.retryAfterS),
          decoded,
        );
      });
    return refused(failed, decoded);
  }

  /** The seven passed checks for an issuer and kid: their details name nothing that varies per delivery (the
   * claims and body size are in the record), so one frozen list serves every delivery signed with that key. */
  private passedChecks(issuer: TrustedIssuer, kid: string | undefined): readonly VerificationCheck[] {
    const k = `${issuer.issuer}\n${issuer.jwksUrl}\n${kid ?? ''}`;
    let list = this.passes.get(k);
    if (!list) {
      list = Object.freeze(Array.from({ length: 7 }, (_, i) => passedCheck(i + 1, issuer, kid)));
      if (this.passes.size >= MAX_CACHED) this.passes.clear();
      this.passes.set(k, list);
    }
    return list;
  }

  /** For display when the claims could not be decoded: the header, if it could. */
  private headerIfDecodable(token: string): ProtectedHeaderParameters | undefined {
    try {
      return this.decodeHeader(token.slice(0, token.indexOf('.')));
    } catch {
      return undefined;
    }
  }

  /** Protected headers repeat (one per issuer and key): each distinct one is decoded once and shared, frozen. */
  private decodeHeader(segment: string): ProtectedHeaderParameters {
    let header = this.decodedHeaders.get(segment);
    if (!header) {
      header = Object.freeze(decodeSegment(segment, 'header')) as ProtectedHeaderParameters;
      if (this.decodedHeaders.size >= MAX_CACHED) this.decodedHeaders.clear();
      this.decodedHeaders.set(segment, header);
    }
    return header;
  }
}

/** A token through steps 1 to 5: its signature verifies with a key of `issuer`'s key set, and its claims hold for
 * that entry. Its body is not trusted until Verifier.body() checks step 6. */
export class TrustedToken {
  constructor(
    readonly decoded: DecodedToken,
    readonly issuer: TrustedIssuer,
    readonly kid: string | undefined,
    /** The token, when it was trusted once as signed here (Verifier.trustToken with `once`). */
    readonly signedHere: string | undefined = undefined,
  ) {}
}

/** Distinct headers or (issuer, kid) pairs remembered; a flood of made-up ones only resets the cache. */
const MAX_CACHED = 64;

interface OnceToken {
  issuers: TrustedIssuer[];
  /** Seconds since the epoch after which step 5 refuses it anyway: its exp plus the tolerance. */
  expiresAtS: number;
  bytes: number;
}

/** Tokens signed here and not yet spent: an audit signs about 40, an edit one; past these the oldest are dropped. */
const MAX_ONCE_TOKENS = 256;
const MAX_ONCE_BYTES = 1024 * 1024;
/** A token without a numeric exp is refused at step 5; it is kept no longer than a genuine token lives. */
const NO_EXP_TTL_S = 600;
/** The least time a token signed here is kept: long enough for the delivery it was signed for. */
const MIN_ONCE_S = 60;

/** When a token trusted once stops mattering: its exp plus the tolerance step 5 allows, read without trusting it. */
function tokenExpiry(token: string, nowS: number): number {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    if (typeof claims.exp === 'number' && Number.isFinite(claims.exp)) return claims.exp + TOLERANCE_S;
  } catch {
    // Not decodable: step 2 refuses it; it is kept as a token without exp would be.
  }
  return nowS + NO_EXP_TTL_S;
}

/** The bytes a token trusted once holds: its characters and its issuers' strings. */
function tokenBytes(token: string, issuers: readonly TrustedIssuer[]): number {
  return issuers.reduce((n, i) => n + i.issuer.length + i.jwksUrl.length + i.audience.length, token.length);
}

/** A refusal: its own list of checks (a pass shares one frozen list), and what was decoded, for display. Nothing
 * decided (a key set that could not be consulted) is answered 503 with Retry-After, and step 7 says so. */
function refused(
  f: StepFailed,
  seen?: { header?: ProtectedHeaderParameters; claims?: JWTPayload },
): VerificationResult {
  const checks = refusedChecks(f);
  if (f.retryAfterS !== undefined) {
    checks[checks.length - 1] = check(
      7,
      false,
      said(
        'not decided: answered 503 with Retry-After {0} s, because step {1} ({2}) could not consult the key set; the service sends the delivery again',
        f.retryAfterS,
        f.step,
        STEP_SAID[f.step - 1]!,
      ),
    );
  }
  return { ok: false, checks, header: seen?.header, claims: seen?.claims, retryAfterS: f.retryAfterS };
}

/** A fault inside verification (a key the crypto library rejects, say): a refusal, never a crash of the host. */
function threw(err: unknown): VerificationResult {
  return {
    ok: false,
    checks: [check(7, false, said('refused with 403: {0}', saidOf(err)))],
  };
}
