// A key set served on loopback: the test kit's serveJwks and the audit's own key folder. Read fresh at each request
// (a rotation shows at once); `failNext` makes the next requests fail, for the cases that break the key set.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JwksServer {
  /** The key set's URL on loopback, e.g. http://127.0.0.1:PORT/.well-known/jwks.json. */
  url: string;
  origin: string;
  /** Requests for the key set answered so far. */
  requests(): number;
  /** Answer 503 to the next `count` key-set requests (0 ends it). */
  failNext(count: number): void;
  stop(): Promise<void>;
}

/** The key set at `path` (default /.well-known/jwks.json), read fresh at each request so a rotation shows at once. */
export async function serveJwks(
  jwks: () => unknown,
  options: { port?: number; path?: string } = {},
): Promise<JwksServer> {
  const path = options.path ?? '/.well-known/jwks.json';
  let requests = 0;
  let failing = 0;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('not found\n');
    }
    requests++;
    if (failing > 0) {
      failing--;
      res.writeHead(503, { 'content-type': 'text/plain' });
      return void res.end('key set unavailable (failNext)\n');
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' });
    res.end(JSON.stringify(jwks()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin + path,
    origin,
    requests: () => requests,
    failNext: (count) => void (failing = Math.max(0, count)),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
