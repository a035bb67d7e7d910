// The receivers measured side by side on loopback: the transport bound (bare node:http answering 200), the
// verification floor, the spec's steps alone, a typical receiver written the way most users would (jose jwtVerify +
// createRemoteJWKSet, no raw-body care), and ours (Receiver + Verifier: the seven steps, raw-body hash, dedupe,
// delivery history, in memory or with its file).
import { createServer } from 'node:http';
import { createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
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

/** The spec's seven steps and nothing else: decode header and claims, refuse an untrusted issuer before any
 * crypto, RS256 on the event loop (cheaper in CPU than the thread pool), aud and exp with 60 s tolerance, the body hash compared in constant time, the
 * body parsed, duplicates answered 200. No record, no history, no answer text: what any receiver that follows the
 * spec must spend, so the share of ours above it is what our record and history cost. */
export async function specMinimum(publicJwk, trust) {
  const key = createPublicKey({ key: publicJwk, format: 'jwk' });
  const seen = new Set();
  const decode = (s) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  const answer = (res, status) => {
    res.writeHead(status, { 'content-length': 0 });
    res.end();
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        const token = (req.headers.authorization ?? '').slice(7);
        const d1 = token.indexOf('.');
        const dot = token.lastIndexOf('.');
        const header = decode(token.slice(0, d1));
        const claims = decode(token.slice(d1 + 1, dot));
        if (header.alg !== 'RS256' || claims.iss !== trust.issuer) return answer(res, 403);
        const ok = verify('RSA-SHA256', Buffer.from(token.slice(0, dot)), key, Buffer.from(token.slice(dot + 1), 'base64url'));
        const body = Buffer.concat(chunks);
        const fresh = Date.now() / 1000 <= claims.exp + 60;
        if (!ok || claims.aud !== trust.audience || !fresh || !timingSafeEqual(createHash('sha256').update(body).digest(), Buffer.from(claims.body_sha256, 'hex'))) return answer(res, 403);
        const event = JSON.parse(body.toString('utf8'));
        seen.add(event.webhookId);
        answer(res, 200);
      } catch {
        answer(res, 403);
      }
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

export async function ourReceiver(core, trust, clock, log) {
  const { Receiver } = core.receiver;
  const { Verifier } = core.verifier;
  const receiver = new Receiver({ verifier: new Verifier({ issuers: [trust], clock }), clock, log });
  const url = await receiver.start();
  return { url, stop: async () => { await receiver.stop(); await log?.close(); }, receiver };
}
