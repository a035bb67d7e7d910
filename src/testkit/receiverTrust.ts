// Whom a test kit receiver trusts, read from its `trust` option: a sandbox (its trust read from its control API, and
// its registration, as `wfs listen --trust-sandbox` makes them), or a test issuer (its key set served on loopback
// while the receiver runs, so the receiver fetches keys as it would from the service).
import { httpUrlProblem, TransportError } from '../core/http';
import type { EndpointRegistration } from '../core/receiver';
import { SandboxControlClient } from '../core/sandbox';
import type { Clock } from '../core/time';
import type { TrustedIssuer } from '../core/webhooks';
import type { SandboxAddress, TestIssuer } from './types';

export interface ReceiverTrust {
  issuers: TrustedIssuer[];
  /** The sandbox told the receiver's address (none for a test issuer). */
  endpoints: EndpointRegistration[];
  /** Keeps the receiver registered with a sandbox that restarts, as `wfs listen --trust-sandbox` does; each change is
   * told to `notice`. The function returned stops it. */
  watch?(url: string, clock: Clock, notice: (message: string) => void): () => void;
  /** Lets go of what trusting took (the issuer's key-set server). */
  release(): Promise<void>;
}

const WHAT =
  "a sandbox (startSandbox()'s, or the baseUrl and controlSecret of a running `wfs sandbox`) or a test issuer (createTestIssuer()'s)";

export async function receiverTrust(trust: unknown): Promise<ReceiverTrust> {
  if (isTestIssuer(trust)) {
    const jwks = await trust.serveJwks();
    return {
      issuers: [{ issuer: trust.issuer, audience: trust.audience, jwksUrl: jwks.url }],
      endpoints: [],
      release: () => jwks.stop(),
    };
  }
  if (!isSandboxAddress(trust)) throw new TypeError(`startReceiver needs { trust }: ${WHAT}`);
  const problem = httpUrlProblem(trust.baseUrl);
  if (problem) throw new TypeError(`startReceiver: trust.baseUrl ${problem}`);
  const client = new SandboxControlClient(trust.baseUrl, trust.controlSecret);
  try {
    const t = await client.trust();
    return {
      issuers: [{ issuer: t.issuer, audience: t.audience, jwksUrl: t.jwksUrl }],
      endpoints: [client.asEndpoint()],
      watch: (url, clock, notice) => watchRegistration(client, url, clock, notice),
      release: async () => undefined,
    };
  } catch (err) {
    if (err instanceof TransportError)
      throw new Error(
        `startReceiver: the sandbox at ${trust.baseUrl} cannot be reached (${err.message}): start it first (startSandbox(), or wfs sandbox), and give its baseUrl and controlSecret`,
      );
    // A sandbox that refuses (another controlSecret) says why.
    throw new Error(`startReceiver: ${(err as Error).message}`);
  }
}

function isTestIssuer(t: unknown): t is TestIssuer {
  const i = t as Partial<TestIssuer> | null;
  return typeof i?.serveJwks === 'function' && typeof i.issuer === 'string' && typeof i.audience === 'string';
}

function isSandboxAddress(t: unknown): t is SandboxAddress {
  const s = t as Partial<SandboxAddress> | null;
  return typeof s?.baseUrl === 'string' && typeof s.controlSecret === 'string';
}

function watchRegistration(
  client: SandboxControlClient,
  url: string,
  clock: Clock,
  notice: (message: string) => void,
): () => void {
  const watch = client.registrationWatch(url, clock);
  for (const change of ['registered', 'lost', 'refused'] as const) watch.on(change, notice);
  watch.start();
  return () => watch.stop();
}
