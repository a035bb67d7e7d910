// Signs webhook deliveries as the service does (spec: Webhook JWT claims): RS256 under a kid published in the
// sandbox's key set, binding the token to the exact body bytes through body_sha256.
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import type { Clock } from '../time/clock';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface SignOptions {
  /** Seconds the token stays valid. */
  ttlSeconds?: number;
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class WebhookSigner {
  private keys: SigningKey[] = [];

  constructor(
    private readonly clock: Clock,
    readonly issuer: string,
    readonly audience: string,
  ) {}

  async init(): Promise<void> {
    if (this.keys.length === 0) this.keys.push(await newKey());
  }

  /** Adds a new current key; the old one stays published so deliveries in flight still verify. */
  async rotate(): Promise<string> {
    const key = await newKey();
    this.keys = [key, ...this.keys].slice(0, 2);
    return key.kid;
  }

  get currentKid(): string {
    return this.current.kid;
  }

  get current(): SigningKey {
    if (!this.keys[0]) throw new Error('signer not initialised');
    return this.keys[0];
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.keys.map((k) => k.publicJwk) };
  }

  async sign(body: Buffer, options: SignOptions = {}): Promise<string> {
    const iat = Math.floor(this.clock.now() / 1000);
    return new SignJWT({ body_sha256: sha256Hex(body) })
      .setProtectedHeader({ alg: 'RS256', kid: this.current.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + (options.ttlSeconds ?? 300))
      .setJti(randomUUID())
      .sign(this.current.privateKey);
  }
}

/** Variations of a genuine token, for the receiver audit: claims replaced or removed (null), extra header
 * parameters, or another RSA algorithm (RS384/RS512, or RSA-PSS) with the same key. */
export interface CustomSignOptions {
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  alg?: 'RS256' | 'RS384' | 'RS512' | 'PS256';
}

export async function signCustom(signer: WebhookSigner, clock: Clock, body: Buffer, o: CustomSignOptions = {}): Promise<string> {
  const iat = Math.floor(clock.now() / 1000);
  const claims: Record<string, unknown> = { iss: signer.issuer, aud: signer.audience, iat, exp: iat + 300, jti: randomUUID(), body_sha256: sha256Hex(body), ...o.claims };
  for (const [k, v] of Object.entries(claims)) if (v === null) delete claims[k];
  const alg = o.alg ?? 'RS256';
  // A WebCrypto RSA key is bound to its hash: the same key material is imported again for another algorithm.
  const key = alg === 'RS256' ? signer.current.privateKey : await importJWK({ ...(await exportJWK(signer.current.privateKey)), alg }, alg);
  return new SignJWT(claims).setProtectedHeader({ typ: 'JWT', ...o.header, alg, kid: (o.header?.kid as string | undefined) ?? signer.currentKid }).sign(key);
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = (await calculateJwkThumbprint(jwk)).slice(0, 16);
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
}
