// The audit's issuer over a key pair of its own (a folder of `wfs keys generate`): the signer signs, and its key set
// is served on loopback while the audit runs, so the cases that watch or break key-set requests have one to watch.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookSigner } from '../signing/webhookSigner';
import type { AuditIssuer, SandboxTrust } from '../sandbox/sandboxControlClient';

const JWKS_PATH = '/.well-known/jwks.json';

/** An AuditIssuer for `signer`, its key set served at a loopback port (0: a free one) until `stop()`. */
export async function signerAuditIssuer(
  signer: WebhookSigner,
  port = 0,
): Promise<AuditIssuer & { trustNow: SandboxTrust; stop: () => Promise<void> }> {
  let requests = 0;
  let failing = 0;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== JWKS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('not found\n');
    }
    requests++;
    if (failing > 0) {
      failing--;
      res.writeHead(503, { 'content-type': 'text/plain' });
      return void res.end('key set unavailable (the audit broke it on purpose)\n');
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' });
    res.end(JSON.stringify(signer.jwks()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const trust: SandboxTrust = {
    baseUrl: origin,
    issuer: signer.issuer,
    audience: signer.audience,
    jwksUrl: origin + JWKS_PATH,
  };
  return {
    trustNow: trust,
    trust: async () => trust,
    sign: async (body, o = {}) => ({ token: await signer.sign(body, o), kid: signer.currentKid }),
    keySetRequests: async () => requests,
    failKeySet: async (count) => void (failing = Math.max(0, count)),
    clearFaults: async () => void (failing = 0),
    keySet: async () => signer.jwks() as { keys: Record<string, unknown>[] },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
