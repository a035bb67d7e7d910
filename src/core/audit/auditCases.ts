// The receiver audit's cases: one genuine delivery, then each a single violation of one rule of the spec's
// receiver checks (Authentication 6) or of its Events section. Each says what it probes, why the expected
// answer is right, and how to fix a receiver that gets it wrong.
import { createHmac, randomUUID } from 'node:crypto';
import { english, said, type Said } from '../presentation/said';
import {
  b64url,
  decoyRequests,
  foreignToken,
  genuineClaims,
  headers,
  hs256WithPublicKey,
  keySetRequests,
  malformed,
  probeBody,
  sandboxPublicKey,
  sandboxToken,
  simple,
  type AuditContext,
  type ProbeRequest,
} from './auditRequests';

export { forgedDelivery, genuineDelivery, probeBody, type AuditContext } from './auditRequests';

/** What a person reads of a case, for a face that words it in the user's language (the extension, through
 * vscode.l10n); the case's string fields of the same names are their English. */
interface AuditCaseWords {
  title: Said;
  rule: Said;
  why: Said;
  fix: Said;
}

export interface AuditCase {
  id: string;
  title: string;
  /** The rule probed, in the spec's words. */
  rule: string;
  /** Why the expected answer is the right one. */
  why: string;
  expectStatus: 200 | 403;
  /** The token's kid is not in the key set the receiver holds: a 503 with Retry-After passes as well as a 403. A
   * receiver that limits its key-set requests cannot tell such a kid from a key rotated in since its last fetch
   * until it may fetch again; answering "not now" accepts nothing and loses no genuine delivery. */
  kidNotHeld?: true;
  build(ctx: AuditContext): Promise<ProbeRequest>;
  /** Observed side effects to compare (e.g. key-set requests): before the request and after. */
  watch?: (ctx: AuditContext) => Promise<number>;
  /** Given the watched value before and after, a failure reason or undefined. */
  judgeWatch?: (before: number, after: number) => Said | undefined;
  before?: (ctx: AuditContext) => Promise<void>;
  after?: (ctx: AuditContext) => Promise<void>;
  /** One paragraph: how to fix a receiver that fails this case. */
  fix: string;
  said: AuditCaseWords;
}

/** A case as written below: its words as Saids, their English derived once (AUDIT_CASES). */
type CaseSpec = Omit<AuditCase, keyof AuditCaseWords | 'said'> & AuditCaseWords;

const CASES: CaseSpec[] = [
  {
    id: 'genuine',
    title: said('A genuine delivery'),
    rule: said('Receiver responses: 200 after successful processing.'),
    why: said(
      'Every check passes: a correct receiver processes it and answers 200. If this fails, check the receiver trusts the sandbox issuer, audience and key-set address shown with the results.',
    ),
    expectStatus: 200,
    async build(ctx) {
      const g = probeBody('genuine', ctx.nowS());
      ctx.genuine = g;
      return { body: g.body, headers: headers(g.webhookId, `Bearer ${await sandboxToken(ctx, g.body)}`) };
    },
    fix: said(
      'Configure the receiver with the issuer, audience and key-set address printed with these results, read the raw body before any JSON middleware, and answer 200 once the event is processed.',
    ),
  },
  {
    id: 'duplicate',
    title: said('The same webhookId again'),
    rule: said('Duplicates: the same event may be delivered more than once; dedupe on webhookId.'),
    why: said(
      'A duplicate is still a genuine delivery: answer 200 (so the service does not resend it) without processing it a second time.',
    ),
    expectStatus: 200,
    async build(ctx) {
      const g = ctx.genuine ?? probeBody('duplicate', ctx.nowS());
      return { body: g.body, headers: headers(g.webhookId, `Bearer ${await sandboxToken(ctx, g.body)}`) };
    },
    fix: said(
      'Keep the webhookIds of processed events (bounded, e.g. the last 10,000 or a day) and answer 200 for one already processed, without processing it again. Record the id only after verification and successful processing.',
    ),
  },
  {
    id: 'no-authorization',
    title: said('No Authorization header'),
    rule: said('Step 1: read the bearer token from the Authorization header. Step 7: on any failure respond 403.'),
    why: said('Without a token nothing proves the service sent it.'),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('no-authorization', ctx.nowS());
      return { body, headers: headers(webhookId) };
    },
    fix: said('Refuse (403) any delivery without an "Authorization: Bearer <JWT>" header before looking at the body.'),
  },
  {
    id: 'not-bearer',
    title: said('A genuine token under another scheme ("Basic")'),
    rule: said('Step 1: the token is a bearer token in the Authorization header.'),
    why: said(
      'Only "Bearer <JWT>" is the form the service sends; taking whatever follows any scheme accepts what the service never sends.',
    ),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('not-bearer', ctx.nowS());
      return { body, headers: headers(webhookId, `Basic ${await sandboxToken(ctx, body)}`) };
    },
    fix: said(
      'Match the header exactly against /^Bearer ([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)$/ and refuse anything else with 403.',
    ),
  },
  {
    id: 'unknown-issuer',
    title: said('An issuer the receiver does not trust'),
    rule: said('Step 2: the issuer must be one you trust, checked before any key is fetched.'),
    why: said(
      'A token from an unknown issuer is refused at once (403). Fetching keys for it lets anyone make the receiver send requests, and with a cold cache it proves the issuer was not checked first; so the audit also watches that no key-set request reaches the sandbox.',
    ),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('unknown-issuer', ctx.nowS());
      return {
        body,
        headers: headers(
          webhookId,
          `Bearer ${await foreignToken(ctx, body, { iss: 'https://unknown-issuer.audit.invalid/webhooks', kid: `unknown-${randomUUID().slice(0, 8)}` })}`,
        ),
      };
    },
    watch: keySetRequests,
    judgeWatch: (b, a) =>
      a > b
        ? said('the receiver fetched the sandbox key set {0} time(s) for a token of an issuer it does not trust', a - b)
        : undefined,
    fix: said(
      'Decode the token without verifying, look its "iss" up in your own map of trusted issuers (issuer → key-set address, audience), and refuse with 403 when it is not there, before any network request.',
    ),
  },
  {
    id: 'alg-none',
    title: said('An unsigned token (alg "none")'),
    rule: said("Step 4: verify the signature with RS256 pinned; never honor the token's own algorithm."),
    why: said('An unsigned token proves nothing; a library that follows the header\'s "alg" accepts it.'),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('alg-none', ctx.nowS());
      const { kid } = await sandboxPublicKey(ctx);
      const token = `${b64url({ alg: 'none', typ: 'JWT', kid })}.${b64url(genuineClaims(ctx, body))}.`;
      return { body, headers: headers(webhookId, `Bearer ${token}`) };
    },
    fix: said(
      'Pin the algorithm: with jose, jwtVerify(token, key, { algorithms: ["RS256"] }); never pass the header\'s alg to the verifier.',
    ),
  },
  {
    id: 'hs256-public-key',
    title: said("HS256, signed with the sandbox's public key as the HMAC secret"),
    rule: said("Step 4: RS256 pinned; never honor the token's own algorithm."),
    why: said(
      'The public key is public: a receiver that lets the header choose HMAC and uses the key bytes as the secret accepts a token anyone can make (algorithm confusion).',
    ),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('hs256-public-key', ctx.nowS());
      const { kid, key } = await sandboxPublicKey(ctx);
      const pem = key.export({ type: 'spki', format: 'pem' }) as string;
      const input = `${b64url({ alg: 'HS256', typ: 'JWT', kid })}.${b64url(genuineClaims(ctx, body))}`;
      const sig = createHmac('sha256', pem).update(input).digest('base64url');
      return { body, headers: headers(webhookId, `Bearer ${input}.${sig}`) };
    },
    fix: said(
      'Verify only with the RSA public key and algorithms: ["RS256"]; never select the algorithm or the key type from the token header.',
    ),
  },
  {
    id: 'rs512',
    title: said('RS512 with the genuine key'),
    rule: said('Step 4: verify the signature with RS256 pinned.'),
    why: said('The signature is valid, but with an algorithm the service does not use: a pinned verifier refuses it.'),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'rs512', {}, { alg: 'RS512' }),
    fix: said('Pass algorithms: ["RS256"] (exactly) to the verifier.'),
  },
  {
    id: 'wrong-audience',
    title: said('A token for another audience'),
    rule: said('Step 5: audience equals the one registered for the issuer.'),
    why: said('A token meant for another receiver must not be accepted by this one.'),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'wrong-audience', { aud: 'someone-else' }),
    fix: said('Check aud against the audience registered for the issuer (jose: jwtVerify(..., { audience })).'),
  },
  {
    id: 'exp-missing',
    title: said('No exp claim'),
    rule: said('Step 5: exp is present and not passed.'),
    why: said(
      'A token without exp never expires: it could be replayed forever. Many libraries accept it unless told exp is required.',
    ),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'exp-missing', { exp: null }),
    fix: said(
      'Require the claim: jose jwtVerify(..., { requiredClaims: ["exp"] }); refuse a token without exp with 403.',
    ),
  },
  {
    id: 'exp-30s-past',
    title: said('exp 30 seconds in the past'),
    rule: said('Step 5: exp not passed, with a clock tolerance of 60 seconds.'),
    why: said('Within the 60-second tolerance: clocks differ, and the token must still be accepted (200).'),
    expectStatus: 200,
    build: (ctx) => simple(ctx, 'exp-30s-past', { iat: ctx.nowS() - 330, exp: ctx.nowS() - 30 }),
    fix: said('Allow 60 seconds of clock tolerance when checking exp (jose: clockTolerance: 60).'),
  },
  {
    id: 'exp-120s-past',
    title: said('exp 120 seconds in the past'),
    rule: said('Step 5: exp not passed, with a clock tolerance of 60 seconds.'),
    why: said('Beyond the tolerance: the token has expired.'),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'exp-120s-past', { iat: ctx.nowS() - 420, exp: ctx.nowS() - 120 }),
    fix: said(
      'Use a clock tolerance of 60 seconds, not more (jose: clockTolerance: 60), and check exp on every token.',
    ),
  },
  {
    id: 'body-hash-missing',
    title: said('No body_sha256 claim'),
    rule: said('Step 6: compare SHA-256 of the raw body with the body_sha256 claim.'),
    why: said('Without the hash the token does not bind the body: any body could ride on a stolen token.'),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'body-hash-missing', { body_sha256: null }),
    fix: said(
      'Require body_sha256 to be 64 lower-case hex characters and compare it with the SHA-256 of the raw body; refuse with 403 when it is absent.',
    ),
  },
  {
    id: 'body-changed',
    title: said('The body changed by one byte'),
    rule: said('Step 6: SHA-256 over the raw request bytes must match body_sha256.'),
    why: said('The token was issued for other bytes: the body was tampered with.'),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('body-changed', ctx.nowS());
      const token = await sandboxToken(ctx, body);
      const changed = Buffer.from(body.toString('utf8').replace('"note":"audit"', '"note":"audiT"'));
      return { body: changed, headers: headers(webhookId, `Bearer ${token}`) };
    },
    fix: said(
      'Hash the raw request bytes and compare with body_sha256 in constant time (crypto.timingSafeEqual); refuse with 403 on a mismatch.',
    ),
  },
  {
    id: 'body-reserialized',
    title: said('The body re-indented, the hash of its compact form'),
    rule: said('Step 6: SHA-256 over the raw request bytes as received (not over re-serialized JSON).'),
    why: said(
      'The bytes that arrived are not the bytes that were signed. A receiver that hashes JSON.stringify(JSON.parse(body)) accepts it: its hash ignores what was actually sent.',
    ),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('body-reserialized', ctx.nowS());
      const token = await sandboxToken(ctx, body);
      return {
        body: Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 2)),
        headers: headers(webhookId, `Bearer ${token}`),
      };
    },
    fix: said(
      'Read the raw body (e.g. express.raw({ type: "application/json" })) and hash those bytes; parse JSON only after the hash matches.',
    ),
  },
  {
    id: 'jku-header',
    title: said('A jku header pointing at another server'),
    rule: said(
      "Step 3: fetch the signing key by kid from the trusted issuer's key set; the key-set address is never taken from the token.",
    ),
    why: said(
      "The token carries its own key-set address (a second loopback server serving the audit's own key). Following it lets anyone sign. A correct receiver looks the kid up in the sandbox key set, does not find it, and refuses, without ever contacting that server.",
    ),
    expectStatus: 403,
    kidNotHeld: true,
    async build(ctx) {
      const { body, webhookId } = probeBody('jku-header', ctx.nowS());
      return {
        body,
        headers: headers(
          webhookId,
          `Bearer ${await foreignToken(ctx, body, { kid: ctx.foreign.kid, header: { jku: ctx.decoy.url } })}`,
        ),
      };
    },
    watch: async (ctx) => ctx.decoy.requests(),
    judgeWatch: (b, a) =>
      a > b ? said('the receiver fetched keys from the jku address in the token ({0} request(s))', a - b) : undefined,
    fix: said(
      'Ignore jku, x5u and jwk in the token header; fetch keys only from the key-set address configured for the trusted issuer.',
    ),
  },
  {
    id: 'foreign-key-known-kid',
    title: said("Signed with a foreign key under the sandbox's kid"),
    rule: said('Step 4: verify the signature.'),
    why: said("The kid is genuine but the signature is not: only the sandbox's private key makes valid signatures."),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('foreign-key-known-kid', ctx.nowS());
      const { kid } = await sandboxPublicKey(ctx);
      return { body, headers: headers(webhookId, `Bearer ${await foreignToken(ctx, body, { kid })}`) };
    },
    fix: said(
      'Verify the signature with the key the kid names in the trusted key set; a decode without verification is not a check.',
    ),
  },
  {
    id: 'key-set-failing',
    title: said('The key-set endpoint failing (unknown kid)'),
    rule: said('Step 7: on any failure respond 403.'),
    why: said(
      'A token with an unknown kid makes the receiver refetch the key set, and the key set answers 503. The receiver cannot tell a forged kid from a key rotated in since its last fetch: a 403 accepts nothing, and so does a 503 with Retry-After, which also loses no genuine delivery (the service resends on 5xx, and a forged token is never accepted on a resend either). A 2xx accepts a delivery nobody verified; a 500 or a 503 without Retry-After is a fault, not a decision.',
    ),
    expectStatus: 403,
    kidNotHeld: true,
    before: (ctx) => ctx.sandbox.failKeySet(20),
    after: (ctx) => ctx.sandbox.clearFaults(),
    async build(ctx) {
      const { body, webhookId } = probeBody('key-set-failing', ctx.nowS());
      return {
        body,
        headers: headers(
          webhookId,
          `Bearer ${await foreignToken(ctx, body, { kid: `rotated-${randomUUID().slice(0, 8)}` })}`,
        ),
      };
    },
    fix: said(
      'Wrap key fetching: when the key set cannot be fetched, answer 503 with Retry-After (nothing is accepted, and the service sends the delivery again) or 403; never let the failure escape as a 500. Keep the last good key set, and limit refetches (the spec suggests at most 5 per minute) so made-up kids cannot spend them.',
    ),
  },
  {
    id: 'jwk-header',
    title: said("A jwk header carrying the signer's own key"),
    rule: said(
      "Step 3: fetch the signing key by kid from the trusted issuer's key set; the key-set address is never taken from the token.",
    ),
    why: said(
      "The token embeds its own public key (the audit's, never in the sandbox key set). A receiver that verifies with the embedded key accepts a token anyone can make.",
    ),
    expectStatus: 403,
    kidNotHeld: true,
    async build(ctx) {
      const { body, webhookId } = probeBody('jwk-header', ctx.nowS());
      return {
        body,
        headers: headers(
          webhookId,
          `Bearer ${await foreignToken(ctx, body, { kid: ctx.foreign.kid, header: { jwk: ctx.foreignJwk } })}`,
        ),
      };
    },
    fix: said(
      'Ignore the jwk header parameter (and jku, x5u, x5c): the key comes only from the key set configured for the trusted issuer.',
    ),
  },
  {
    id: 'x5u-header',
    title: said('An x5u header pointing at another server'),
    rule: said(
      "Step 3: fetch the signing key by kid from the trusted issuer's key set; the key-set address is never taken from the token.",
    ),
    why: said(
      "x5u is a URL for the signer's certificate, here a loopback server holding the audit's own key. Fetching it lets anyone choose the key; the audit also watches that nobody asks that server.",
    ),
    expectStatus: 403,
    kidNotHeld: true,
    async build(ctx) {
      const { body, webhookId } = probeBody('x5u-header', ctx.nowS());
      return {
        body,
        headers: headers(
          webhookId,
          `Bearer ${await foreignToken(ctx, body, { kid: ctx.foreign.kid, header: { x5u: `${ctx.decoy.origin}/x5u.pem` } })}`,
        ),
      };
    },
    watch: decoyRequests,
    judgeWatch: (b, a) =>
      a > b ? said('the receiver fetched the x5u address in the token ({0} request(s))', a - b) : undefined,
    fix: said(
      'Ignore x5u (and x5c, jku, jwk) in the token header; fetch keys only from the key-set address configured for the trusted issuer.',
    ),
  },
  {
    id: 'rs384',
    title: said('RS384 with the genuine key'),
    rule: said('Step 4: verify the signature with RS256 pinned.'),
    why: said(
      'A valid signature with an algorithm the service does not use: a verifier that allows "any RSA" or a list of them accepts it.',
    ),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'rs384', {}, { alg: 'RS384' }),
    fix: said('Pass algorithms: ["RS256"], exactly that one, to the verifier.'),
  },
  {
    id: 'ps256',
    title: said('PS256 (RSA-PSS) with the genuine key'),
    rule: said('Step 4: verify the signature with RS256 pinned.'),
    why: said(
      'RSA-PSS with the same key is a different algorithm: a receiver that allows the PS family accepts what the service never sends.',
    ),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'ps256', {}, { alg: 'PS256' }),
    fix: said(
      'Pass algorithms: ["RS256"], exactly that one, to the verifier; do not derive the algorithm from the key type.',
    ),
  },
  {
    id: 'unknown-issuer-trusted-key',
    title: said('An unknown issuer, signed with the trusted key'),
    rule: said('Step 2: the issuer must be one you trust, checked before any key is fetched.'),
    why: said(
      'Signature and kid are genuine, the issuer is not one this receiver trusts. A receiver that verifies against any key it knows without checking iss accepts tokens its key set signs for others.',
    ),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'unknown-issuer-trusted-key', { iss: 'https://another-tenant.audit.invalid/webhooks' }),
    fix: said(
      'Look "iss" up in your map of trusted issuers first and refuse with 403 when it is not there; then verify with that issuer\'s key set only.',
    ),
  },
  {
    id: 'iss-derived-jwks',
    title: said('An issuer whose own address serves a key set'),
    rule: said(
      "Step 3: fetch the signing key by kid from the trusted issuer's key set; the key-set address is never taken from the token.",
    ),
    why: said(
      "The token's iss is a loopback server that serves the audit's key at <iss>/.well-known/jwks.json. A receiver that builds the key-set address from iss lets the token choose its own key; the audit watches that nobody asks that server.",
    ),
    expectStatus: 403,
    async build(ctx) {
      const { body, webhookId } = probeBody('iss-derived-jwks', ctx.nowS());
      return {
        body,
        headers: headers(
          webhookId,
          `Bearer ${await foreignToken(ctx, body, { iss: ctx.decoy.origin, kid: ctx.foreign.kid })}`,
        ),
      };
    },
    watch: decoyRequests,
    judgeWatch: (b, a) =>
      a > b
        ? said("the receiver fetched a key set from an address built from the token's iss ({0} request(s))", a - b)
        : undefined,
    fix: said(
      "Configure each trusted issuer's key-set address; never build it from the token's iss (not even <iss>/.well-known/jwks.json).",
    ),
  },
  {
    id: 'exp-75s-past',
    title: said('exp 75 seconds in the past'),
    rule: said('Step 5: exp not passed, with a clock tolerance of 60 seconds.'),
    why: said(
      'Beyond the 60-second tolerance by 15 seconds, a margin that a few seconds of clock skew or latency does not use up: a receiver with any looser tolerance (70 s, 90 s, 2 minutes) accepts it, and an expired token with it.',
    ),
    expectStatus: 403,
    build: (ctx) => simple(ctx, 'exp-75s-past', { iat: ctx.nowS() - 375, exp: ctx.nowS() - 75 }),
    fix: said('Use a clock tolerance of exactly 60 seconds (jose: clockTolerance: 60), not more.'),
  },
  {
    id: 'malformed-segments',
    title: said('A Bearer token of three segments that are not base64url JSON'),
    rule: said('Step 1: read the bearer token from the Authorization header. Step 7: on any failure respond 403.'),
    why: said(
      'Anything can arrive in the header. A decoding error is a verification failure: 403. A 5xx tells the service to resend, and shows an unguarded parser.',
    ),
    expectStatus: 403,
    build: async (ctx) => malformed(ctx, 'malformed-segments', 'Bearer not-json.@@@.%%%'),
    fix: said(
      'Wrap decoding and verification so that any error (bad base64url, bad JSON, wrong segment count) becomes a 403, never a 500.',
    ),
  },
  {
    id: 'truncated-token',
    title: said('A truncated token (its header only)'),
    rule: said('Step 1: read the bearer token from the Authorization header. Step 7: on any failure respond 403.'),
    why: said('A token cut short is not a JWT: refuse it with 403 like any other failure.'),
    expectStatus: 403,
    build: async (ctx) => malformed(ctx, 'truncated-token', `Bearer ${b64url({ alg: 'RS256', typ: 'JWT' })}`),
    fix: said('Refuse with 403 a token that does not have three dot-separated segments; catch every decoding error.'),
  },
  {
    id: 'empty-bearer',
    title: said('An empty Bearer token ("Bearer" and nothing after it)'),
    rule: said('Step 1: read the bearer token from the Authorization header. Step 7: on any failure respond 403.'),
    why: said(
      'A scheme with no token (HTTP drops the trailing space, so "Bearer " arrives as "Bearer") carries nothing to verify: 403.',
    ),
    expectStatus: 403,
    build: async (ctx) => malformed(ctx, 'empty-bearer', 'Bearer'),
    fix: said('Refuse with 403 an Authorization header whose token is empty; do not index into a missing token.'),
  },
  {
    id: 'hs256-pkcs1-pem',
    title: said('HS256, signed with the public key as a PKCS#1 PEM'),
    rule: said("Step 4: RS256 pinned; never honor the token's own algorithm."),
    why: said(
      'Algorithm confusion with another encoding of the same public key ("BEGIN RSA PUBLIC KEY"): a receiver that lets the header choose HMAC accepts it.',
    ),
    expectStatus: 403,
    build: (ctx) =>
      hs256WithPublicKey(ctx, 'hs256-pkcs1-pem', (key) => key.export({ type: 'pkcs1', format: 'pem' }) as string),
    fix: said(
      'Verify only with the RSA key and algorithms: ["RS256"]; never let the header select HMAC, whatever form the key is kept in.',
    ),
  },
  {
    id: 'hs256-jwk-modulus',
    title: said("HS256, signed with the key set's modulus (n) as the secret"),
    rule: said("Step 4: RS256 pinned; never honor the token's own algorithm."),
    why: said(
      'Algorithm confusion with the JWK\'s own "n" string as the HMAC secret: anyone can read it from the key set.',
    ),
    expectStatus: 403,
    build: (ctx) => hs256WithPublicKey(ctx, 'hs256-jwk-modulus', (_key, jwk) => jwk.n as string),
    fix: said('Verify only with the RSA key and algorithms: ["RS256"]; never let the header select HMAC.'),
  },
];

/** The cases with their English beside their words: the CLI, the reports and the MCP tools read the English. */
export const AUDIT_CASES: AuditCase[] = CASES.map((c) => ({
  ...c,
  title: english(c.title),
  rule: english(c.rule),
  why: english(c.why),
  fix: english(c.fix),
  said: { title: c.title, rule: c.rule, why: c.why, fix: c.fix },
}));
