// Issue #79, replays count: the forward failed (500), a replay reached the fixed handler (200), so the app has now
// acknowledged that webhookId, and the next replay under it says it may be taken for a duplicate. `wfs mcp` driven by
// the official MCP SDK client over stdio; the app is a real loopback server that dedupes on webhookId as the spec
// asks (a failed delivery is not remembered: the service sends it again).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpOverStdio, type Json } from './helpers/mcpClient';

/** Answers 500 while `broken` (its handler throws, the id is not remembered), then 200; an id it answered 2xx for is
 * answered {"ok":true,"duplicate":true} without running the handler. */
class FlakyDedupingApp {
  broken = true;
  /** The webhookIds the handler ran for, and what it answered. */
  readonly handled: { webhookId: string; status: number }[] = [];
  private readonly seen = new Set<string>();
  private server?: Server;
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json).webhookId as string;
        const reply = (status: number, body: Json) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (this.seen.has(id)) return reply(200, { ok: true, duplicate: true });
        const status = this.broken ? 500 : 200;
        this.handled.push({ webhookId: id, status });
        if (status !== 200) return reply(500, { error: 'TypeError: boom' });
        this.seen.add(id);
        reply(200, { ok: true, duplicate: false });
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((r) => this.server?.close(() => r()));
  }
}

describe('wfs mcp: a replay the app answered 2xx counts as its acknowledgement (#79)', function () {
  this.timeout(60_000);

  it('forward 500, replay 200, replay again: the note names the duplicate; a fresh id runs the handler', async () => {
    const app = new FlakyDedupingApp();
    const appUrl = await app.start();
    const { client } = await mcpOverStdio(['--forward-to', appUrl]);
    const call = async (name: string, args: Json): Promise<Json> => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      assert.ok(!r.isError, JSON.stringify(r.content));
      return r.structuredContent as Json;
    };
    try {
      await call('wfs_send_event', { to: 'receiver', topic: 'workflow/completed', data: { runId: 'r1' } });
      const [forward] = app.handled;
      assert.deepEqual(forward && forward.status, 500, 'the receiver forwarded it and the handler failed');
      const id = forward!.webhookId;
      app.broken = false; // the fix

      const first = await call('wfs_replay_to_app', { topic: 'workflow/completed' });
      assert.equal(first.answer.status, 200);
      assert.match(first.answer.body, /"duplicate":false/);
      assert.equal(first.note, undefined, 'the forward failed: nothing acknowledged the id before this replay');
      assert.deepEqual(app.handled.at(-1), { webhookId: id, status: 200 }, 'the fixed handler ran');

      const second = await call('wfs_replay_to_app', { topic: 'workflow/completed' });
      assert.match(second.answer.body, /"duplicate":true/);
      assert.equal(app.handled.length, 2, 'the handler did not run again');
      assert.match(String(second.note), /already answered 2xx for webhookId/, JSON.stringify(second));
      assert.ok(String(second.note).includes(JSON.stringify(id)), `the note names the webhookId: ${second.note}`);
      assert.match(String(second.note), /freshWebhookId: true/);

      const fresh = await call('wfs_replay_to_app', { topic: 'workflow/completed', freshWebhookId: true });
      assert.equal(fresh.answer.status, 200);
      assert.equal(fresh.note, undefined);
      assert.match(fresh.answer.body, /"duplicate":false/);
      assert.equal(app.handled.length, 3, 'the handler ran under the fresh id');
      assert.notEqual(app.handled[2]!.webhookId, id);
      assert.equal(fresh.sent.webhookId, app.handled[2]!.webhookId);
    } finally {
      await client.close();
      await app.stop();
    }
  });
});
