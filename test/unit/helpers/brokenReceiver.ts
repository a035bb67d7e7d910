// A webhook receiver written the way developers often do, with one switchable mistake at a time, so the audit
// tests can prove each case catches the mistake it is meant for. With no mistake it does all seven steps right.
import { createHash, createHmac, createPublicKey, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';

export type Mistake =
  | 'none'
  | 'refuses-everything'
  | 'no-dedupe-answers-409'
  | 'no-auth-check'
  | 'any-scheme'
  | 'no-issuer-check'
  | 'accepts-alg-none'
  | 'alg-confusion'
  | 'any-rsa-alg'
  | 'no-audience-check'
  | 'exp-optional'
  | 'no-clock-tolerance'
  | 'lenient-tolerance'
  | 'no-body-hash'
  | 'hashes-reserialized-json'
  | 'follows-jku'
  | 'no-signature-check'
  | 'key-failure-500'
  | 'trusts-jwk-header'
  | 'follows-x5u'
  | 'accepts-rs384'
  | 'accepts-ps256'
  | 'no-issuer-check-cached-keys'
  | 'iss-derived-jwks'
  | 'tolerance-90'
  | 'malformed-500'
  | 'alg-confusion-pkcs1'
  | 'alg-confusion-modulus'
  | 'records-id-before-verify'
  | 'processes-duplicates';

export interface Trust {
  issuer: string;
  audience: string;
  jwksUrl: string;
}

class Refuse extends Error {}

export class BrokenReceiver {
  private server?: Server;
  private keys?: JWK[];
  private readonly seen = new Set<string>();
  processed = 0;

  constructor(
    private readonly mistake: Mistake,
    private readonly trust: Trust,
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      // What a receiver may expose for the audit's dedupe probes: how many deliveries it processed.
      if (req.method === 'GET' && req.url === '/processed') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ processed: this.processed }));
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.handle(req.headers.authorization, Buffer.concat(chunks)).then(
          (status) => {
            res.writeHead(status);
            res.end();
          },
          () => {
            res.writeHead(500);
            res.end();
          },
        );
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  stop(): Promise<void> {
    return new Promise((r) => {
      this.server?.close(() => r());
      this.server?.closeAllConnections();
    });
  }

  private async keySet(url: string, refresh: boolean): Promise<JWK[]> {
    if (this.keys && !refresh && url === this.trust.jwksUrl) return this.keys;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`key set ${res.status}`);
    const keys = ((await res.json()) as { keys: JWK[] }).keys;
    if (url === this.trust.jwksUrl) this.keys = keys;
    return keys;
  }

  private async handle(authorization: string | undefined, raw: Buffer): Promise<number> {
    const m = this.mistake;
    if (m === 'refuses-everything') return 403;
    if (m === 'records-id-before-verify') {
      // The mistake: the id is remembered before anything is checked.
      const early = JSON.parse(raw.toString('utf8')) as { webhookId?: string };
      if (early.webhookId && this.seen.has(early.webhookId)) return 200;
      if (early.webhookId) this.seen.add(early.webhookId);
    }
    try {
      if (m !== 'no-auth-check') {
        const token = this.token(authorization);
        await this.verify(token, raw);
      }
    } catch (err) {
      if (err instanceof Refuse || (m !== 'key-failure-500' && m !== 'malformed-500')) return 403;
      return 500;
    }
    const event = JSON.parse(raw.toString('utf8')) as { webhookId?: string };
    if (
      m !== 'records-id-before-verify' &&
      m !== 'processes-duplicates' &&
      event.webhookId &&
      this.seen.has(event.webhookId)
    )
      return m === 'no-dedupe-answers-409' ? 409 : 200;
    if (event.webhookId) this.seen.add(event.webhookId);
    this.processed++;
    return 200;
  }

  private token(authorization: string | undefined): string {
    if (!authorization) throw new Refuse('no token');
    if (this.mistake === 'any-scheme') return authorization.split(' ').pop()!;
    // "Bearer " then whatever follows, unchecked: the decoder's errors escape as 500s.
    if (this.mistake === 'malformed-500' && authorization.startsWith('Bearer')) return authorization.split(' ')[1]!;
    const match = /^Bearer (\S+)$/.exec(authorization);
    if (!match) throw new Refuse('not bearer');
    return match[1]!;
  }

  private async verify(token: string, raw: Buffer): Promise<void> {
    const m = this.mistake;
    const header = decodeProtectedHeader(token);
    const claims = decodeJwt(token);
    const skipsIssuer = m === 'no-issuer-check' || m === 'no-issuer-check-cached-keys' || m === 'iss-derived-jwks';
    if (!skipsIssuer && claims.iss !== this.trust.issuer) throw new Refuse('issuer');
    // Key lookup (mistakes: following jku, building the key-set address from iss, or failing with 500 when the key
    // set is down).
    const fromJku = m === 'follows-jku' && typeof header.jku === 'string';
    const fromIss = m === 'iss-derived-jwks' && typeof claims.iss === 'string' && claims.iss !== this.trust.issuer;
    const setUrl = fromJku
      ? (header.jku as string)
      : fromIss
        ? `${claims.iss}/.well-known/jwks.json`
        : this.trust.jwksUrl;
    let keys: JWK[];
    try {
      keys = await this.keySet(setUrl, false);
      if (!keys.some((k) => k.kid === header.kid) && m !== 'no-issuer-check-cached-keys')
        keys = await this.keySet(setUrl, true);
    } catch (err) {
      if (m === 'key-failure-500') throw err;
      throw new Refuse('key set');
    }
    let jwk = keys.find((k) => k.kid === header.kid);
    if (m === 'trusts-jwk-header' && header.jwk) jwk = header.jwk as JWK;
    if (m === 'follows-x5u' && typeof header.x5u === 'string') {
      const pem = await (await fetch(header.x5u)).text();
      jwk = { ...createPublicKey(pem).export({ format: 'jwk' }), kid: header.kid } as JWK;
    }
    if (m === 'accepts-alg-none' && header.alg === 'none') {
      // "trusts the token's algorithm": nothing to verify
    } else if (
      (m === 'alg-confusion' || m === 'alg-confusion-pkcs1' || m === 'alg-confusion-modulus') &&
      header.alg === 'HS256'
    ) {
      if (!jwk) throw new Refuse('no key');
      const publicKey = createPublicKey({ key: jwk as never, format: 'jwk' });
      const secret =
        m === 'alg-confusion'
          ? (publicKey.export({ type: 'spki', format: 'pem' }) as string)
          : m === 'alg-confusion-pkcs1'
            ? (publicKey.export({ type: 'pkcs1', format: 'pem' }) as string)
            : (jwk.n as string);
      const [h, p, s] = token.split('.');
      if (createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url') !== s) throw new Refuse('hmac');
    } else if (m === 'no-signature-check') {
      // decoded only
    } else {
      if (!jwk) throw new Refuse('no key');
      const key = await importJWK({ ...jwk, alg: header.alg as string }, header.alg as string).catch(() => {
        throw new Refuse('key import');
      });
      if (m === 'any-rsa-alg')
        await compactVerify(token, key).catch(() => {
          throw new Refuse('signature');
        });
      else {
        await jwtVerify(token, key, {
          algorithms:
            m === 'accepts-rs384' ? ['RS256', 'RS384'] : m === 'accepts-ps256' ? ['RS256', 'PS256'] : ['RS256'],
          issuer: skipsIssuer ? undefined : this.trust.issuer,
          audience: m === 'no-audience-check' ? undefined : this.trust.audience,
          requiredClaims: m === 'exp-optional' ? [] : ['exp'],
          clockTolerance:
            m === 'no-clock-tolerance' ? 0 : m === 'lenient-tolerance' ? 600 : m === 'tolerance-90' ? 90 : 60,
        }).catch(() => {
          throw new Refuse('claims');
        });
      }
    }
    if (
      m === 'no-audience-check' ||
      m === 'exp-optional' ||
      m === 'no-clock-tolerance' ||
      m === 'lenient-tolerance' ||
      m === 'tolerance-90'
    ) {
      // jwtVerify above checked the claims with the mistake in place
    } else if (
      m === 'accepts-alg-none' ||
      m === 'alg-confusion' ||
      m === 'alg-confusion-pkcs1' ||
      m === 'alg-confusion-modulus' ||
      m === 'no-signature-check' ||
      m === 'any-rsa-alg'
    ) {
      if (claims.aud !== this.trust.audience) throw new Refuse('aud');
      if (typeof claims.exp !== 'number' || claims.exp + 60 < Date.now() / 1000) throw new Refuse('exp');
    }
    if (m === 'no-body-hash') return;
    const bytes =
      m === 'hashes-reserialized-json' ? Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8')))) : raw;
    const want = claims.body_sha256;
    if (typeof want !== 'string' || !/^[0-9a-f]{64}$/.test(want)) throw new Refuse('hash missing');
    if (!timingSafeEqual(Buffer.from(want, 'hex'), createHash('sha256').update(bytes).digest()))
      throw new Refuse('hash');
  }
}
