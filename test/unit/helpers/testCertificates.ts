// Certificates made for a test with the machine's openssl, in a fresh folder: a root CA (as mkcert makes one) and a
// leaf it signed for localhost and 127.0.0.1, a self-signed leaf, an expired leaf and a leaf for another name, each
// with its key; and an https app on loopback that serves one of them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertFiles {
  cert: string;
  key: string;
}

export interface TestCertificates {
  dir: string;
  /** The root CA's certificate file (mkcert's rootCA.pem) and its key (rootCA-key.pem). */
  rootCa: CertFiles;
  /** Signed by the root, for localhost and 127.0.0.1. */
  leaf: CertFiles;
  /** Signed by itself, for localhost and 127.0.0.1. */
  selfSigned: CertFiles;
  /** Signed by the root, for localhost and 127.0.0.1, expired yesterday. */
  expired: CertFiles;
  /** Signed by the root, for other.example only. */
  wrongName: CertFiles;
  remove(): void;
}

const LOCAL_NAMES = 'subjectAltName=DNS:localhost,IP:127.0.0.1';

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** A leaf signed by the root: `days` may be negative (already expired). */
function signedLeaf(dir: string, name: string, names: string, days: number): CertFiles {
  const files = { cert: join(dir, `${name}.pem`), key: join(dir, `${name}-key.pem`) };
  openssl(dir, ['req', ...NEW_KEY, '-keyout', files.key, '-out', `${name}.csr`, '-subj', '/CN=localhost']);
  writeFileSync(join(dir, `${name}.ext`), `${names}\n`);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'rootCA.pem',
    '-CAkey',
    'rootCA-key.pem',
    '-CAcreateserial',
    '-days',
    String(days),
    '-extfile',
    `${name}.ext`,
    '-out',
    files.cert,
  ]);
  return files;
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-certs-'));
  const rootCa = { cert: join(dir, 'rootCA.pem'), key: join(dir, 'rootCA-key.pem') };
  openssl(dir, ['req', '-x509', ...NEW_KEY, '-keyout', rootCa.key, '-out', rootCa.cert, '-subj', '/CN=wfs test CA']);
  const selfSigned = { cert: join(dir, 'self.pem'), key: join(dir, 'self-key.pem') };
  openssl(dir, [
    'req',
    '-x509',
    ...NEW_KEY,
    '-keyout',
    selfSigned.key,
    '-out',
    selfSigned.cert,
    '-subj',
    '/CN=localhost',
    '-addext',
    LOCAL_NAMES,
    '-addext',
    'basicConstraints=critical,CA:FALSE',
  ]);
  return {
    dir,
    rootCa,
    leaf: signedLeaf(dir, 'leaf', LOCAL_NAMES, 30),
    selfSigned,
    expired: signedLeaf(dir, 'expired', LOCAL_NAMES, -1),
    wrongName: signedLeaf(dir, 'wrong-name', 'subjectAltName=DNS:other.example', 30),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface HttpsApp {
  /** https://127.0.0.1:PORT (or with `host`, e.g. localhost). */
  origin: string;
  /** The paths of the requests it answered. */
  paths: string[];
  stop(): Promise<void>;
}

/** An https app on 127.0.0.1 serving `files`; it answers 200 "ok" unless `handle` answers. */
export async function startHttpsApp(
  files: CertFiles,
  o: { host?: string; handle?: (req: IncomingMessage, res: ServerResponse) => void } = {},
): Promise<HttpsApp> {
  const paths: string[] = [];
  const server: Server = createServer({ cert: readFileSync(files.cert), key: readFileSync(files.key) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      paths.push(req.url ?? '');
      if (o.handle) o.handle(req, res);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  // A client that refuses the certificate closes the connection: the server's side of that is no failure.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `https://${o.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`,
    paths,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
