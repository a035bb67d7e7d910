// `workflow-service-cli/testkit`: sign deliveries in a receiver's own tests, build events, deliver them, and run the
// receiver audit as a library. Its API is testkit.d.ts; docs/testkit.md shows it in use.
import { runAudit as runCoreAudit } from '../core/audit';
import type { AuditIssuer } from '../core/sandbox';
import { sendDelivery } from '../core/http';
import { SystemClock } from '../core/time';
import type { AuditOptions, AuditResult, DeliveryAnswer, SignedDelivery } from './testkit';
import { signerOf } from './testIssuer';

export { createTestIssuer } from './testIssuer';
export { buildEvent } from './buildEvent';

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
  return { target: s.target, passed: s.passed, failed: s.failed, total: s.total, results: s.results };
}
