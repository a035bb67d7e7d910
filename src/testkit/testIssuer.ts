// The test kit's issuer: the shared signer with a key of its own, and its key set served on loopback.
import {
  DEFAULT_TEST_AUDIENCE,
  DEFAULT_TEST_ISSUER,
  serveJwks,
  type JwksServer,
  type SignOptions,
  WebhookSigner,
} from '../core/signing';
import { SystemClock } from '../core/time';
import type { SignedDelivery, TestIssuer, TestIssuerOptions, TokenOptions, Jwk, Jwks } from './types';

/** TokenOptions (the kit's words) as the signer's claim changes. */
function signOptions(o: TokenOptions = {}, nowS: number): SignOptions {
  const claims: Record<string, unknown> = { ...o.claims };
  if (o.iat !== undefined) claims.iat = o.iat;
  if (o.exp !== undefined) claims.exp = o.exp;
  else if (o.expiresIn !== undefined) claims.exp = nowS + o.expiresIn;
  if (o.audience !== undefined) claims.aud = o.audience;
  if (o.issuer !== undefined) claims.iss = o.issuer;
  for (const name of o.omit ?? []) claims[name] = null;
  return { claims, ...(o.kid !== undefined ? { header: { kid: o.kid } } : {}) };
}

/** The X-Svc-* headers the service sends with an event, from its fields (only those present as strings). */
function eventHeaders(event: Record<string, unknown>): Record<string, string> {
  const h: Record<string, string> = {};
  const pairs: [string, string][] = [
    ['x-svc-topic', 'topic'],
    ['x-svc-sub-topic', 'subTopic'],
    ['x-svc-tenant-id', 'tenantId'],
    ['x-svc-webhook-id', 'webhookId'],
    ['x-svc-triggered-at', 'triggeredAt'],
  ];
  for (const [header, field] of pairs) if (typeof event[field] === 'string') h[header] = event[field] as string;
  return h;
}

class Issuer implements TestIssuer {
  constructor(
    private readonly signer: WebhookSigner,
    private readonly clock: SystemClock,
  ) {}

  get issuer(): string {
    return this.signer.issuer;
  }

  get audience(): string {
    return this.signer.audience;
  }

  get kid(): string {
    return this.signer.currentKid;
  }

  jwks(): Jwks {
    return this.signer.jwks() as Jwks;
  }

  async sign(
    body: string | Uint8Array,
    options?: TokenOptions,
    extraHeaders: Record<string, string> = {},
  ): Promise<SignedDelivery> {
    const bytes =
      typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const token = await this.signer.sign(bytes, signOptions(options, Math.floor(this.clock.now() / 1000)));
    return {
      body: bytes,
      token,
      headers: { 'content-type': 'application/json', ...extraHeaders, authorization: `Bearer ${token}` },
    };
  }

  async signEvent(event: object, options?: TokenOptions): Promise<SignedDelivery> {
    const text = JSON.stringify(event);
    if (typeof text !== 'string') throw new TypeError('signEvent needs an object that JSON.stringify can serialize');
    return this.sign(text, options, eventHeaders(event as Record<string, unknown>));
  }

  rotate(options: { keepPrevious?: boolean } = {}): Promise<string> {
    return this.signer.rotate(options.keepPrevious ?? true);
  }

  async privateJwk(): Promise<Jwk> {
    return (await this.signer.exportCurrent()).privateJwk as Jwk;
  }

  /** The audit needs the signer itself (its tokens with claims and header changed, other algorithms). */
  get webhookSigner(): WebhookSigner {
    return this.signer;
  }

  async serveJwks(options: { port?: number; path?: string } = {}): Promise<JwksServer> {
    return serveJwks(() => this.jwks(), options);
  }
}

/** A test issuer with a new RSA key: signs deliveries as the service does, and serves its key set on loopback. */
export async function createTestIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const clock = new SystemClock();
  const signer = new WebhookSigner(
    clock,
    options.issuer ?? DEFAULT_TEST_ISSUER,
    options.audience ?? DEFAULT_TEST_AUDIENCE,
  );
  await signer.init();
  return new Issuer(signer, clock);
}

export function signerOf(issuer: TestIssuer): WebhookSigner {
  if (!(issuer instanceof Issuer)) throw new TypeError('runAudit needs an issuer made by createTestIssuer()');
  return issuer.webhookSigner;
}
