// Issue #79, item 8: `wfs mcp --workflow-duration`, as `wfs sandbox` has. Its own sandbox's workflows end after that
// long, so an assistant waiting for `workflow/completed` is not held 20 s at each start. Real timers, a spawned
// process, an MCP client over stdio.
import assert from 'node:assert/strict';
import { mcpOverStdio } from './helpers/mcpClient';
import { WfsProcess, type Line } from './helpers/wfsProcess';

describe('wfs mcp --workflow-duration', function () {
  this.timeout(60_000);

  it("its own sandbox's workflow completes after that duration: the wait for workflow/completed ends well before 20 s", async () => {
    const { client, call } = await mcpOverStdio(['--workflow-duration', '500ms']);
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
