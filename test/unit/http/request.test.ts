import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpRequest, TransportError } from '../../../src/core/http/request';
import { encodeSegment, startWorkflowUrl } from '../../../src/core/http/paths';

describe('httpRequest', () => {
  let server: Server;
  let base: string;
  let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  let respond: (url: string) => {
    status: number;
    headers?: Record<string, string>;
    body?: string | Buffer;
    hang?: boolean;
  } = () => ({ status: 200 });

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
        const r = respond(req.url ?? '');
        if (r.hang) return; // never answer: exercises the timeout
        res.writeHead(r.status, r.headers);
        res.end(r.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => {
    seen = [];
    respond = () => ({ status: 200 });
  });

  it('sends Content-Type: application/json on a POST with no body, and Accept: application/json', async () => {
    await httpRequest({ method: 'POST', url: base + '/x' });
    assert.equal(seen[0].headers['content-type'], 'application/json');
    assert.equal(seen[0].headers['accept'], 'application/json');
    assert.equal(seen[0].body.length, 0);
  });
  it('serialises json bodies and keeps raw Buffer bodies byte-exact', async () => {
    await httpRequest({ method: 'POST', url: base + '/a', json: { a: 1 } });
    const bytes = Buffer.from([0x7b, 0xff, 0x00, 0x7d]);
    await httpRequest({ method: 'POST', url: base + '/b', body: bytes });
    assert.equal(seen[0].body.toString(), '{"a":1}');
    assert.deepEqual(seen[1].body, bytes);
  });
  it('GET carries Accept but no Content-Type', async () => {
    await httpRequest({ method: 'GET', url: base + '/g' });
    assert.equal(seen[0].headers['content-type'], undefined);
    assert.equal(seen[0].headers['accept'], 'application/json');
  });
  it('returns status, lower-cased media type and raw body without parsing', async () => {
    respond = () => ({ status: 403, headers: { 'content-type': 'Text/HTML; charset=utf-8' }, body: '<html>no</html>' });
    const r = await httpRequest({ method: 'GET', url: base + '/h' });
    assert.equal(r.status, 403);
    assert.equal(r.contentType, 'text/html');
    assert.equal(r.body.toString(), '<html>no</html>');
  });
  it('times out with a TransportError of reason "timeout"', async () => {
    respond = () => ({ status: 200, hang: true });
    await assert.rejects(
      httpRequest({ method: 'GET', url: base + '/slow', timeoutMs: 100 }),
      (e: unknown) => e instanceof TransportError && e.reason === 'timeout',
    );
  });
  it('refuses a response larger than the cap', async () => {
    respond = () => ({ status: 200, body: Buffer.alloc(5000, 97) });
    await assert.rejects(
      httpRequest({ method: 'GET', url: base + '/big', maxResponseBytes: 1000 }),
      (e: unknown) => e instanceof TransportError && e.reason === 'too-large',
    );
  });
  it('reports a dead peer as a network TransportError', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    await assert.rejects(
      httpRequest({ method: 'GET', url: `http://127.0.0.1:${port}/` }),
      (e: unknown) => e instanceof TransportError && e.reason === 'network' && !e.mayHaveBeenSent,
    );
  });
  it('a connection reset after the request arrived may have been sent (a billed start must be searched for); a refusal was not', async () => {
    const resetting = createServer((req) =>
      req.on('data', () => undefined).on('end', () => req.socket.resetAndDestroy()),
    );
    await new Promise<void>((r) => resetting.listen(0, '127.0.0.1', r));
    const port = (resetting.address() as AddressInfo).port;
    try {
      const err = await httpRequest({ method: 'POST', url: `http://127.0.0.1:${port}/`, json: {} }).catch(
        (e: unknown) => e,
      );
      assert.ok(err instanceof TransportError, String(err));
      assert.equal(err.reason, 'network');
      assert.ok(err.mayHaveBeenSent, `code ${err.code}`);
    } finally {
      resetting.close();
    }
  });
  it('percent-encodes path parameters: "/" and spaces stay inside the segment', async () => {
    assert.equal(encodeSegment('a/b c?#%'), 'a%2Fb%20c%3F%23%25');
    const url = startWorkflowUrl(base + '/', 'sess/1 two');
    await httpRequest({ method: 'POST', url, json: {} });
    assert.equal(seen[0].url, '/workflow-services-ws/resources/v1/sessions/sess%2F1%20two/workflows');
  });
});
