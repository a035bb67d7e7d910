// Signs webhook deliveries as the service does (spec: Webhook JWT claims): RS256 under a kid published in the
// issuer's key set, binding the token to the exact body bytes through body_sha256. One signer serves the sandbox,
// the receiver audit, `wfs sign` and the test kit; only where its keys come from differs.
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import type { Clock } from '../time/clock';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

type SignAlg = 'RS256' | 'RS384' | 'RS512' | 'PS256';

/** A genuine token, or a variation of one for a test that must see it refused. */
export interface SignOptions {
  /** Seconds the token stays valid (default 300); ignored when `claims.exp` is given. */
  ttlSeconds?: number;
  /** Claims replaced, added, or removed (null): `{ exp: … }`, `{ body_sha256: null }`. */
  claims?: Record<string, unknown>;
  /** Extra protected-header parameters; `kid` here replaces the current key's kid (the signature stays the key's). */
  header?: Record<string, unknown>;
  /** Another RSA algorithm with the same key (RS384/RS512, or RSA-PSS): only for tests that must see it refused. */
  alg?: SignAlg;
}

export function sha256Hex(bytes: Buffer | Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A key pair as written to disk or handed to a test: the private key as a JWK (with its kid and alg). */
export interface ExportedKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export class WebhookSigner {
  private keys: SigningKey[] = [];
  /** The first key while it is made: an RSA key pair takes 50–600 ms, so a signer makes it when first needed. */
  private making?: Promise<void>;

  constructor(
    private readonly clock: Clock,
    readonly issuer: string,
    readonly audience: string,
  ) {}

  /** Makes the first key now, if there is none: after it, the synchronous getters (currentKid, jwks) answer. */
  async init(): Promise<void> {
    if (this.keys.length > 0) return;
    this.making ??= newKey().then(
      (key) => {
        if (this.keys.length === 0) this.keys.push(key);
      },
      (err: unknown) => {
        this.making = undefined;
        throw err;
      },
    );
    await this.making;
  }

  /** Whether a key exists yet (a signer made lazily has none until its first signature or key set). */
  get hasKey(): boolean {
    return this.keys.length > 0;
  }

  /** The key set, its first key made if need be. */
  async keySet(): Promise<{ keys: JWK[] }> {
    await this.init();
    return this.jwks();
  }

  /** A signer over keys kept elsewhere (`wfs keys generate`): the first is the current one. */
  static async fromKeys(clock: Clock, issuer: string, audience: string, privateJwks: JWK[]): Promise<WebhookSigner> {
    const signer = new WebhookSigner(clock, issuer, audience);
    for (const jwk of privateJwks) signer.keys.push(await keyFromPrivateJwk(jwk));
    if (signer.keys.length === 0) throw new Error('no signing key');
    return signer;
  }

  /** Adds a new current key. The previous one stays published (deliveries in flight still verify) unless
   * `keepPrevious` is false; at most two are published. */
  async rotate(keepPrevious = true): Promise<string> {
    const key = await newKey();
    this.keys = keepPrevious ? [key, ...this.keys].slice(0, 2) : [key];
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

  /** The current key pair, for writing to disk. */
  async exportCurrent(): Promise<ExportedKey> {
    await this.init();
    const k = this.current;
    const privateJwk = { ...(await exportJWK(k.privateKey)), kid: k.kid, alg: 'RS256', use: 'sig' };
    return { kid: k.kid, privateJwk, publicJwk: k.publicJwk };
  }

  /** Every key pair, the current one first, as private JWKs (with kid): what a sandbox keeps across restarts. */
  async exportKeys(): Promise<JWK[]> {
    await this.init();
    return Promise.all(
      this.keys.map(async (k) => ({ ...(await exportJWK(k.privateKey)), kid: k.kid, alg: 'RS256', use: 'sig' })),
    );
  }

  /** The claims a token for `body` carries: the genuine ones, then `o.claims` applied (null removes). */
  claimsFor(body: Buffer | Uint8Array, o: SignOptions = {}): Record<string, unknown> {
    const iat = Math.floor(this.clock.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: this.issuer,
      aud: this.audience,
      iat,
      exp: iat + (o.ttlSeconds ?? 300),
      jti: randomUUID(),
      body_sha256: sha256Hex(body),
      ...o.claims,
    };
    for (const [k, v] of Object.entries(claims)) if (v === null || v === undefined) delete claims[k];
    return claims;
  }

  async sign(body: Buffer | Uint8Array, o: SignOptions = {}): Promise<string> {
    const alg = o.alg ?? 'RS256';
    await this.init();
    const current = this.current;
    // A WebCrypto RSA key is bound to its hash: the same key material is imported again for another algorithm.
    const key =
      alg === 'RS256' ? current.privateKey : await importJWK({ ...(await exportJWK(current.privateKey)), alg }, alg);
    return new SignJWT(this.claimsFor(body, o))
      .setProtectedHeader({ typ: 'JWT', ...o.header, alg, kid: (o.header?.kid as string | undefined) ?? current.kid })
      .sign(key);
  }
}

/** Variations of a genuine token, for the receiver audit: claims replaced or removed (null), extra header
 * parameters, or another RSA algorithm (RS384/RS512, or RSA-PSS) with the same key. */
export type CustomSignOptions = Pick<SignOptions, 'claims' | 'header' | 'alg'>;

/** The sandbox's /sandbox/sign: kept for its callers; the clock is the signer's own. */
export async function signCustom(
  signer: WebhookSigner,
  _clock: Clock,
  body: Buffer,
  o: CustomSignOptions = {},
): Promise<string> {
  return signer.sign(body, o);
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = (await calculateJwkThumbprint(jwk)).slice(0, 16);
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
}

async function keyFromPrivateJwk(jwk: JWK): Promise<SigningKey> {
  if (jwk.kty !== 'RSA' || typeof jwk.d !== 'string') throw new Error('the key is not an RSA private key in JWK form');
  const privateKey = (await importJWK({ ...jwk, alg: 'RS256' }, 'RS256', { extractable: true })) as CryptoKey;
  const publicJwk: JWK = { kty: 'RSA', n: jwk.n, e: jwk.e };
  const kid = jwk.kid ?? (await calculateJwkThumbprint(publicJwk)).slice(0, 16);
  return { kid, privateKey, publicJwk: { ...publicJwk, kid, alg: 'RS256', use: 'sig' } };
}
