// The loopback MCP endpoint's door: its own Origin passes, any other is refused, a session is one initialize, and a
// client that went away without closing its session does not keep the next one out.
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MAX_SESSIONS, McpHttpEndpoint } from '../../../src/mcp/mcpHttpEndpoint';
import { rawRequest } from '../helpers/rawHttp';

const TOKEN = 'a-token-for-this-test-only';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: `Bearer ${TOKEN}`,
};
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };

describe('assistant: the MCP endpoint on loopback', function () {
  let endpoint: McpHttpEndpoint;
  let url: string;
  beforeEach(async () => {
    endpoint = new McpHttpEndpoint({
      port: 0,
      token: TOKEN,
      createServer: () => new Server({ name: 't', version: '1' }, { capabilities: {} }),
    });
    url = await endpoint.start();
  });
  afterEach(() => endpoint.stop());

  const open = async (extra: Record<string, string> = {}) => {
    const r = await rawRequest(url, { method: 'POST', headers: { ...HEADERS, ...extra }, json: initialize });
    return { status: r.status, session: r.headers['mcp-session-id'], text: r.text };
  };

  it("a request from the endpoint's own origin passes; a page's origin, a foreign Host, a path elsewhere do not", async () => {
    const own = new URL(url).origin;
    assert.equal((await open({ origin: own })).status, 200);
    assert.equal((await open({ origin: own.replace('127.0.0.1', 'localhost') })).status, 200);
    assert.equal((await open({ origin: 'http://127.0.0.1:1' })).status, 403, 'another port is another origin');
    assert.equal((await open({ origin: 'null' })).status, 403);
    assert.equal((await open({ host: 'localhost.evil.example' })).status, 403);
    const elsewhere = await rawRequest(url.replace('/mcp', '/other'), {
      method: 'POST',
      headers: HEADERS,
      json: initialize,
    });
    assert.equal(elsewhere.status, 404);
  });

  it('a session starts with initialize only; a request of an unknown session is told to start one', async () => {
    const noSession = await rawRequest(url, { method: 'POST', headers: HEADERS, json: ping });
    assert.equal(noSession.status, 400);
    const unknown = await rawRequest(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': 'nope' },
      json: ping,
    });
    assert.equal(unknown.status, 404);
  });

  it(`past ${MAX_SESSIONS} sessions, the one unused longest is closed for the new one`, async () => {
    const sessions: string[] = [];
    for (let i = 0; i < MAX_SESSIONS; i++) sessions.push((await open()).session!);
    assert.equal(endpoint.sessionCount, MAX_SESSIONS);
    // The first is used again: the second is now the one unused longest.
    const used = await rawRequest(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': sessions[0]! },
      json: ping,
    });
    assert.equal(used.status, 200);
    const newest = await open();
    assert.equal(newest.status, 200);
    assert.equal(endpoint.sessionCount, MAX_SESSIONS);
    const gone = await rawRequest(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': sessions[1]! },
      json: ping,
    });
    assert.equal(gone.status, 404);
    const kept = await rawRequest(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': sessions[0]! },
      json: ping,
    });
    assert.equal(kept.status, 200);
  });
});
