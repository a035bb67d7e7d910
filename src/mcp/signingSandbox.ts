// The sandbox whose key signs what `wfs mcp` sends (replays, events, the audit): a running `wfs sandbox` named by
// --sandbox-url (its secret in WFS_SANDBOX_SECRET), or one started in this process. Either is this machine's
// simulator, where nothing is billed; the app must trust its issuer and key set.
import type { AuditSetup, SignerInfo } from '../core/assistant';
import type { Credentials } from '../core/auth';
import { Sandbox, SANDBOX_PASSWORD, SANDBOX_USERNAME, SandboxControlClient } from '../core/sandbox';
import type { EndpointRegistration } from '../core/receiver';
import { signedHereClaims, type TrustedIssuer } from '../core/webhooks';
import { proveSandboxClaim } from '../core/sandbox';
import type { KeptState } from '../cli/sandboxKeptState';

/** The address does not prove it is the `wfs sandbox` whose secret the environment holds (sandboxClaim.ts). */
export class NotOurSandbox extends Error {}

export interface SigningSandbox {
  baseUrl: string;
  /** Started here (stopped with wfs mcp), or a running `wfs sandbox`. */
  embedded: boolean;
  signer: SignerInfo & { sign(body: Buffer): Promise<string> };
  audit: AuditSetup['signer'];
  trust: TrustedIssuer;
  /** Its published demo account. */
  demo: Credentials;
  controlSecret: string;
  /** Told a receiver's address, so the sandbox's workflow events go there. */
  endpoint: EndpointRegistration;
  stop(): Promise<void>;
}

export async function startEmbeddedSandbox(
  port: number,
  workflowMs?: number,
  keep?: KeptState,
): Promise<SigningSandbox> {
  const sandbox = new Sandbox({
    ...keep?.options,
    port,
    workflowDurationSeconds: workflowMs === undefined ? undefined : workflowMs / 1000,
  });
  const info = await sandbox.start();
  await keep?.afterStart(sandbox);
  const signer = sandbox.context.signer;
  return {
    baseUrl: info.baseUrl,
    embedded: true,
    signer: {
      // Marked as signed on request: the receiver keeps it out of the service's duplicate set.
      sign: (body) => signer.sign(body, { claims: signedHereClaims() }),
      issuer: info.issuer,
      audience: info.audience,
      jwksUrl: info.jwksUrl,
    },
    audit: { sandboxUrl: info.baseUrl, sandboxSecret: info.controlSecret },
    trust: { issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl },
    demo: { username: info.username, password: info.password },
    controlSecret: info.controlSecret,
    endpoint: {
      name: `the sandbox at ${info.baseUrl}`,
      register: async (url) => void sandbox.context.webhookEndpoints.add(url),
      unregister: async (url) => void sandbox.context.webhookEndpoints.delete(url),
    },
    stop: () => sandbox.stop(),
  };
}

/** A running `wfs sandbox`: its trust is read through the control API, which proves the secret is its own. */
export async function runningSandbox(baseUrl: string, secret: string): Promise<SigningSandbox> {
  // Proven before the secret is sent: a server that is not the sandbox holding it never sees it.
  const claim = await proveSandboxClaim(baseUrl, secret);
  // Nothing answering is a sandbox not running: the one unreachable error, not a refusal.
  if (!claim.proven) throw claim.unreachable ?? new NotOurSandbox(claim.why);
  const client = new SandboxControlClient(baseUrl, secret);
  const t = await client.trust();
  return {
    baseUrl: t.baseUrl.replace(/\/+$/, ''),
    embedded: false,
    signer: {
      sign: async (body) => (await client.sign(body)).token,
      issuer: t.issuer,
      audience: t.audience,
      jwksUrl: t.jwksUrl,
    },
    audit: { sandboxUrl: baseUrl, sandboxSecret: secret },
    trust: { issuer: t.issuer, audience: t.audience, jwksUrl: t.jwksUrl },
    demo: { username: SANDBOX_USERNAME, password: SANDBOX_PASSWORD },
    controlSecret: secret,
    endpoint: {
      name: `the sandbox at ${baseUrl}`,
      register: async (url) => void (await client.addWebhook(url)),
      unregister: async (url) => void (await client.removeWebhook(url)),
    },
    stop: async () => undefined,
  };
}
