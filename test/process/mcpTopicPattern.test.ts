// #74 hole 1, at the level where it was found: a topic pattern froze `wfs mcp`. One event whose topic is 120 × `a` +
// `/b`, then `wfs_list_deliveries {"topic": "**a**a**a**a**a**a**c"}`: the RegExp it was turned into backtracked for
// over 58 s at 100% CPU, and neither the MCP endpoint nor the receiver answered meanwhile. Now the answer comes at
// once, and the process goes on answering.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { rawRequest } from '../unit/helpers/rawHttp';
import { CLI, withSandboxProcess } from './helpers/wfsProcess';

type Json = Record<string, any>;

/** Far above what the matcher needs (milliseconds) and far below what the old code took (over a minute). */
const PROMPT_MS = 10_000;

describe('wfs mcp: a hostile topic pattern', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();
  let client: Client;

  before(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--sandbox-url', s.info.baseUrl],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', WFS_SANDBOX_SECRET: s.info.controlSecret },
      stderr: 'pipe',
    });
    client = new Client({ name: 'process-test', version: '1' });
    await client.connect(transport);
  });
  after(() => client?.close());

  const call = async (name: string, args: Json = {}) => {
    const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: PROMPT_MS })) as CallToolResult;
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    return r.structuredContent as Json;
  };

  it('answers wfs_list_deliveries at once, and the process goes on answering (tools and receiver)', async () => {
    const topic = 'a'.repeat(120) + '/b';
    const sent = await call('wfs_send_event', { to: 'receiver', topic, data: { runId: 'wfrun_hostile' } });
    assert.equal(sent.answer.status, 200);

    const hostile = await call('wfs_list_deliveries', { topic: '**a**a**a**a**a**a**c' });
    assert.equal(hostile.held, 1);
    assert.equal(hostile.matching, 0);
    // The same shape with a pattern that does match: the matcher is right, not only fast.
    const matching = await call('wfs_list_deliveries', { topic: '**a**a**a**a**a**a**b' });
    assert.equal(matching.deliveries[0].topic, topic);

    const env = await call('wfs_environment');
    const refused = await rawRequest(env.receiverUrl.value as string, { method: 'POST', body: '{}' });
    assert.equal(refused.status, 403, 'the receiver still answers');
  });
});
