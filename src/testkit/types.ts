// The test kit's own types, as users of `workflow-service-cli/testkit` see them. The published testkit.d.ts is
// rolled up from this source by API Extractor (api-extractor.json); the API report (testkit.api.md) shows every
// change to them in review.
import type { JwksServer } from '../core/signing';
import type { SandboxFaultMark } from '../core/webhooks';

/** A public key in JWK form, as published in a key set. */
export interface Jwk {
  kty: string;
  kid?: string;
  alg?: string;
  use?: string;
  n?: string;
  e?: string;
  [parameter: string]: unknown;
}

export interface Jwks {
  keys: Jwk[];
}

/** Claims a token may carry or a test may remove. */
export type ClaimName = 'iss' | 'aud' | 'exp' | 'iat' | 'jti' | 'body_sha256';

/** How to sign: nothing for a genuine token; each option breaks one thing, for a test that must see it refused. */
export interface TokenOptions {
  /** Seconds from now until the token expires (default 300; negative for a token already expired). */
  expiresIn?: number;
  /** An absolute `exp` (seconds since the epoch); wins over expiresIn. */
  exp?: number;
  /** Another `iat` (seconds since the epoch). */
  iat?: number;
  /** Another audience than the issuer's. */
  audience?: string;
  /** Another `iss` than the issuer's. */
  issuer?: string;
  /** Another `kid` in the header than the current key's (the signature stays the current key's). */
  kid?: string;
  /** Claims left out, e.g. ['body_sha256']. */
  omit?: ClaimName[];
  /** Any other claims, added or replaced. */
  claims?: Record<string, unknown>;
}

/** Bytes and the token that signs exactly them: send `body` with `headers`, unchanged. */
export interface SignedDelivery {
  body: Buffer;
  token: string;
  /** authorization (Bearer …), content-type, and for an event the X-Svc-* headers from its fields. */
  headers: Record<string, string>;
}

export interface TestIssuer {
  readonly issuer: string;
  readonly audience: string;
  /** The current key's kid. */
  readonly kid: string;
  /** The public key set (the current key, and the previous one after a rotation that kept it). */
  jwks(): Jwks;
  /** Signs these exact bytes (a string is taken as UTF-8). */
  sign(body: string | Uint8Array, options?: TokenOptions): Promise<SignedDelivery>;
  /** Serializes the event once (JSON.stringify) and signs those bytes. */
  signEvent(event: object, options?: TokenOptions): Promise<SignedDelivery>;
  /** A new current key; the previous stays in the key set unless keepPrevious is false. Returns the new kid. */
  rotate(options?: { keepPrevious?: boolean }): Promise<string>;
  /** Serves the key set on loopback (port 0: a free one) until stop(). */
  serveJwks(options?: { port?: number; path?: string }): Promise<JwksServer>;
  /** The current private key as a JWK, to hand to code that signs as the issuer. */
  privateJwk(): Promise<Jwk>;
}

export interface TestIssuerOptions {
  /** Default "https://issuer.test.invalid/webhooks". */
  issuer?: string;
  /** Default "test-receiver". */
  audience?: string;
}

/** How the deliveries of a scenario go wrong; each option is one delivery fault of the sandbox. */
export interface ScenarioOptions {
  /** The events, in the order the service made them (e.g. from buildEvent). */
  events: object[];
  /** Signs every delivery. */
  issuer: TestIssuer;
  /** Extra copies (same webhookId, same body), each after the delivery it repeats: 1 to 10. */
  duplicate?: number;
  /** With duplicate: each copy gets a token of its own (default: the original's token, byte for byte). */
  freshToken?: boolean;
  /** Deliver the events in another order (always a different one when there are two or more). */
  reorder?: boolean;
  /** Milliseconds before each delivery: fixed, or a seeded value from min to max (0 to 60000). */
  delay?: number | { min: number; max: number };
  /** Each delivery this many times at the same moment (2 to 50). */
  burst?: number;
  /** The same seed gives the same deliveries in the same order (default: a new one, on `scenario.seed`). */
  seed?: number;
  /** How every token is signed (e.g. to test expiry along with a duplicate). */
  token?: TokenOptions;
}

/** One signed delivery of a scenario: send `body` with `headers`, unchanged. */
export interface ScenarioDelivery extends SignedDelivery {
  /** The event delivered (the object given; its bytes are `body`). */
  event: object;
  /** The event's webhookId (or "event-N" when it has none). */
  webhookId: string;
  /** The event's index in `events`. */
  index: number;
  /** When it arrives, in milliseconds from the first delivery's moment: the delays added up (nothing waits). */
  atMs: number;
  /** Arrives at the same moment as the delivery before it (a burst). */
  together: boolean;
  /** What was done to it; also in `headers["x-wfs-sandbox-fault"]` when anything was. */
  mark: SandboxFaultMark;
  /** The mark in words, e.g. "duplicate of 5edd… (same token), reordered"; "" when nothing was done. */
  note: string;
}

export interface Scenario extends AsyncIterable<ScenarioDelivery> {
  /** The seed used: give it back to repeat the scenario exactly. */
  readonly seed: number;
  /** How many deliveries it makes. */
  readonly size: number;
  /** Every delivery, signed, in the order they arrive. */
  deliveries(): Promise<ScenarioDelivery[]>;
}

/** The receiver's answer to one delivery. */
export interface DeliveryAnswer {
  /** Undefined when no answer came (see error). */
  status?: number;
  headers?: Record<string, string>;
  /** The answer's body, its first 4 KiB as UTF-8. */
  body: string;
  /** The body's full size in bytes. */
  bodySize: number;
  latencyMs: number;
  /** A 3xx answer's Location: never followed. */
  redirect?: string;
  /** Why there is no full answer: a timeout or a connection failure. */
  error?: string;
}

export interface AuditCaseResult {
  id: string;
  title: string;
  rule: string;
  expected: number;
  status?: number;
  passed: boolean;
  /** Why it failed, or what was seen. */
  detail: string;
  fix: string;
}

export interface AuditResult {
  target: string;
  passed: number;
  failed: number;
  total: number;
  results: AuditCaseResult[];
}

export interface AuditOptions {
  issuer: TestIssuer;
  /** The key-set server the receiver under test trusts (from issuer.serveJwks()). */
  jwks: JwksServer;
  /** Per request (default 10000). */
  timeoutMs?: number;
  /** The receiver's count of processed deliveries (a number, or {"processed": N}): adds the dedupe probes. */
  processedUrl?: string;
}
