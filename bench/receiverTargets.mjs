// The receivers measured side by side on loopback: the transport bound (bare node:http answering 200), the
// verification floor, the spec's steps alone, a typical receiver written the way most users would (jose jwtVerify +
// createRemoteJWKSet, no raw-body care), and ours (Receiver + Verifier: the seven steps, raw-body hash, dedupe,
// delivery history, in memory or with its file).
import { createServer } from 'node:http';
import { createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';

function listen(server) {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/webhooks`)),
  );
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
      const ok = verify(
        'RSA-SHA256',
        Buffer.from(token.slice(0, dot)),
        key,
        Buffer.from(token.slice(dot + 1), 'base64url'),
      );
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
  const steps = specSteps(publicJwk, trust);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => answer(res, steps(req, Buffer.concat(chunks)).status));
  });
  return { url: await listen(server), stop: () => new Promise((r) => server.close(r)) };
}

/** The spec minimum plus the least a receiver with a history must add: the Host checked, and each request kept in
 * memory for a panel to show (an id, the time, the headers with the token redacted, the status, the event's id, the
 * body or a refused request's 4 KiB prefix), bounded in bytes like ours. No per-step detail, no file: the least a
 * receiver that keeps a history spends, so ours over it is what our own record and history cost beyond it. */
export async function specMinimumWithHistory(publicJwk, trust, budgetBytes = 64 * 1024 * 1024) {
  const steps = specSteps(publicJwk, trust);
  const { keep, history } = leastHistory(budgetBytes);
  const server = createServer((req, res) => {
    const host = req.headers.host;
    if (host === undefined || !host.startsWith('127.0.0.1:')) return answer(res, 421);
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const { status, event } = steps(req, body);
      keep(req, status, event?.webhookId, status === 200 ? body : body.subarray(0, 4096));
      answer(res, status);
    });
  });
  return { url: await listen(server), stop: () => new Promise((r) => server.close(r)), history };
}

/** The least history itself: each request kept in memory (a sequence id, the time, the headers with the token
 * redacted, the status, the event's id, the body kept), the oldest dropped past budgetBytes. */
function leastHistory(budgetBytes) {
  const history = [];
  let head = 0;
  let bytes = 0;
  let seq = 0;
  const keep = (req, status, webhookId, kept) => {
    const headers = { ...req.headers };
    if (headers.authorization) headers.authorization = `Bearer <redacted, ${headers.authorization.length} characters>`;
    const entry = { id: ++seq, at: Date.now(), headers, status, webhookId, body: kept, bytes: 512 + kept.length };
    history.push(entry);
    bytes += entry.bytes;
    while (bytes > budgetBytes) {
      bytes -= history[head].bytes;
      history[head++] = undefined;
    }
    if (head > 4096 && head > history.length / 2) (history.splice(0, head), (head = 0));
  };
  return { keep, history: () => history.slice(head) };
}

/** The least history made to meet every other point of the receiver's issue (#15), so that ours is measured against
 * a receiver that does all that ours must, bar the panel's detail: the Host, path and method checked; steps 1 to 5
 * taken from the headers, so a refused request's body is hashed as it streams by (4 KiB kept) and never held; a
 * body cap (413), the bytes all bodies being received may hold (503), one body per token at a time; a sender gone
 * mid-body recorded; copies in flight answered as duplicates; each request kept as the least history keeps it. */
export async function leastBoundedHistory(
  publicJwk,
  trust,
  { budgetBytes = 64 * 1024 * 1024, maxBody = 1024 * 1024, maxInFlight = 32 * 1024 * 1024 } = {},
) {
  const key = createPublicKey({ key: publicJwk, format: 'jwk' });
  const decode = (s) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  const seen = new Set();
  const processing = new Set();
  const receiving = new Set();
  let inFlight = 0;
  const { keep, history } = leastHistory(budgetBytes);
  /** A body not held: hashed as it streams by, its first 4 KiB kept, then answered status. */
  const hashed = (req, res, status) => {
    const hash = createHash('sha256');
    const prefix = [];
    let kept = 0;
    req.on('data', (c) => {
      hash.update(c);
      if (kept < 4096) {
        const part = c.subarray(0, 4096 - kept);
        prefix.push(part);
        kept += part.length;
      }
    });
    req.on('error', () => keep(req, 400, undefined, EMPTY));
    req.on('end', () => {
      hash.digest();
      keep(req, status, undefined, Buffer.concat(prefix, kept));
      answer(res, status);
    });
  };
  const server = createServer((req, res) => {
    const host = req.headers.host;
    if (host === undefined || !host.startsWith('127.0.0.1:')) return answer(res, 421);
    if (req.url !== '/webhooks') return answer(res, 404);
    if (req.method !== 'POST') return answer(res, 405);
    if (Number(req.headers['content-length']) > maxBody) return answer(res, 413);
    let claims;
    let signature;
    try {
      const token = (req.headers.authorization ?? '').slice(7);
      const d1 = token.indexOf('.');
      const dot = token.lastIndexOf('.');
      const header = decode(token.slice(0, d1));
      claims = decode(token.slice(d1 + 1, dot));
      signature = token.slice(dot + 1);
      if (header.alg !== 'RS256' || claims.iss !== trust.issuer) return hashed(req, res, 403);
      const ok = verify('RSA-SHA256', Buffer.from(token.slice(0, dot)), key, Buffer.from(signature, 'base64url'));
      if (!ok || claims.aud !== trust.audience || !(Date.now() / 1000 <= claims.exp + 60)) return hashed(req, res, 403);
    } catch {
      return hashed(req, res, 403);
    }
    // Another body under this token is being received: not held (ours tells a true copy, 503, from another body, 403).
    if (receiving.has(signature)) return hashed(req, res, 503);
    receiving.add(signature);
    const chunks = [];
    let size = 0;
    let held = 0;
    let settled = false;
    const settle = (status, webhookId, kept) => {
      if (settled) return;
      settled = true;
      receiving.delete(signature);
      inFlight -= held;
      keep(req, status, webhookId, kept);
      if (!req.destroyed) answer(res, status);
    };
    req.on('data', (c) => {
      size += c.length;
      if (size > maxBody || inFlight + c.length > maxInFlight) {
        req.removeAllListeners('data');
        return settle(size > maxBody ? 413 : 503, undefined, EMPTY);
      }
      inFlight += c.length;
      held += c.length;
      chunks.push(c);
    });
    req.on('error', () => settle(400, undefined, EMPTY));
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      try {
        if (!timingSafeEqual(createHash('sha256').update(body).digest(), Buffer.from(claims.body_sha256, 'hex')))
          return settle(403, undefined, body.subarray(0, 4096));
        const event = JSON.parse(body.toString('utf8'));
        const id = event.webhookId;
        if (seen.has(id) || processing.has(id)) return settle(200, id, body);
        processing.add(id);
        seen.add(id);
        processing.delete(id);
        settle(200, id, body);
      } catch {
        settle(403, undefined, body.subarray(0, 4096));
      }
    });
  });
  return {
    url: await listen(server),
    stop: () => new Promise((r) => server.close(r)),
    history,
    bodyBytesInFlight: () => inFlight,
  };
}

const EMPTY = Buffer.alloc(0);

function answer(res, status) {
  res.writeHead(status, { 'content-length': 0 });
  res.end();
}

/** The seven steps as the spec minimum takes them: the status to answer, and the event when verified. */
function specSteps(publicJwk, trust) {
  const key = createPublicKey({ key: publicJwk, format: 'jwk' });
  const seen = new Set();
  const decode = (s) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  return (req, body) => {
    try {
      const token = (req.headers.authorization ?? '').slice(7);
      const d1 = token.indexOf('.');
      const dot = token.lastIndexOf('.');
      const header = decode(token.slice(0, d1));
      const claims = decode(token.slice(d1 + 1, dot));
      if (header.alg !== 'RS256' || claims.iss !== trust.issuer) return { status: 403 };
      const ok = verify(
        'RSA-SHA256',
        Buffer.from(token.slice(0, dot)),
        key,
        Buffer.from(token.slice(dot + 1), 'base64url'),
      );
      const fresh = Date.now() / 1000 <= claims.exp + 60;
      if (
        !ok ||
        claims.aud !== trust.audience ||
        !fresh ||
        !timingSafeEqual(createHash('sha256').update(body).digest(), Buffer.from(claims.body_sha256, 'hex'))
      )
        return { status: 403 };
      const event = JSON.parse(body.toString('utf8'));
      seen.add(event.webhookId);
      return { status: 200, event };
    } catch {
      return { status: 403 };
    }
  };
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

/** Our Verifier (the seven steps as the receiver runs them) behind the least handler, no Receiver and no history:
 * ours over it is what the Receiver adds. The key set's first fetch is the only asynchronous verdict. */
export async function ourVerifierAlone(core, trust, clock) {
  const server = createServer(leastVerifierHandler(new core.verifier.Verifier({ issuers: [trust], clock })));
  return { url: await listen(server), stop: () => new Promise((r) => server.close(r)) };
}

/** A delivery through both of the Verifier's doors, as the receiver takes them: the headers (steps 1 to 5), then
 * the body's digest (step 6). The verdict, a promise only while a key set is fetched. */
export function verifyDelivery(verifier, authorization, body) {
  const verdict = verifier.headers(authorization);
  const withBody = (v) =>
    'ok' in v ? v : verifier.body(v, { size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
  return verdict instanceof Promise ? verdict.then(withBody) : withBody(verdict);
}

/** The least handler around a Verifier: the body read, checked, answered 200 or 403. Also driven by hand, without
 * sockets, in receiverOwnWork.mjs. */
export function leastVerifierHandler(verifier) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const result = verifyDelivery(verifier, req.headers.authorization, Buffer.concat(chunks));
      if (result instanceof Promise) result.then((r) => answer(res, r.ok ? 200 : 403));
      else answer(res, result.ok ? 200 : 403);
    });
  };
}

/** In place of a DeliveryHistory: keeps nothing, so ours with it is the Receiver without its history. */
export function noHistory() {
  return {
    add: () => undefined,
    all: () => [],
    acknowledgedKeys: () => [],
    flush: async () => undefined,
    close: async () => undefined,
  };
}

export async function ourReceiver(core, trust, clock, history) {
  const { Receiver } = core.receiver;
  const { Verifier } = core.verifier;
  const receiver = new Receiver({ verifier: new Verifier({ issuers: [trust], clock }), clock, history });
  const url = await receiver.start();
  return {
    url,
    stop: async () => {
      await receiver.stop();
      await history?.close();
    },
    receiver,
  };
}
