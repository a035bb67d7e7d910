// Issue #74, hole 3, where it was found: `wfs listen --pass-through` forwards a genuine delivery W to an app that
// fails, and answers 5xx (so the service will send W again); `wfs mcp --history` reads that receiver's history.
// The assistant then sends an event signed here under the same webhookId W. The service's retry of W must still
// reach the app: a delivery signed here never enters the service's duplicate set.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SandboxControlClient } from '../../src/core/sandbox/sandboxControlClient';
import { rawRequest } from '../unit/helpers/rawHttp';
import { CLI, WfsProcess, withSandboxProcess } from './helpers/wfsProcess';

type Json = Record<string, any>;

/** An app whose handler fails until fixed; it records the webhookId of every body it is sent. */
class RecordingApp {
  fixed = false;
  readonly webhookIds: string[] = [];
  private server?: Server;
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.webhookIds.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json).webhookId);
        res.writeHead(this.fixed ? 200 : 500, { 'content-type': 'text/plain' }).end(this.fixed ? 'ok' : 'failing');
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

describe('wfs listen and wfs mcp: a delivery signed here never makes the service’s retry a duplicate (#74)', function () {
  this.timeout(120_000);
  const s = withSandboxProcess();
  let app: RecordingApp;
  let client: Client;
  let listen: WfsProcess;
  let receiver: string;

  // Started inside the test: the process tier's root hook kills every child still running after each test.
  const start = async () => {
    app = new RecordingApp();
    const appUrl = await app.start();
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-signed-here-')), 'deliveries.jsonl');
    listen = new WfsProcess([
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--log',
      file,
      '--forward-to',
      appUrl,
      '--pass-through',
    ]);
    receiver = (await listen.event('ready')).url as string;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--history', file, '--receiver-url', receiver, '--sandbox-url', s.info.baseUrl],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', WFS_SANDBOX_SECRET: s.info.controlSecret },
      stderr: 'pipe',
    });
    client = new Client({ name: 'process-test', version: '1' });
    await client.connect(transport);
  };

  const call = async (name: string, args: Json = {}): Promise<Json> =>
    ((await client.callTool({ name, arguments: args })) as CallToolResult).structuredContent as Json;

  it('the service’s retry of W is forwarded to the app after an event signed here under W', async () => {
    await start();
    try {
      await checkRetryReachesApp();
    } finally {
      await client.close();
      await app.stop();
    }
    await listen.stopCleanly();
  });

  async function checkRetryReachesApp(): Promise<void> {
    const W = randomUUID();
    const body = Buffer.from(
      JSON.stringify({
        webhookId: W,
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 't1',
        triggeredAt: '2026-11-28T10:00:00.1234567Z',
        actorId: 'svc',
        data: { runId: 'wfrun_1' },
      }),
    );
    // The service's delivery of W: signed by the sandbox's key without the mark of a token signed on request.
    const { token } = await new SandboxControlClient(s.info.baseUrl, s.info.controlSecret).sign(body, {
      claims: { wfs_signed_here: null },
    });
    const deliver = () =>
      rawRequest(receiver, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
    const first = await deliver();
    assert.ok(first.status >= 500, `the app failed, so the receiver answers 5xx: ${first.status} ${first.text}`);

    app.fixed = true;
    const sent = await call('wfs_send_event', { to: 'receiver', topic: 'workflow/completed', webhookId: W });
    assert.equal(sent.answer.status, 200);

    const retry = await deliver();
    assert.equal(retry.status, 200);
    assert.doesNotMatch(retry.text, /duplicate/);
    // The service's delivery, the copy signed here, then the service's retry: all three reached the app.
    assert.deepEqual(app.webhookIds, [W, W, W]);

    const listed = (await call('wfs_list_deliveries', { limit: 3 })).deliveries as Json[];
    assert.equal(listed.filter((d) => d.duplicate === true).length, 0, JSON.stringify(listed));
    // Once the service's copy is acknowledged, its retry is a duplicate again: the set holds the service's own.
    const again = await deliver();
    assert.equal(again.status, 200);
    assert.match(again.text, /duplicate/);
    assert.equal(app.webhookIds.length, 3);
  }
});
