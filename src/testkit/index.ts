// `workflow-service-cli/testkit`: sign deliveries in a receiver's own tests, build events, deliver them, run the
// receiver audit as a library, and run a sandbox and a verifying receiver in the test's own process. This file is its
// whole public surface: the published testkit.d.ts is rolled up from it and testkit.api.md records it (API
// Extractor); docs/testkit.md shows it in use.
import { runAudit as runCoreAudit } from '../core/audit';
import type { AuditIssuer } from '../core/sandbox';
import { sendDelivery } from '../core/http';
import { SystemClock } from '../core/time';
import type { WebhookEvent } from '../core/schemas';
import type { AuditOptions, AuditResult, DeliveryAnswer, SignedDelivery } from './types';
import { buildEvent as buildEventNow } from './buildEvent';
import { signerOf } from './testIssuer';

export { createTestIssuer } from './testIssuer';
export { startSandbox } from './sandbox';
export { startReceiver } from './receiver';
export type {
  AuditCaseResult,
  AuditOptions,
  AuditResult,
  ClaimName,
  DeliveryAnswer,
  Jwk,
  Jwks,
  NextDeliveryOptions,
  ReceivedDelivery,
  ReceiverReady,
  SandboxAddress,
  SandboxReady,
  Scenario,
  ScenarioDelivery,
  ScenarioOptions,
  SignedDelivery,
  StartReceiverOptions,
  StartSandboxOptions,
  StartWorkflowOptions,
  TestIssuer,
  TestIssuerOptions,
  TestReceiver,
  TestSandbox,
  TokenOptions,
  VerificationCheck,
} from './types';
export type { JwksServer } from '../core/signing';
export type { Clock, TimerHandle } from '../core/time';
export type { SandboxFaultMark } from '../core/webhooks';
export { scenario } from './scenario';
// The service's other objects (spec: Resources and their fields); their JSON Schemas ship in the package's schemas/
// folder (`workflow-service-cli/schemas/workflow.schema.json`, …). Optional fields are omitted, never null.
export type {
  Message,
  MessagesEnvelope,
  ProblemDocument,
  TokenResponse,
  WebhookEvent,
  WebhookJwtClaims,
} from '../core/schemas';
export type { Workflow, WorkflowStatus } from '../core/workflows';

/** A spec-valid event for any topic: a new UUID webhookId, triggeredAt now with 7 fractional digits,
 * subTopic "status:<topic>"; any field can be given. A workflow event (`workflow/started`, `completed`, `failed`,
 * `cancelled`) carries the data the sandbox sends: workflowId, runId, sessionId, status, productType and
 * productName. `fields.data` is laid over that data, key by key. */
export function buildEvent(topic: string, fields?: Partial<WebhookEvent>): WebhookEvent {
  return buildEventNow(topic, fields);
}

/** Sends a signed delivery to `url` as the service would (POST, its headers), and reads the receiver's answer. */
export async function deliver(
  url: string,
  delivery: SignedDelivery,
  options: { timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<DeliveryAnswer> {
  const a = await sendDelivery({
    url,
    body: delivery.body,
    headers: { ...delivery.headers, ...options.headers },
    timeoutMs: options.timeoutMs,
  });
  return {
    ...(a.status !== undefined ? { status: a.status } : {}),
    ...(a.headers ? { headers: a.headers } : {}),
    body: a.body?.toString('utf8') ?? '',
    bodySize: a.bodySize ?? 0,
    latencyMs: a.latencyMs,
    ...(a.redirect !== undefined ? { redirect: a.redirect } : {}),
    ...(a.error !== undefined ? { error: a.error } : {}),
  };
}

/** Runs the receiver audit against `url` (loopback only), signed by the test issuer. */
export async function runAudit(url: string, options: AuditOptions): Promise<AuditResult> {
  const signer = signerOf(options.issuer);
  const jwks = options.jwks;
  if (!jwks || typeof jwks.failNext !== 'function')
    throw new TypeError('runAudit needs { jwks }: the server from issuer.serveJwks() that the receiver trusts');
  const issuer: AuditIssuer = {
    trust: async () => ({ baseUrl: jwks.origin, issuer: signer.issuer, audience: signer.audience, jwksUrl: jwks.url }),
    sign: async (body, o = {}) => ({ token: await signer.sign(body, o), kid: signer.currentKid }),
    keySetRequests: async () => jwks.requests(),
    failKeySet: async (count) => jwks.failNext(count),
    clearFaults: async () => jwks.failNext(0),
    keySet: async () => signer.jwks() as { keys: Record<string, unknown>[] },
  };
  const s = await runCoreAudit({
    target: url,
    issuer,
    clock: new SystemClock(),
    requestTimeoutMs: options.timeoutMs,
    processedUrl: options.processedUrl,
  });
  // The results as their declared type says: the words core keeps for the extension (said) stay behind.
  const results = s.results.map(({ said: _words, ...r }) => r);
  return { target: s.target, passed: s.passed, failed: s.failed, total: s.total, results };
}
