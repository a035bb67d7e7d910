// A loopback JWKS endpoint that counts requests and can be told to fail.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type CryptoKey, type JWK } from 'jose';

export interface TestKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
  spki: string;
}

export async function newRsaKey(
  kid: string,
  modulusLength = 2048,
  alg: 'RS256' | 'RS512' | 'PS256' = 'RS256',
): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { modulusLength, extractable: true });
  return {
    kid,
    privateKey,
    publicKey,
    jwk: { ...(await exportJWK(publicKey)), kid, use: 'sig' },
    spki: await exportSPKI(publicKey),
  };
}

export class KeySetServer {
  requests = 0;
  failing = false;
  keys: JWK[] = [];
  url = '';
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((_req, res) => {
      this.requests++;
      if (this.failing) {
        res.writeHead(503);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: this.keys }));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks.json`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
