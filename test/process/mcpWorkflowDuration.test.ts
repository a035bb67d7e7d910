// Issue #79, item 8: `wfs mcp --workflow-duration`, as `wfs sandbox` has. Its own sandbox's workflows end after that
// long, so an assistant waiting for `workflow/completed` is not held 20 s at each start. Real timers, a spawned
// process, an MCP client over stdio.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, WfsProcess, type Line } from './helpers/wfsProcess';

type Json = Record<string, any>;

describe('wfs mcp --workflow-duration', function () {
  this.timeout(60_000);

  it("its own sandbox's workflow completes after that duration: the wait for workflow/completed ends well before 20 s", async () => {
    const client = new Client({ name: 'process-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--workflow-duration', '500ms'],
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        stderr: 'pipe',
      }),
    );
    const call = async (name: string, args: Json): Promise<Json> =>
      ((await client.callTool({ name, arguments: args })) as CallToolResult).structuredContent as Json;
    try {
      const since = new Date().toISOString();
      const started = await call('wfs_start_sandbox_workflow', { correlationId: 'mcp-duration-1' });
      assert.equal(started.started, true);
      // The default (20 s) would not end within this wait, so the answer would be "none came".
      const done = await call('wfs_wait_for_delivery', { topic: 'workflow/completed', since, timeoutSeconds: 10 });
      assert.equal(done.arrived, true, JSON.stringify(done));
      assert.equal(done.delivery.runId, started.workflow.runId);
    } finally {
      await client.close();
    }
  });

  it('is refused beside --sandbox-url (that sandbox has its own), and a bad duration is named: exit 2', async () => {
    for (const [args, words] of [
      [['--sandbox-url', 'http://127.0.0.1:9', '--workflow-duration', '2s'], /give it to `wfs sandbox`/],
      [['--workflow-duration', 'soon'], /--workflow-duration soon: give a duration/],
    ] as const) {
      const p = new WfsProcess(['mcp', ...args], { WFS_SANDBOX_SECRET: 'x' });
      assert.equal(await p.exitCode(), 2);
      const line = JSON.parse(p.stderr.trim().split('\n').at(-1)!) as Line;
      assert.equal(line.kind, 'usage');
      assert.match(String(line.message), words);
    }
  });
});
