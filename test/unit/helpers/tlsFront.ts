// An https front on loopback for a plain-http test server (the sandbox), with a certificate for the .test names the
// recording proxy resolves (test/fixtures/tls-test-names.crt, its own CA). A client that trusts that certificate
// reaches the server as https://wfs-sandbox.test:PORT through the proxy's CONNECT, as it would a real service.
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';

/** The certificate file: give it to the client (NODE_EXTRA_CA_CERTS, or tls.setDefaultCACertificates). */
export const TEST_NAMES_CERT = join(__dirname, '../../../../test/fixtures/tls-test-names.crt');
const TEST_NAMES_KEY = join(__dirname, '../../../../test/fixtures/tls-test-names.key');

export class TlsFront {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly targetPort: number) {}

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  async start(): Promise<number> {
    this.server = createServer({ key: readFileSync(TEST_NAMES_KEY), cert: readFileSync(TEST_NAMES_CERT) }, (client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.once('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return this.port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
