// A running sandbox (embedded or `wfs sandbox`) driven through its /sandbox/ control API: the audit's and `wfs sign`'s
// signing issuer, the trust of `wfs listen --trust-sandbox` and the addresses it sends workflow events to, faults.
import { httpRequest, TransportError } from '../http/request';
import type { EndpointRegistration } from '../receiver/ReceiverSession';
import { RegistrationWatch } from '../receiver/registrationWatch';
import type { Clock } from '../time/clock';
import { joinUrl } from '../http/paths';
import { isLoopbackHost } from '../http/loopback';
import { SANDBOX_SECRET_HEADER } from '../sandbox/sandboxAccess';
import type { DeliveryFaultRequest, DeliveryFaults } from './deliveryFaults';

export interface SandboxTrust {
  baseUrl: string;
  issuer: string;
  audience: string;
  jwksUrl: string;
}

export interface CustomToken {
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  alg?: 'RS256' | 'RS384' | 'RS512' | 'PS256';
}

/** What the audit needs of the issuer that signs its tokens: a sandbox, or the test kit's own issuer and key-set
 * server. */
export interface AuditIssuer {
  trust(): Promise<SandboxTrust>;
  sign(body: Buffer, o?: CustomToken): Promise<{ token: string; kid: string }>;
  /** Requests the key set has answered so far. */
  keySetRequests(): Promise<number>;
  /** The key set answers 503 to the next `count` requests. */
  failKeySet(count: number): Promise<void>;
  clearFaults(): Promise<void>;
  keySet(): Promise<{ keys: Record<string, unknown>[] }>;
}

export class SandboxControlClient implements AuditIssuer {
  /** `secret` is the sandbox's controlSecret (its ready line, or SandboxInfo): every control call carries it. */
  constructor(
    readonly baseUrl: string,
    private readonly secret: string,
  ) {}

  private async call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    json?: unknown,
  ): Promise<Record<string, unknown>> {
    const headers = { [SANDBOX_SECRET_HEADER]: this.secret };
    const res = await httpRequest({ method, url: joinUrl(this.baseUrl, path), json, headers, timeoutMs: 10_000 });
    if (res.status >= 300) {
      // The sandbox says what is missing (the secret, most often): pass its words on.
      const said = problemDetail(res.body);
      throw new Error(
        `the sandbox at ${this.baseUrl} answered ${res.status} to ${method} ${path}${said ? `: ${said}` : ': is it a Workflow Service Toolkit sandbox?'}`,
      );
    }
    try {
      return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new Error(`the sandbox at ${this.baseUrl} answered ${method} ${path} with a body that is not JSON`);
    }
  }

  async trust(): Promise<SandboxTrust> {
    const i = await this.call('GET', '/sandbox');
    for (const k of ['issuer', 'audience', 'jwksUrl'])
      if (typeof i[k] !== 'string') throw new Error(`the sandbox at ${this.baseUrl} did not say its ${k}`);
    return {
      baseUrl: this.baseUrl,
      issuer: i.issuer as string,
      audience: i.audience as string,
      jwksUrl: keySetAsReached(this.baseUrl, i.baseUrl, i.jwksUrl as string),
    };
  }

  /** The products the sandbox resolves a start to (the ones its account may order). */
  async products(): Promise<{ service: string; model: string }[]> {
    const list = (await this.call('GET', '/sandbox')).products;
    if (!Array.isArray(list)) throw new Error(`the sandbox at ${this.baseUrl} did not list its products`);
    return list.filter(
      (p): p is { service: string; model: string } =>
        typeof (p as { service?: unknown })?.service === 'string' &&
        typeof (p as { model?: unknown })?.model === 'string',
    );
  }

  async sign(body: Buffer, o: CustomToken = {}): Promise<{ token: string; kid: string }> {
    const r = await this.call('POST', '/sandbox/sign', { bodyBase64: body.toString('base64'), ...o });
    return { token: r.token as string, kid: r.kid as string };
  }

  async keySetRequests(): Promise<number> {
    return (await this.call('GET', '/sandbox/stats')).jwksRequests as number;
  }

  async failKeySet(count: number): Promise<void> {
    await this.call('POST', '/sandbox/faults', { fault: 'jwks-unavailable', count });
  }

  async clearFaults(): Promise<void> {
    await this.call('DELETE', '/sandbox/faults');
  }

  /** Injects `count` faults of this kind (`after`: throttle only, let that many requests through first); the faults
   * still pending afterwards. */
  async injectFault(fault: string, count: number, after?: number): Promise<Record<string, number>> {
    const r = await this.call('POST', '/sandbox/faults', { fault, count, ...(after === undefined ? {} : { after }) });
    return r.pending as Record<string, number>;
  }

  /** Lays a delivery fault (duplicate, reorder, delay, retry-storm, burst) over the setting in force; the API
   * faults still pending and the whole delivery setting afterwards (its seed included). */
  async addDeliveryFault(
    request: DeliveryFaultRequest,
  ): Promise<{ pending: Record<string, number>; delivery: unknown }> {
    const r = await this.call('POST', '/sandbox/faults', request);
    return { pending: r.pending as Record<string, number>, delivery: r.delivery ?? null };
  }

  /** The faults still to come, each with its count left, every kind the sandbox knows, and the delivery faults in
   * force (null when none; an older sandbox says nothing of them). */
  async faults(): Promise<{
    pending: Record<string, number>;
    kinds: string[];
    delivery: DeliveryFaults | null;
    deliveryKinds: string[];
  }> {
    const r = await this.call('GET', '/sandbox/faults');
    return {
      pending: r.pending as Record<string, number>,
      kinds: r.kinds as string[],
      delivery: (r.delivery as DeliveryFaults | undefined) ?? null,
      deliveryKinds: (r.deliveryKinds as string[] | undefined) ?? [],
    };
  }

  /** Publishes a new signing key (the previous one stays in the key set); its kid. */
  async rotateKey(): Promise<string> {
    return (await this.call('POST', '/sandbox/keys/rotate')).kid as string;
  }

  /** Registers an address the sandbox sends its workflow events to; every address registered now. */
  async addWebhook(url: string): Promise<string[]> {
    return (await this.call('POST', '/sandbox/webhooks', { url })).endpoints as string[];
  }

  /** Stops sending workflow events to an address; every address registered now. */
  async removeWebhook(url: string): Promise<string[]> {
    return (await this.call('DELETE', '/sandbox/webhooks', { url })).endpoints as string[];
  }

  /** A receiver's registration with this sandbox: its workflow events go to the receiver while it runs. */
  asEndpoint(): EndpointRegistration {
    return {
      name: `the sandbox at ${this.baseUrl}`,
      register: async (url) => void (await this.addWebhook(url)),
      unregister: async (url) => void (await this.removeWebhook(url)),
    };
  }

  /** Keeps `url` registered while this sandbox restarts (wfs listen --trust-sandbox, the test kit's receiver): not
   * started; its events say each change. */
  registrationWatch(url: string, clock: Clock): RegistrationWatch {
    return new RegistrationWatch({
      clock,
      url,
      name: `the sandbox at ${this.baseUrl}`,
      registered: () => this.webhooks(),
      register: async (u) => void (await this.addWebhook(u)),
      isUnreachable: (err) => err instanceof TransportError,
    });
  }

  async webhooks(): Promise<string[]> {
    return (await this.call('GET', '/sandbox/webhooks')).endpoints as string[];
  }

  async keySet(): Promise<{ keys: Record<string, unknown>[] }> {
    return (await this.call('GET', '/.well-known/jwks.json')) as { keys: Record<string, unknown>[] };
  }
}

/** The detail of a problem document, bounded; undefined when the body is not one. */
function problemDetail(body: Buffer): string | undefined {
  try {
    const p = JSON.parse(body.subarray(0, 4096).toString('utf8')) as { detail?: unknown };
    return typeof p.detail === 'string' ? p.detail.slice(0, 500) : undefined;
  } catch {
    return undefined;
  }
}

/** The sandbox names its key set under its own loopback address (it cannot know the names others use). Reached by
 * another name (a container's service name, http://sandbox:4010), its key set is under that name too; any other
 * key-set address is kept as the sandbox gave it. */
export function keySetAsReached(reachedAt: string, ownBase: unknown, jwksUrl: string): string {
  if (typeof ownBase !== 'string' || !URL.canParse(ownBase) || !URL.canParse(reachedAt)) return jwksUrl;
  if (!jwksUrl.startsWith(`${ownBase}/`) || !isLoopbackHost(new URL(ownBase).hostname)) return jwksUrl;
  if (isLoopbackHost(new URL(reachedAt).hostname)) return jwksUrl;
  return joinUrl(reachedAt, jwksUrl.slice(ownBase.length));
}
