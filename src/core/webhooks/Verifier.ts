// The receiver's seven verification steps (spec: Authentication 6), composed in order from verificationSteps.ts,
// each recorded with its result so the UI can show exactly which passed and why one failed. JSON is parsed only
// after every step passes.
import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import { isUtf8 } from 'node:buffer';
import type { Clock } from '../time/clock';
import { JwksCache } from './JwksCache';
import {
  bearerToken,
  bodyHashHolds,
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
  STEP_NAMES,
  trustedEntries,
  type DecodedToken,
  type KeyCandidate,
  type KeyCandidates,
  type TrustedIssuer,
  type VerificationCheck,
} from './verificationSteps';

export { STEP_NAMES, VERIFIED_DETAIL, type TrustedIssuer, type VerificationCheck } from './verificationSteps';

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
  /** Whether the raw body is valid UTF-8, when every step passed (checked before parsing it). */
  bodyUtf8?: boolean;
  /** Set when nothing was decided: a key set could not be consulted. The receiver answers 503 with this
   * Retry-After (seconds), so the service sends the delivery again; it is neither verified nor refused. */
  retryAfterS?: number;
}

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
  private readonly headers = new Map<string, ProtectedHeaderParameters>();
  private readonly passes = new Map<string, readonly VerificationCheck[]>();
  private lastPass?: { issuer: TrustedIssuer; kid: string | undefined; list: readonly VerificationCheck[] };
  /** Single tokens trusted beyond the entries, each for its own issuers (Test Public Address's probe, signed by the
   * sandbox while a real environment is in use); every other token of those issuers is refused at step 2. */
  private readonly tokens = new Map<string, TrustedIssuer[]>();
  /** Bound once: check() runs per delivery. */
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
    this.lastPass = undefined;
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

  /** Trusts this one token for these issuers, until the returned function is called. */
  trustToken(token: string, issuers: readonly TrustedIssuer[]): () => void {
    this.tokens.set(token, [...issuers]);
    return () => void this.tokens.delete(token);
  }

  async verify(authorization: string | undefined, rawBody: Buffer): Promise<VerificationResult> {
    return this.check(authorization, rawBody);
  }

  /** verify(), synchronous while the signing key is cached (every delivery but the first of a key): the receiver
   * then answers from the request's own 'end' callback, with no promise in between. */
  check(authorization: string | undefined, rawBody: Buffer): VerificationResult | Promise<VerificationResult> {
    const token = this.begin(authorization);
    return token instanceof TokenToFinish ? this.finish(token, rawBody) : token;
  }

  /** Steps 1 and 2 from the Authorization header alone, before any key or body: a refusal, or the token that
   * finish() takes on. The receiver calls it as the request arrives, so a request no trusted issuer signed never
   * has its body held in memory (it is hashed as it streams by). */
  begin(authorization: string | undefined): VerificationResult | TokenToFinish {
    const token = bearerToken(authorization);
    if (token instanceof StepFailed) return refused(token);
    const decoded = decodeToken(token, this.decodeHeaderOf);
    if (decoded instanceof StepFailed) return refused(decoded, { header: this.headerIfDecodable(token) });
    let entries = trustedEntries(decoded.claims, this.byIssuer);
    // A token trusted on its own adds its issuers' entries to those trusted for every token.
    const own =
      this.tokens.size > 0 ? this.tokens.get(token)?.filter((e) => e.issuer === decoded.claims.iss) : undefined;
    if (own?.length) entries = entries instanceof StepFailed ? own : [...entries, ...own];
    if (entries instanceof StepFailed) return refused(entries, decoded);
    return new TokenToFinish(decoded, entries, typeof decoded.header.kid === 'string' ? decoded.header.kid : undefined);
  }

  /** Steps 3 to 5 before the body. None of them needs it (the signature covers the header and claims), so a token
   * whose signature does not verify (anyone can name a trusted issuer), or that is for another audience or expired,
   * is refused before its body is held: the receiver then hashes that body as it streams by, as for an untrusted
   * issuer. Undefined when they passed: finish() goes on from step 6. Synchronous while the keys are cached; a
   * promise while a key set is fetched, and the receiver leaves the body in the socket until it settles. */
  beforeBody(token: TokenToFinish): VerificationResult | undefined | Promise<VerificationResult | undefined> {
    const keys = signingKeys(token.entries, token.kid, this.keySetOf);
    if (keys instanceof Promise) return keys.then((k) => this.keysBeforeBody(token, k));
    return this.keysBeforeBody(token, keys);
  }

  private keysBeforeBody(
    token: TokenToFinish,
    keys: KeyCandidates | StepFailed,
  ): VerificationResult | undefined | Promise<VerificationResult | undefined> {
    const trusted = keys instanceof StepFailed ? keys : this.keysHold(token.decoded, keys, token.kid);
    // The kid's key cached in one key set did not verify: the sets not consulted may hold another key under that
    // kid (two environments naming keys alike), so they are asked before a refusal.
    if (
      trusted instanceof StepFailed &&
      trusted.step === 4 &&
      !(keys instanceof StepFailed) &&
      keys.unconsulted &&
      token.decoded.header.alg === 'RS256' &&
      token.decoded.header.crit === undefined
    )
      return fetchKeys(keys.unconsulted, token.kid, this.keySetOf).then((others) => {
        if (!(others instanceof StepFailed)) return this.keysBeforeBody(token, others);
        if (others.retryAfterS === undefined) return refused(trusted, token.decoded);
        const tried = keys
          .map((k) => `${k.entry.jwksUrl}: holds the kid's key, but the signature does not verify with it`)
          .join('; ');
        return refused(
          new StepFailed(3, `${tried}; ${others.detail}`, others.issuer, token.kid, undefined, others.retryAfterS),
          token.decoded,
        );
      });
    if (trusted instanceof StepFailed) return refused(trusted, token.decoded);
    token.trusted = trusted;
    return undefined;
  }

  /** Steps 3 to 7 for a token begin() let through, with the whole body: 3 to 5 by beforeBody() unless it took them
   * already, then step 6 on. */
  finish(token: TokenToFinish, rawBody: Buffer): VerificationResult | Promise<VerificationResult> {
    const refusal = token.trusted ? undefined : this.beforeBody(token);
    if (refusal instanceof Promise) return refusal.then((r) => r ?? this.withBody(token, rawBody));
    return refusal ?? this.withBody(token, rawBody);
  }

  /** Step 6 for a body the receiver hashed as it streamed by rather than held (a second body under a token whose
   * first is still being received): its refusal, or undefined when the hash matches the claim. Only for a token
   * whose steps 3 to 5 passed. */
  hashHolds(token: TokenToFinish, body: { size: number; sha256: string }): VerificationResult | undefined {
    const r = digestHolds(token.decoded.claims, Buffer.from(body.sha256, 'hex'), body.size, token.trusted!, token.kid);
    return r instanceof StepFailed ? refused(r, token.decoded) : undefined;
  }

  /** Steps 4 and 5 once the keys are known: the entry the signature and claims are trusted for, or why not. */
  private keysHold(
    decoded: DecodedToken,
    keys: readonly KeyCandidate[],
    kid: string | undefined,
  ): TrustedIssuer | StepFailed {
    const trusted = signatureHolds(decoded, keys, kid);
    if (trusted instanceof StepFailed) return trusted;
    return claimsHold(decoded.claims, trusted, Math.floor(this.options.clock.now() / 1000), kid) ?? trusted;
  }

  /** Step 6 for a token whose steps 3 to 5 passed, then the body parsed. */
  private withBody(token: TokenToFinish, rawBody: Buffer): VerificationResult {
    const { decoded, kid } = token;
    const trusted = token.trusted!;
    const { header, claims } = decoded;
    const bodySha256 = bodyHashHolds(claims, rawBody, trusted, kid);
    if (bodySha256 instanceof StepFailed) return refused(bodySha256, decoded);
    const result: VerificationResult = {
      ok: true,
      checks: this.passedChecks(trusted, kid),
      header,
      claims,
      bodySha256,
    };
    result.bodyUtf8 = isUtf8(rawBody);
    try {
      if (!result.bodyUtf8) throw new Error('the body is not UTF-8');
      result.body = JSON.parse(rawBody.toString('utf8'));
    } catch (err) {
      result.bodyError = `verified, but the body is not JSON: ${(err as Error).message}`;
    }
    return result;
  }

  /** The seven passed checks for an issuer and kid: their details name nothing that varies per delivery (the
   * claims and body size are in the record), so one frozen list serves every delivery signed with that key. */
  private passedChecks(issuer: TrustedIssuer, kid: string | undefined): readonly VerificationCheck[] {
    // Deliveries come signed by one key for long runs: the last list is compared by identity first, which spares
    // building and hashing the key string each time.
    const last = this.lastPass;
    if (last && last.issuer === issuer && last.kid === kid) return last.list;
    const k = `${issuer.issuer}\n${issuer.jwksUrl}\n${kid ?? ''}`;
    let list = this.passes.get(k);
    if (!list) {
      list = Object.freeze(Array.from({ length: 7 }, (_, i) => passedCheck(i + 1, issuer, kid)));
      if (this.passes.size >= MAX_CACHED) this.passes.clear();
      this.passes.set(k, list);
    }
    this.lastPass = { issuer, kid, list };
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
    let header = this.headers.get(segment);
    if (!header) {
      header = Object.freeze(decodeSegment(segment, 'header')) as ProtectedHeaderParameters;
      if (this.headers.size >= MAX_CACHED) this.headers.clear();
      this.headers.set(segment, header);
    }
    return header;
  }
}

/** A token through steps 1 and 2 (a bearer JWT, decoded, naming a trusted issuer): nothing in it is trusted yet. */
export class TokenToFinish {
  /** The trust entry steps 3 to 5 passed for, once beforeBody() took them. */
  trusted?: TrustedIssuer;

  constructor(
    readonly decoded: DecodedToken,
    readonly entries: TrustedIssuer[],
    readonly kid: string | undefined,
  ) {}
}

/** Distinct headers or (issuer, kid) pairs remembered; a flood of made-up ones only resets the cache. */
const MAX_CACHED = 64;

/** A refusal: its own list of checks (a pass shares one frozen list), and what was decoded, for display. Nothing
 * decided (a key set that could not be consulted) is answered 503 with Retry-After, and step 7 says so. */
function refused(
  f: StepFailed,
  seen?: { header?: ProtectedHeaderParameters; claims?: JWTPayload },
): VerificationResult {
  const checks = refusedChecks(f);
  if (f.retryAfterS !== undefined) {
    const last = checks[checks.length - 1]!;
    checks[checks.length - 1] = {
      ...last,
      detail: `not decided: answered 503 with Retry-After ${f.retryAfterS} s, because step ${f.step} (${STEP_NAMES[f.step - 1]}) could not consult the key set; the service sends the delivery again`,
    };
  }
  return {
    ok: false,
    checks,
    header: seen?.header,
    claims: seen?.claims,
    bodySha256: f.bodySha256,
    retryAfterS: f.retryAfterS,
  };
}
