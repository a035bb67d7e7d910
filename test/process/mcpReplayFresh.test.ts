// Issue #79, item 2, where it was met: replay, fix, replay against an app that dedupes on webhookId, as the spec
// asks. A replay under the same webhookId is answered "duplicate" and skips the fixed handler: the tool says so.
// With freshWebhookId the body changes in that value only, is signed anew, and the handler runs.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mcpOverStdio, type Json } from './helpers/mcpClient';

/** An app that dedupes on webhookId: a processed id is answered {"ok":true,"duplicate":true} and not handled again. */
class DedupingApp {
  version = 1;
  readonly handled: { version: number; webhookId: string; body: string }[] = [];
  private readonly seen = new Set<string>();
  private server?: Server;
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const id = (JSON.parse(body) as Json).webhookId as string;
        const duplicate = this.seen.has(id);
        if (!duplicate) {
          this.seen.add(id);
          this.handled.push({ version: this.version, webhookId: id, body });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, duplicate }));
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

describe('wfs mcp: replay, fix, replay against an app that dedupes (#79)', function () {
  this.timeout(60_000);

  it('the same webhookId is said to be a likely duplicate; freshWebhookId reaches the fixed handler', async () => {
    const app = new DedupingApp();
    const appUrl = await app.start();
    const { client, call } = await mcpOverStdio(['--forward-to', appUrl]);
    try {
      const sent = await call('wfs_send_event', { to: 'receiver', topic: 'workflow/completed', data: { runId: 'r1' } });
      assert.equal(sent.answer.status, 200);
      assert.equal(app.handled.length, 1, 'the receiver forwarded it, and version 1 handled it');
      app.version = 2; // the fix
      const same = await call('wfs_replay_to_app', { topic: 'workflow/completed' });
      assert.match(same.answer.body, /"duplicate":true/);
      assert.match(same.note, /already answered 2xx for webhookId/);
      assert.match(same.note, /freshWebhookId: true/);
      assert.equal(app.handled.length, 1, 'the fixed handler did not run');

      const fresh = await call('wfs_replay_to_app', { topic: 'workflow/completed', freshWebhookId: true });
      assert.equal(fresh.answer.status, 200);
      assert.match(fresh.answer.body, /"duplicate":false/);
      assert.equal(fresh.note, undefined);
      assert.equal(app.handled.length, 2);
      const [first, second] = app.handled;
      assert.equal(second!.version, 2, 'the fixed handler ran');
      assert.notEqual(second!.webhookId, first!.webhookId);
      assert.equal(fresh.sent.webhookId, second!.webhookId);
      // Only the id's value changed: the rest of the body is byte for byte the same.
      assert.equal(second!.body.replace(second!.webhookId, first!.webhookId), first!.body);
    } finally {
      await client.close();
      await app.stop();
    }
  });
});
