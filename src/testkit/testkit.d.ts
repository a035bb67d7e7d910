// The test kit's public API, as users of `workflow-service-cli/testkit` see it (written by hand: the package ships
// no dependency, not even jose's types). test/unit/testkit/testkit.test.ts checks the implementation against it.

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

export interface JwksServer {
  /** The key set's URL on loopback, e.g. http://127.0.0.1:PORT/.well-known/jwks.json. */
  url: string;
  origin: string;
  /** Requests for the key set answered so far. */
  requests(): number;
  /** Answer 503 to the next `count` key-set requests (0 ends it). */
  failNext(count: number): void;
  stop(): Promise<void>;
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

export function createTestIssuer(options?: TestIssuerOptions): Promise<TestIssuer>;

/** A webhook event as the service sends it (spec: Webhook event). */
export interface WebhookEvent {
  webhookId: string;
  topic: string;
  subTopic: string;
  tenantId: string;
  triggeredAt: string;
  actorId: string;
  data: Record<string, unknown>;
}

/** A spec-valid event for any topic: a new UUID webhookId, triggeredAt now with 7 fractional digits,
 * subTopic "status:<topic>"; any field can be given. A workflow event (`workflow/started`, `completed`, `failed`,
 * `cancelled`) carries the data the sandbox sends: workflowId, runId, sessionId, status, productType and
 * productName. `fields.data` is laid over that data, key by key. */
export function buildEvent(topic: string, fields?: Partial<WebhookEvent>): WebhookEvent;

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

export function deliver(
  url: string,
  delivery: SignedDelivery,
  options?: { timeoutMs?: number; headers?: Record<string, string> },
): Promise<DeliveryAnswer>;

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

/** Runs the receiver audit against `url` (loopback only), signed by the test issuer. */
export function runAudit(url: string, options: AuditOptions): Promise<AuditResult>;

// The service's other objects (spec: Resources and their fields); their JSON Schemas ship in the package's
// schemas/ folder (`workflow-service-cli/schemas/workflow.schema.json`, …). Optional fields are omitted, never null.

export interface WebhookJwtClaims {
  iss: string;
  aud: string | string[];
  exp: number;
  iat?: number;
  jti?: string;
  /** Lower-case hex SHA-256 of the exact body bytes. */
  body_sha256: string;
}

export type WorkflowStatus = 'processing' | 'complete' | 'failed' | 'cancelled';

export interface Workflow {
  workflowId: string;
  runId: string;
  status: WorkflowStatus;
  sessionId: string;
  correlationId?: string;
  product: { service: string; model: string };
  productType: string;
  productName: string;
  reconfirmAvailable?: boolean;
  ordered?: unknown;
  fulfilled?: unknown;
  completed?: unknown;
  serviceable?: unknown;
  referenceNumber?: unknown;
}

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface Message {
  code: string;
  text: string;
  /** RFC 3339 UTC; fractional seconds only when non-zero. */
  timestamp: string;
}

export interface MessagesEnvelope {
  /** Always an array when present, never null. */
  messages?: Message[];
  workflow?: Workflow;
  links?: { self: { href: string }; reconfirm: { href: string; method: 'POST' } };
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
}
