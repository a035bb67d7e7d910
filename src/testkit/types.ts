// The test kit's own types, as users of `workflow-service-cli/testkit` see them. The published testkit.d.ts is
// rolled up from this source by API Extractor (api-extractor.json); the API report (testkit.api.md) shows every
// change to them in review.
import type { WebhookEvent } from '../core/schemas';
import type { JwksServer } from '../core/signing';
import type { Clock } from '../core/time';
import type { SandboxFaultMark } from '../core/webhooks';
import type { Workflow } from '../core/workflows';

// One verification step as the receiver checked it: core's check without the words kept for the extension.
export interface VerificationCheck {
  step: number;
  name: string;
  ok: boolean;
  detail: string;
}

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

/** What `startSandbox()` runs: the sandbox `wfs sandbox` runs, in this process, on loopback. */
export interface StartSandboxOptions {
  /** Default 0: a free port. */
  port?: number;
  /** How long a started workflow stays processing before it ends (default 1000; `wfs sandbox`'s is 20 s). */
  workflowDurationMs?: number;
  /** expires_in of the access tokens it issues (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Its time (tokens, workflow durations, delivery retries); default the real one. A clock with `advance(ms)` also
   * serves the sandbox's `/sandbox/clock/advance`. */
  clock?: Clock;
}

/** What `wfs sandbox` prints in its ready line (without `"event"`): its addresses, issuer, key, demo credentials,
 * sessions, products and control secret. */
export interface SandboxReady {
  baseUrl: string;
  testWebhookUrl: string;
  problemsBase: string;
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** The signing key's id. */
  kid: string;
  /** The demo credentials the sandbox signs in. */
  username: string;
  password: string;
  /** `staged` holds data a workflow can start on; `empty` holds none. */
  sessions: { staged: string; empty: string };
  /** The products a workflow may order. */
  products: { service: string; model: string }[];
  /** A product the demo account may not order (its start is refused). */
  unentitledProduct: { service: string; model: string };
  /** What the control API needs in X-Sandbox-Secret (`WFS_SANDBOX_SECRET` for `wfs listen --trust-sandbox`). */
  controlSecret: string;
}

/** A running sandbox, as a receiver's `trust` takes it: `startSandbox()`'s, or `wfs sandbox`'s ready line. */
export interface SandboxAddress {
  baseUrl: string;
  controlSecret: string;
}

export interface StartWorkflowOptions {
  /** Default: the sandbox's first product (`ready.products[0]`). */
  product?: { service: string; model: string };
  correlationId?: string;
  /** Default: the staged session (`ready.sessions.staged`). */
  sessionId?: string;
}

export interface TestSandbox extends SandboxAddress, AsyncDisposable {
  /** Its ready information, as `wfs sandbox` prints it. */
  readonly ready: SandboxReady;
  readonly baseUrl: string;
  readonly controlSecret: string;
  readonly port: number;
  /** Signs in with the demo credentials and starts a workflow (POST …/sessions/{sessionId}/workflows); its events
   * go to every receiver registered with this sandbox. Resolves with the workflow the start answered (202). */
  startWorkflow(options?: StartWorkflowOptions): Promise<Workflow>;
  /** Stops it and frees its port; again is harmless. Also `await using`. */
  close(): Promise<void>;
}

export interface StartReceiverOptions {
  /** Whom it trusts and how workflow events reach it. A sandbox (`startSandbox()`'s, or the baseUrl and
   * controlSecret of a running `wfs sandbox`): it trusts that sandbox's issuer and key set, and registers its
   * address there, as `wfs listen --trust-sandbox` does. A test issuer (`createTestIssuer()`): it trusts that issuer
   * and serves its key set on loopback while it runs. */
  trust: TestSandbox | SandboxAddress | TestIssuer;
  /** The app every verified delivery is forwarded to (its exact bytes and headers); its answer is recorded. */
  forwardTo?: string;
  /** Answer the sender with the app's status instead of 200 (as `wfs listen --pass-through`). */
  passThrough?: boolean;
  /** Default 0: a free port. */
  port?: number;
  /** The webhook path (default "/webhooks"). */
  path?: string;
  /** Bytes this receiver may hold for deliveries (default 16 MiB): the oldest are let go first. */
  memoryBytes?: number;
  /** Its time (token expiry, `next()`'s timeout); default the real one. */
  clock?: Clock;
}

/** What `wfs listen` prints in its ready line (without `"event"`). */
export interface ReceiverReady {
  /** Where deliveries go: loopback, with the webhook path. */
  url: string;
  /** Always null: the test kit's receiver has no public address. */
  publicUrl: null;
  /** The issuers it trusts. */
  issuers: string[];
}

/** One request the receiver took: verified or refused, and what the app answered. */
export interface ReceivedDelivery {
  /** The receiver's id for it. */
  id: string;
  receivedAt: string;
  /** Every one of the spec's seven steps passed. */
  verified: boolean;
  /** A verified copy of a delivery already acknowledged (same webhookId): answered 200, not forwarded again. */
  duplicate: boolean;
  /** What the receiver answered the sender. */
  status: number;
  /** From the verified body only. */
  topic?: string;
  webhookId?: string;
  subTopic?: string;
  runId?: string;
  /** The steps as checked, each with what was seen. */
  checks: readonly VerificationCheck[];
  /** A refused delivery's first failed step in words, e.g. "step 4 (signature (RS256)): …". */
  refusal?: string;
  /** The verified body, parsed (a workflow event's fields). */
  event?: WebhookEvent;
  /** What `forwardTo` answered; absent when nothing was forwarded (refused, a duplicate, no forwardTo). */
  answer?: DeliveryAnswer;
  /** Something the receiver could not do with it, or why it answered as it did. */
  note?: string;
  /** What the sandbox says it did to this delivery (a duplicate, a delay…); outside the signature. */
  sandboxFault?: SandboxFaultMark;
}

export interface NextDeliveryOptions {
  /** Only a verified delivery of this topic (default: any delivery, refused ones too). */
  topic?: string;
  /** Default 10000. On timeout, next() rejects with what did arrive. */
  timeoutMs?: number;
}

export interface TestReceiver extends AsyncDisposable {
  /** Its ready information, as `wfs listen` prints it. */
  readonly ready: ReceiverReady;
  readonly url: string;
  readonly port: number;
  /** Every delivery held, oldest first, then each new one as it comes; ends when the receiver closes. Each
   * `for await` starts from the oldest held. */
  readonly deliveries: AsyncIterable<ReceivedDelivery>;
  /** The first delivery that matches and no earlier next() took: held already, or the next to come. */
  next(options?: NextDeliveryOptions): Promise<ReceivedDelivery>;
  /** Stops it: removes its registration from the sandbox, frees its port, ends the iterators and rejects waits under
   * way; again is harmless. Also `await using`. */
  close(): Promise<void>;
}
