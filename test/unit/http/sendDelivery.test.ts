// The one sender: exact bytes, no redirect followed, the answer's first 4 KiB kept with its full size, one timeout
// over the whole exchange (a body that never ends is cut there).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ANSWER_BODY_KEPT, sendDelivery } from '../../../src/core/http/sendDelivery';

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}
const close = (s: Server) => new Promise<void>((r) => (s.close(() => r()), s.closeAllConnections()));

describe('sendDelivery', () => {
  it('sends the bytes and headers given; keeps the first 4 KiB of a large answer with its full size and headers', async () => {
    let received = Buffer.alloc(0);
    const { url, server } = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received = Buffer.concat(chunks);
        res.writeHead(500, { 'x-app': 'yes', 'content-type': 'text/plain' });
        res.end('e'.repeat(100_000));
      });
    });
    try {
      const body = Buffer.from([1, 2, 0, 255]);
      const a = await sendDelivery({ url, body, headers: { Authorization: 'Bearer t' } });
      assert.ok(received.equals(body));
      assert.deepEqual(
        [a.status, a.bodySize, a.body!.length, a.truncated, a.headers!['x-app'], a.error],
        [500, 100_000, ANSWER_BODY_KEPT, true, 'yes', undefined],
      );
      assert.equal(a.target, url);
      assert.ok(a.latencyMs >= 0);
    } finally {
      await close(server);
    }
  });

  it('does not follow a redirect: the 3xx and its Location are the answer', async () => {
    let hits = 0;
    const { url, server } = await serve((_req, res) => {
      hits++;
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    try {
      const a = await sendDelivery({ url, body: '{}' });
      assert.deepEqual([a.status, a.redirect, hits], [307, '/elsewhere', 1]);
    } finally {
      await close(server);
    }
  });

  it('cuts a body that never ends at the timeout, keeping the status and what arrived', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('x'.repeat(10));
      // never ends
    });
    try {
      const a = await sendDelivery({ url, body: '{}', timeoutMs: 300 });
      assert.equal(a.status, 200);
      assert.equal(a.failure, 'timeout');
      assert.equal(a.bodySize, 10);
      assert.match(a.error!, /did not end within 300 ms/);
    } finally {
      await close(server);
    }
  });
});
