// The three receivers measured side by side on loopback: the transport bound (bare node:http answering 200),
// a typical receiver written the way most users would (jose jwtVerify + createRemoteJWKSet, no raw-body care),
// and ours (Receiver + Verifier: the seven steps, raw-body hash, dedupe, delivery log).
import { createServer } from 'node:http';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/webhooks`)));
}

export async function bareHttp() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-length': 0 });
      res.end();
    });
  });
  return { url: await listen(server), stop: () => new Promise((r) => server.close(r)) };
}

/** The verification floor: RS256 verify and the body hash, nothing else (no claims, no log): no receiver that
 * verifies can be faster than this on the same machine. */
export async function minimalVerifier(publicJwk) {
  const key = createPublicKey({ key: publicJwk, format: 'jwk' });
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const token = (req.headers.authorization ?? '').slice(7);
      const dot = token.lastIndexOf('.');
      const ok = verify('RSA-SHA256', Buffer.from(token.slice(0, dot)), key, Buffer.from(token.slice(dot + 1), 'base64url'));
      createHash('sha256').update(Buffer.concat(chunks)).digest();
      res.writeHead(ok ? 200 : 403, { 'content-length': 0 });
      res.end();
    });
  });
  return { url: await listen(server), stop: () => new Promise((r) => server.close(r)) };
}

export async function typicalReceiver(trust) {
  const jwks = createRemoteJWKSet(new URL(trust.jwksUrl));
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (text += c));
    req.on('end', async () => {
      try {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        await jwtVerify(token, jwks, { issuer: trust.issuer, audience: trust.audience });
        JSON.parse(text);
        res.writeHead(200, { 'content-length': 0 });
      } catch {
        res.writeHead(403, { 'content-length': 0 });
      }
      res.end();
    });
  });
  return { url: await listen(server), stop: () => new Promise((r) => server.close(r)) };
}

export async function ourReceiver(core, trust, clock) {
  const { Receiver } = core.receiver;
  const { Verifier } = core.verifier;
  const receiver = new Receiver({ verifier: new Verifier({ issuers: [trust], clock }), clock });
  const url = await receiver.start();
  return { url, stop: () => receiver.stop(), receiver };
}
