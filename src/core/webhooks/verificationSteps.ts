// The seven verification steps (spec: Authentication 6) as functions, composed in order by Verifier.headers (1 to 5)
// and Verifier.body (6). Each returns what the next step needs, or a StepFailed naming its step and why. The answer
// (step 7) is the receiver's: it records what it answered (see answeredChecks).
import { verify as cryptoVerify, type KeyObject } from 'node:crypto';
import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import {
  english,
  englishWording,
  isSaid,
  said,
  saidOf,
  worded,
  type Said,
  type SaidValue,
  type Wording,
} from '../presentation/said';
import { KeySetUnavailable, type JwksCache } from './JwksCache';

export interface TrustedIssuer {
  issuer: string;
  jwksUrl: string;
  audience: string;
}

export interface VerificationCheck {
  step: number;
  name: string;
  ok: boolean;
  /** What the step found, in English (the CLI's, the MCP tools', the JSON's). */
  detail: string;
  /** The same, for a face that words it in the user's language; absent in records written before it was kept. */
  said?: Said;
}

/** The seven steps' names, for a face that words them in the user's language. */
export const STEP_SAID = [
  said('bearer token'),
  said('trusted issuer'),
  said('signing key'),
  said('signature (RS256)'),
  said('claims (iss, aud, exp)'),
  said('body hash'),
  said('decision'),
] as const;

export const STEP_NAMES = STEP_SAID.map(english);

export const TOLERANCE_S = 60;

/** A step that did not pass; the trust entry and kid met so far name the passed steps before it. */
export class StepFailed {
  constructor(
    readonly step: number,
    readonly said: Said,
    readonly issuer?: TrustedIssuer,
    readonly kid?: string,
    /** Set when nothing was decided (step 3 could not consult a key set): the delivery is answered 503 with this
     * Retry-After, so the service sends it again, rather than refused. */
    readonly retryAfterS?: number,
  ) {}

  /** What failed, in English. */
  get detail(): string {
    return english(this.said);
  }
}

export interface DecodedToken {
  header: ProtectedHeaderParameters;
  claims: JWTPayload;
  /** "header.payload": what the signature covers (RFC 7515). */
  signingInput: string;
  /** As sent: canonical base64url, so it spells its bytes one way only (decodeToken refuses any other spelling). */
  signature: string;
  signatureBytes: Buffer;
}

export interface KeyCandidate {
  entry: TrustedIssuer;
  key: KeyObject;
}

/** The keys found for a kid; from the caches alone, the entries whose key set was not consulted (it did not hold
 * the kid's key cached): should no candidate's signature verify, those are consulted before a refusal. */
export type KeyCandidates = KeyCandidate[] & { unconsulted?: readonly TrustedIssuer[] };

const SCHEME = 'Bearer ';

/** 1. The bearer token of the Authorization header: the scheme, then three segments joined by dots. Their characters
 * are checked by step 2 as it decodes each (only canonical base64url passes), so the token is read once. */
export function bearerToken(authorization: string | undefined): string | StepFailed {
  if (!authorization) return new StepFailed(1, said('no Authorization header'));
  const dot1 = authorization.indexOf('.', SCHEME.length);
  const dot2 = dot1 < 0 ? -1 : authorization.indexOf('.', dot1 + 1);
  if (
    !authorization.startsWith(SCHEME) ||
    dot1 <= SCHEME.length ||
    dot2 < 0 ||
    authorization.indexOf('.', dot2 + 1) >= 0
  )
    return new StepFailed(
      1,
      // The sender chose the scheme: quoted, so a reader (a person, a model) sees where their text starts and ends.
      said(
        'Authorization is not of the form "Bearer <JWT>" (scheme: {0})',
        JSON.stringify(authorization.split(' ')[0].slice(0, 20)),
      ),
    );
  return authorization.slice(SCHEME.length);
}

/** 2a. The token's two JSON segments, decoded without a library; nothing in them is trusted yet. */
export function decodeToken(
  token: string,
  decodeHeader: (segment: string) => ProtectedHeaderParameters,
): DecodedToken | StepFailed {
  const dot1 = token.indexOf('.');
  // Step 1 found exactly two dots: the second is the last.
  const dot = token.indexOf('.', dot1 + 1);
  try {
    const header = decodeHeader(token.slice(0, dot1));
    const claims = decodeSegment(token.slice(dot1 + 1, dot), 'claims') as JWTPayload;
    const signature = token.slice(dot + 1);
    return {
      header,
      claims,
      signingInput: token.slice(0, dot),
      signature,
      signatureBytes: canonicalBase64url(signature, 'signature'),
    };
  } catch (err) {
    return new StepFailed(2, said('the token cannot be decoded: {0}', saidOf(err)));
  }
}

/** 2b. The issuer in our own map, before any network request. Nothing in the token (jku, x5u, jwk) names keys. */
export function trustedEntries(
  claims: JWTPayload,
  byIssuer: ReadonlyMap<string, TrustedIssuer[]>,
): TrustedIssuer[] | StepFailed {
  const iss = claims.iss;
  const entries = typeof iss === 'string' ? byIssuer.get(iss) : undefined;
  return (
    entries ??
    new StepFailed(2, said('issuer {0} is not trusted; no key-set request was made', JSON.stringify(iss ?? null)))
  );
}

/** 3. The signing key by kid, from the key sets configured for the issuer, each on its own: a kid one set holds
 * cached is used without consulting the others (they are consulted only if its signature does not verify).
 * Synchronous while a cache holds the key (the hot path allocates no promise); a cache that must fetch makes it
 * asynchronous. */
export function signingKeys(
  entries: readonly TrustedIssuer[],
  kid: string | undefined,
  cacheFor: (e: TrustedIssuer) => JwksCache,
): KeyCandidates | StepFailed | Promise<KeyCandidates | StepFailed> {
  return cachedSigningKeys(entries, kid, cacheFor) ?? fetchKeys(entries, kid, cacheFor);
}

/** 3, from the caches alone: the keys of the key sets holding the kid's cached, with the entries not consulted;
 * undefined when none does. */
function cachedSigningKeys(
  entries: readonly TrustedIssuer[],
  kid: string | undefined,
  cacheFor: (e: TrustedIssuer) => JwksCache,
): KeyCandidates | undefined {
  // One entry (nearly every receiver): no list of the others to build.
  if (entries.length === 1) {
    const key = cacheFor(entries[0]!).cachedKey(kid);
    return key ? [{ entry: entries[0]!, key }] : undefined;
  }
  let candidates: KeyCandidates | undefined;
  let unconsulted: TrustedIssuer[] | undefined;
  for (let i = 0; i < entries.length; i++) {
    const key = cacheFor(entries[i]!).cachedKey(kid);
    if (key) (candidates ??= []).push({ entry: entries[i]!, key });
    else (unconsulted ??= []).push(entries[i]!);
  }
  if (candidates && unconsulted) candidates.unconsulted = unconsulted;
  return candidates;
}

/** 3, asking each key set (fetching as its cache needs): the keys found, or a refusal naming every key set asked
 * and what it said. While a key set that might hold the key could not be consulted, nothing is decided: the
 * StepFailed carries a Retry-After (the longest of theirs, so every one can be asked by then). */
export async function fetchKeys(
  entries: readonly TrustedIssuer[],
  kid: string | undefined,
  cacheFor: (e: TrustedIssuer) => JwksCache,
): Promise<KeyCandidates | StepFailed> {
  const answers = await Promise.all(
    entries.map((entry) =>
      cacheFor(entry)
        .getKey(kid)
        .then(
          (key) => ({ entry, key }),
          (err: Error) => ({ entry, err }),
        ),
    ),
  );
  const candidates: KeyCandidates = [];
  const misses: Said[] = [];
  let retryAfterMs: number | undefined;
  for (const a of answers) {
    if ('key' in a) candidates.push(a);
    else {
      misses.push(said('{0}: {1}', a.entry.jwksUrl, saidOf(a.err)));
      if (a.err instanceof KeySetUnavailable) retryAfterMs = Math.max(retryAfterMs ?? 0, a.err.retryAfterMs);
    }
  }
  if (candidates.length > 0) return candidates;
  return new StepFailed(
    3,
    misses.reduce((all, m) => said('{0}; {1}', all, m)),
    entries[0],
    kid,
    retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
  );
}

/** 4. RS256 pinned (the token's own alg is never honoured), then the signature. With several key sets holding
 * the kid (two sandboxes), each key is tried: the one that verifies decides, and among entries sharing it, the one
 * whose audience the token names. Checked on the event loop: handing it to libuv's thread pool costs more CPU than
 * the check it moves, for no throughput. */
export function signatureHolds(
  token: DecodedToken,
  candidates: readonly KeyCandidate[],
  kid: string | undefined,
): TrustedIssuer | StepFailed {
  let trusted = candidates[0]!.entry;
  const { header, claims } = token;
  if (header.alg !== 'RS256')
    return new StepFailed(4, said('alg {0} refused: only RS256 is accepted', JSON.stringify(header.alg)), trusted, kid);
  if (header.crit !== undefined)
    return new StepFailed(
      4,
      said('critical header parameters {0} are not supported', JSON.stringify(header.crit)),
      trusted,
      kid,
    );
  const signature = token.signatureBytes;
  if (signature.length === 0)
    return new StepFailed(4, said('signature does not verify: the signature is empty'), trusted, kid);
  const input = Buffer.from(token.signingInput, 'latin1');
  try {
    // One key set holds the kid (every receiver but one trusting two sandboxes): nothing to choose between.
    if (candidates.length === 1)
      return cryptoVerify('RSA-SHA256', input, candidates[0]!.key, signature)
        ? trusted
        : new StepFailed(4, said('signature does not verify: signature verification failed'), trusted, kid);
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i]!;
      // Two entries may share one key (one key set named twice): it is checked once.
      if (candidates.findIndex((o) => o.key === c.key) < i) continue;
      if (!cryptoVerify('RSA-SHA256', input, c.key, signature)) continue;
      const aud = claims.aud;
      const sharing = candidates.filter((o) => o.key === c.key).map((o) => o.entry);
      trusted = sharing.find((e) => aud === e.audience || (Array.isArray(aud) && aud.includes(e.audience))) ?? c.entry;
      return trusted;
    }
  } catch (err) {
    return new StepFailed(4, said('signature does not verify: {0}', (err as Error).message), trusted, kid);
  }
  return new StepFailed(
    4,
    candidates.length > 1
      ? said(
          'signature does not verify: signature verification failed with the key "{0}" of any of {1} key sets',
          String(kid),
          candidates.length,
        )
      : said('signature does not verify: signature verification failed'),
    trusted,
    kid,
  );
}

function clockText(nowS: number): string {
  return `${new Date(nowS * 1000).toISOString().slice(0, 19)}Z`;
}

/** 5. iss (matched in step 2), aud, exp (required), with a 60 s tolerance. */
export function claimsHold(
  claims: JWTPayload,
  trusted: TrustedIssuer,
  nowS: number,
  kid: string | undefined,
): StepFailed | undefined {
  const aud = claims.aud;
  if (!(aud === trusted.audience || (Array.isArray(aud) && aud.includes(trusted.audience))))
    return new StepFailed(
      5,
      said(
        'audience {0} is not the one registered for {1} with the key set {2} ({3})',
        JSON.stringify(aud ?? null),
        trusted.issuer,
        trusted.jwksUrl,
        trusted.audience,
      ),
      trusted,
      kid,
    );
  const exp = claims.exp;
  if (exp === undefined) return new StepFailed(5, said('exp is missing; it is required'), trusted, kid);
  if (typeof exp !== 'number' || !Number.isFinite(exp))
    return new StepFailed(5, said('{0} is not a number ({1})', 'exp', JSON.stringify(exp)), trusted, kid);
  // Every genuine delivery failing here by about the same amount is this machine's clock, not the sender: the
  // detail says which time it went by.
  if (nowS > exp + TOLERANCE_S)
    return new StepFailed(
      5,
      said(
        "expired {0} s ago by this machine's clock ({1}; tolerance {2} s): a replayed or held-up delivery, or a clock that is off",
        nowS - exp,
        clockText(nowS),
        TOLERANCE_S,
      ),
      trusted,
      kid,
    );
  const nbf = claims.nbf;
  for (const name of ['nbf', 'iat'] as const) {
    const v = claims[name];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
      return new StepFailed(5, said('{0} is not a number ({1})', name, JSON.stringify(v)), trusted, kid);
  }
  if (typeof nbf === 'number' && nowS < nbf - TOLERANCE_S)
    return new StepFailed(
      5,
      said(
        "not valid before {0}, {1} s from now by this machine's clock ({2}): a clock that is off, here or at the sender",
        nbf,
        nbf - nowS,
        clockText(nowS),
      ),
      trusted,
      kid,
    );
  return undefined;
}

/** 6. The body's SHA-256 (hex, as the receiver computed it over the raw bytes received) against the body_sha256
 * claim, compared in constant time. The hash, when it matches. */
export function digestHolds(
  claims: JWTPayload,
  sha256: string,
  size: number,
  trusted: TrustedIssuer,
  kid: string | undefined,
): string | StepFailed {
  const claimed = claims.body_sha256;
  const differs = typeof claimed === 'string' ? hexDifference(claimed, sha256) : -1;
  if (differs < 0)
    return new StepFailed(
      6,
      claimed === undefined ? said('body_sha256 is missing') : said('body_sha256 is not 64 lower-case hex digits'),
      trusted,
      kid,
    );
  if (differs === 0) return sha256;
  return new StepFailed(
    6,
    said('body_sha256 does not match the {0} bytes received (got {1}…)', size, sha256.slice(0, 12)),
    trusted,
    kid,
  );
}

/** -1 when claimed is not 64 lower-case hex digits; else 0 when it equals sha256 (64 lower-case hex digits, as
 * computed), another number when not. Every character is compared, whatever the first difference: constant time, as
 * timingSafeEqual, without decoding either string into a buffer. */
function hexDifference(claimed: string, sha256: string): number {
  if (claimed.length !== 64) return -1;
  let invalid = 0;
  let difference = sha256.length === 64 ? 0 : 1;
  for (let i = 0; i < 64; i++) {
    const c = claimed.charCodeAt(i);
    invalid |= c < 48 || c > 102 || (c > 57 && c < 97) ? 1 : 0;
    difference |= c ^ sha256.charCodeAt(i);
  }
  return invalid ? -1 : difference;
}

/** What a passed step says: constant for a given issuer and kid, so one frozen list serves every delivery signed
 * with that key. Step 7 says what the receiver answers a verified delivery by default. It keeps no Said: every
 * verified delivery holds and writes these, and passedSaidOf reads the words back from the English. */
export function passedCheck(
  step: number,
  issuer: TrustedIssuer | undefined,
  kid: string | undefined,
): VerificationCheck {
  const detail = english(passedSaid(step, String(issuer?.issuer), kid, String(issuer?.jwksUrl)));
  return Object.freeze({ step, name: STEP_NAMES[step - 1]!, ok: true, detail });
}

function passedSaid(step: number, issuer: string, kid: string | undefined, jwksUrl: string): Said {
  switch (step) {
    case 1:
      return said('Bearer token present');
    case 2:
      return said('issuer {0} is trusted', issuer);
    case 3:
      return kid === undefined
        ? said('key (no kid) found in {0}', jwksUrl)
        : said('key {0} found in {1}', kid, jwksUrl);
    case 4:
      return said('RS256 signature verifies');
    case 5:
      return said('iss and aud match; exp not passed (tolerance {0} s)', TOLERANCE_S);
    case 6:
      return said('SHA-256 of the raw body matches body_sha256');
    default:
      return said('verified: answered {0}', 200);
  }
}

/** A passed check's Said, read back from its English: each step's message (both of step 3's) as a pattern whose
 * placeholders take any text. Undefined when the detail is not one of them (a record of an older version). */
function passedSaidOf(c: VerificationCheck): Said | undefined {
  const shapes =
    c.step === 3 ? [passedSaid(3, '', undefined, ''), passedSaid(3, '', 'k', '')] : [passedSaid(c.step, '', 'k', '')];
  for (const { message } of shapes) {
    const pattern = message
      .split(/\{\d+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('(.*)');
    const m = new RegExp(`^${pattern}$`, 's').exec(c.detail);
    if (m) return { message, values: m.slice(1) };
  }
  return undefined;
}

/** A check with its words in English and as said. */
export function check(step: number, ok: boolean, what: Said): VerificationCheck {
  return { step, name: STEP_NAMES[step - 1]!, ok, detail: english(what), said: what };
}

/** The checks of a refusal: the steps before the failed one passed, then the failure, then the decision. */
export function refusedChecks(f: StepFailed): VerificationCheck[] {
  const checks: VerificationCheck[] = [];
  for (let step = 1; step < f.step; step++) checks.push(passedCheck(step, f.issuer, f.kid));
  checks.push(check(f.step, false, f.said));
  checks.push(check(7, false, said('refused with 403: step {0} ({1}) failed', f.step, STEP_SAID[f.step - 1]!)));
  return checks;
}

/** 7. The decision as answered: a verified delivery answered otherwise than 200 (a body that is not JSON, an
 * override, the forward target's status, a history that cannot be written) records that answer. */
export function answeredChecks(
  checks: readonly VerificationCheck[],
  status: number,
  text: SaidValue,
): VerificationCheck[] {
  const shown = typeof text === 'string' ? text.trim() : text;
  return checks.map((c) =>
    c.step === 7 && c.ok
      ? check(
          7,
          true,
          shown ? said('verified: answered {0} ({1})', status, shown) : said('verified: answered {0}', status),
        )
      : c,
  );
}

export function decodeSegment(segment: string, what: string): Record<string, unknown> {
  const text = canonicalBase64url(segment, what).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's own message repeats a piece of the sender's text, unquoted: the detail names the fault alone.
    throw new Error(`the ${what} segment is not JSON`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`the ${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** A segment's bytes, when it is canonical base64url: Node's decoder also takes other spellings of the same bytes
 * (the unused low bits of the last character: 16 spellings of one RS256 signature; '+' and '/'; padding and other
 * characters, which it skips), so one token could pass as several. Only the one spelling of its bytes is accepted.
 * Checked without encoding the bytes again: a skipped character leaves fewer bytes than the length promises. */
function canonicalBase64url(segment: string, what: string): Buffer {
  const bytes = Buffer.from(segment, 'base64url');
  const n = segment.length;
  const rest = n & 3;
  const last = n === 0 ? 0 : (BASE64URL_VALUES[segment.charCodeAt(n - 1)] ?? -1);
  if (
    bytes.length !== (n * 3) >> 2 ||
    rest === 1 ||
    last < 0 ||
    // The bits past the last whole byte must be zero: 4 of them after 2 characters of a group, 2 after 3.
    (rest !== 0 && (last & (rest === 2 ? 15 : 3)) !== 0) ||
    segment.indexOf('+') >= 0 ||
    segment.indexOf('/') >= 0
  )
    throw new Error(`the ${what} segment is not canonical base64url (RFC 7515 §2: no padding, no stray bits)`);
  return bytes;
}

/** Each character's value in the base64url alphabet, -1 for a character outside it. */
const BASE64URL_VALUES = (() => {
  const values = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  return values;
})();

/** A check's name and what it found, in a face's words. A passed check's words are read back from its English; a
 * failed check written before checks kept their Said (or one read from a file that is not ours) shows its English. */
export function checkWorded(c: VerificationCheck, wording: Wording = englishWording): { name: string; detail: string } {
  const step = STEP_SAID[c.step - 1];
  const what = isSaid(c.said) ? c.said : c.ok ? passedSaidOf(c) : undefined;
  return { name: step ? worded(step, wording) : c.name, detail: what ? worded(what, wording) : c.detail };
}
