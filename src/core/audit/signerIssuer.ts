// The audit's issuer over a key pair of its own (a folder of `wfs keys generate`): the signer signs, and its key set
// is served on loopback while the audit runs, so the cases that watch or break key-set requests have one to watch.
import { serveJwks } from '../signing/jwksServer';
import type { WebhookSigner } from '../signing/webhookSigner';
import type { AuditIssuer, SandboxTrust } from '../sandbox/sandboxControlClient';

/** An AuditIssuer for `signer`, its key set served at a loopback port (0: a free one) until `stop()`. */
export async function signerAuditIssuer(
  signer: WebhookSigner,
  port = 0,
): Promise<AuditIssuer & { trustNow: SandboxTrust; stop: () => Promise<void> }> {
  const served = await serveJwks(() => signer.jwks(), { port });
  const origin = served.origin;
  const trust: SandboxTrust = {
    baseUrl: origin,
    issuer: signer.issuer,
    audience: signer.audience,
    jwksUrl: served.url,
  };
  return {
    trustNow: trust,
    trust: async () => trust,
    sign: async (body, o = {}) => ({ token: await signer.sign(body, o), kid: signer.currentKid }),
    keySetRequests: async () => served.requests(),
    failKeySet: async (count) => served.failNext(count),
    clearFaults: async () => served.failNext(0),
    keySet: async () => signer.jwks() as { keys: Record<string, unknown>[] },
    stop: () => served.stop(),
  };
}
