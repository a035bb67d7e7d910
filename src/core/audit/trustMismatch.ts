// A delivery refused because the receiver does not trust the key that signed it. The audit stops on it before its
// attack cases (their refusals would say nothing), and `wfs send` says it on a refusal at a step that trust
// decides. Each surface adds how to make them match in its own words (a flag, a setting); the facts are said here,
// as Saids (the extension words them through vscode.l10n) and in English (the CLI, the MCP tools, the reports).
import { english, said, type Said, type SaidValue } from '../presentation/said';

/** What signed a delivery: the issuer and audience in its claims, the key set that holds its key, the key's kid. */
export interface SigningKey {
  issuer: string;
  audience: string;
  jwksUrl: string;
  kid?: string;
}

/** What a receiver answered a delivery signed with `signedWith`, when it refused it. */
export interface TrustMismatch {
  signedWith: SigningKey;
  status: number;
  /** The receiver's refusal text (its first line, bounded), when it gave one. */
  said?: string;
  /** The step of the seven the receiver says it refused at, when it names one. */
  step?: number;
  retryAfter?: string;
  /** True when the refusal is about trust (the issuer, its key set, the key, the audience) or says nothing about
   * why; false when the receiver names another step (its own fault, e.g. a body hashed after a JSON parser). */
  trust: boolean;
}

/** The step a receiver says it refused at, from its answer's body ("… step 3 …"), if it says one. */
export function answeredStep(body: string | undefined): number | undefined {
  const m = /\bstep (\d)\b/i.exec(body ?? '');
  return m ? Number(m[1]) : undefined;
}

/** Steps that fail when the receiver does not trust the signer: the issuer, the key set's key, the signature with
 * that key, the audience. */
const TRUST_STEPS: ReadonlySet<number> = new Set([2, 3, 4, 5]);

const SAID_CHARS = 200;

/** The answer's first line, bounded; undefined when empty. */
function firstLine(body: string | undefined): string | undefined {
  const line = body?.trim().split('\n')[0]?.trim().slice(0, SAID_CHARS);
  return line || undefined;
}

/** The refusal of a delivery signed with `signedWith`, or undefined when the answer is not a refusal (2xx). */
export function refusalOf(
  signedWith: SigningKey,
  answer: { status: number; body?: string; retryAfter?: string },
): TrustMismatch | undefined {
  if (answer.status >= 200 && answer.status < 300) return undefined;
  const step = answeredStep(answer.body);
  return {
    signedWith,
    status: answer.status,
    ...(firstLine(answer.body) ? { said: firstLine(answer.body) } : {}),
    ...(step !== undefined ? { step } : {}),
    ...(answer.retryAfter ? { retryAfter: answer.retryAfter } : {}),
    trust: isTrustRefusal(answer.status, step, answer.retryAfter),
  };
}

/** The statuses that say nothing takes webhooks at the address (no such path, no POST there, not this host): a typo
 * in the address, never a matter of trust. */
const NOT_SERVED = new Set([404, 405, 421]);

/** Whether a refusal of the genuine delivery says nothing takes webhooks at that address. */
export function notServedThere(m: { status: number }): boolean {
  return NOT_SERVED.has(m.status);
}

/** A 401 or 403 that names no step or a step trust decides; or a 503 that names such a step or asks to try again
 * later (a receiver whose key set does not give the kid's key, and may not be fetched again yet: `wfs listen` and
 * the extension's receiver answer so). */
function isTrustRefusal(status: number, step: number | undefined, retryAfter?: string): boolean {
  const trustStep = step === undefined || TRUST_STEPS.has(step);
  if (status === 401 || status === 403) return trustStep;
  return status === 503 && trustStep && (step !== undefined || retryAfter !== undefined);
}

/** "issuer I, key set J, kid K (audience A)". */
export function signingKeySaid(k: SigningKey): Said {
  return k.kid
    ? said('issuer {0}, key set {1}, kid {2} (audience {3})', k.issuer, k.jwksUrl, k.kid, k.audience)
    : said('issuer {0}, key set {1} (audience {2})', k.issuer, k.jwksUrl, k.audience);
}

export function signingKeyText(k: SigningKey): string {
  return english(signingKeySaid(k));
}

/** What the receiver answered, in words: "answered 403 ("forbidden: step 3 (signing key) failed")". */
function answerSaid(m: TrustMismatch): Said {
  if (m.said && m.retryAfter) return said('answered {0} ("{1}") with Retry-After {2}', m.status, m.said, m.retryAfter);
  if (m.said) return said('answered {0} ("{1}")', m.status, m.said);
  if (m.retryAfter) return said('answered {0} with no reason with Retry-After {1}', m.status, m.retryAfter);
  return said('answered {0} with no reason', m.status);
}

export function answerText(m: TrustMismatch): string {
  return english(answerSaid(m));
}

/** What the audit sent first, as `refusalSaid`'s `what`. */
export const AUDIT_GENUINE_DELIVERY = said("the audit's genuine delivery");

/** What happened, said once: who refused what, signed with which key. */
export function refusalSaid(m: TrustMismatch, what: SaidValue, receiver: string): Said {
  return said('{0} {1} to {2}, signed with {3}.', receiver, answerSaid(m), what, signingKeySaid(m.signedWith));
}

export function refusalText(m: TrustMismatch, what: string, receiver: string): string {
  return english(refusalSaid(m, what, receiver));
}

/** What a step needs (STEP_ADVICE_SAID), or where to read it when the step is not one of the seven. */
export function stepAdviceSaid(step: number): Said {
  return STEP_ADVICE_SAID[step - 1] ?? said("see the spec's seven steps");
}

/** How to make them match, without a surface's own flags: the receiver's trust, or a key it trusts. For a refusal
 * that names another step, what that step needs instead. */
export function matchAdviceSaid(m: TrustMismatch): Said {
  const k = m.signedWith;
  if (!m.trust && m.step !== undefined)
    return said('The receiver names step {0}, which is not about trust: {1}', m.step, stepAdviceSaid(m.step));
  if (!m.trust)
    return said(
      "A {0} is not how a receiver refuses a key (that is 403): check that the address is the receiver's webhook path, and that it answers 200 once a delivery is processed.",
      m.status,
    );
  return said(
    'The receiver does not trust that key. Make them match: have the receiver trust issuer {0} with key set {1} (audience {2}), or sign with a key it already trusts.',
    k.issuer,
    k.jwksUrl,
    k.audience,
  );
}

export function matchAdvice(m: TrustMismatch): string {
  return english(matchAdviceSaid(m));
}

/** What each step needs, in a sentence: the advice for a refusal at that step. */
const STEP_ADVICE_SAID: readonly Said[] = [
  said('read the token from "Authorization: Bearer <JWT>".'),
  said("check the token's iss against the issuers you trust, before fetching any key."),
  said(
    'look the kid up in the key set configured for that issuer (its address from your configuration, never from the token); with the sandbox, that is its /.well-known/jwks.json.',
  ),
  said('verify the signature with RS256 pinned.'),
  said('check aud against the audience registered for the issuer, and exp with 60 seconds of tolerance.'),
  said('hash the raw request bytes as received (SHA-256) and compare with body_sha256.'),
  said('answer 403 on any failure, 200 once the delivery is processed.'),
];

/** The kid in a token's protected header, undefined when it cannot be read. */
export function kidOf(authorization: string | undefined): string | undefined {
  const token = authorization?.replace(/^Bearer\s+/i, '');
  try {
    const header = JSON.parse(Buffer.from(token?.split('.')[0] ?? '', 'base64url').toString('utf8')) as {
      kid?: unknown;
    };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}
