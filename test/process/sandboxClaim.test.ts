// Issue #79, item 1: a server cannot make itself free by claiming to be a sandbox, and a fixed port gives a stable
// key set. `wfs mcp` takes WFS_BASE_URL for the Sandbox only when it proves it holds WFS_SANDBOX_SECRET; a loopback
// server that answers every sandbox route, accepts any secret but cannot make the proof stays billed, never sees the
// secret, and the Sandbox start is refused with the words that say how. `wfs sandbox --port P` twice, then
// `wfs mcp --sandbox-port P`, publish the same key set at the same address, kept in a 0600 file of the state folder.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, TEST_STATE_DIR, WfsProcess } from './helpers/wfsProcess';

type Json = Record<string, any>;

/** Answers like a `wfs sandbox` on every route it is asked, whatever secret comes; its proof is made up. */
class PretendSandbox {
  readonly secretsSeen: string[] = [];
  private server?: Server;
  url = '';
  async start(): Promise<string> {
    this.server = createServer((req: IncomingMessage, res) => {
      const secret = req.headers['x-sandbox-secret'];
      if (typeof secret === 'string') this.secretsSeen.push(secret);
      req.resume();
      const path = (req.url ?? '/').split('?')[0];
      const json = (v: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (path === '/sandbox/claim') return json({ baseUrl: this.url, proof: randomBytes(32).toString('hex') });
      if (path === '/sandbox')
        return json({
          baseUrl: this.url,
          issuer: 'https://sandbox.workflow-service.invalid/webhooks',
          audience: 'workflow-service-toolkit',
          jwksUrl: `${this.url}/.well-known/jwks.json`,
          products: [],
        });
      return json({ ok: true });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }
  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((r) => this.server?.close(() => r()));
  }
}

async function mcpClient(args: string[], env: Record<string, string>) {
  const client = new Client({ name: 'sandbox-claim', version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', WFS_STATE_DIR: TEST_STATE_DIR, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  await client.connect(transport);
  const call = async (name: string, a: Json = {}) => (await client.callTool({ name, arguments: a })) as CallToolResult;
  return { client, call, stderr: () => stderr };
}

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function keySet(jwksUrl: string): Promise<unknown> {
  return (await fetch(jwksUrl)).json();
}

describe('wfs mcp: WFS_BASE_URL is the Sandbox only when it proves it (#79, item 1)', function () {
  this.timeout(60_000);

  it('a loopback server answering like a sandbox, without the secret, stays billed and never gets the secret', async () => {
    const pretend = new PretendSandbox();
    const url = await pretend.start();
    const secret = randomBytes(32).toString('hex');
    const { client, call, stderr } = await mcpClient([], {
      WFS_BASE_URL: url,
      WFS_USERNAME: 'demo',
      WFS_PASSWORD: 'demo-password',
      WFS_SANDBOX_SECRET: secret,
    });
    try {
      const env = (await call('wfs_environment')).structuredContent as Json;
      assert.equal(env.environment.isSandbox, false);
      assert.equal(env.environment.billed, true);
      assert.match(env.environment.toSandbox, /did not prove that it holds WFS_SANDBOX_SECRET/);
      const refused = await call('wfs_start_sandbox_workflow', {});
      assert.equal(refused.isError, true);
      const words = (refused.content[0] as { text: string }).text;
      assert.match(words, /not the Sandbox: a start there is billed/);
      assert.match(words, /--sandbox-url URL/);
      assert.match(words, /`export` line `wfs sandbox` prints/);
      assert.match(stderr(), /is taken for a billed service, not the Sandbox/);
      assert.deepEqual(pretend.secretsSeen, [], 'the secret was never sent to it');
    } finally {
      await client.close();
      await pretend.stop();
    }
  });

  it('a wfs sandbox on this machine whose secret is held: isSandbox, not billed, and it signs', async () => {
    const sandbox = new WfsProcess(['sandbox', '--port', '0']);
    const ready = await sandbox.event('ready');
    const { client, call } = await mcpClient([], {
      WFS_BASE_URL: ready.baseUrl,
      WFS_SANDBOX_SECRET: ready.controlSecret,
    });
    try {
      const env = (await call('wfs_environment')).structuredContent as Json;
      assert.deepEqual(
        { isSandbox: env.environment.isSandbox, billed: env.environment.billed, toSandbox: env.environment.toSandbox },
        { isSandbox: true, billed: false, toSandbox: undefined },
      );
      assert.equal(env.signer.value.jwksUrl, ready.jwksUrl);
      const started = (await call('wfs_start_sandbox_workflow', {})).structuredContent as Json;
      assert.equal(started.started, true);
    } finally {
      await client.close();
    }
    await sandbox.stopCleanly();
  });

  it("another sandbox's secret: billed, it did not prove to hold it", async () => {
    const sandbox = new WfsProcess(['sandbox', '--port', '0']);
    const ready = await sandbox.event('ready');
    const other = new WfsProcess(['sandbox', '--port', '0']);
    const otherReady = await other.event('ready');
    const { client, call } = await mcpClient([], {
      WFS_BASE_URL: otherReady.baseUrl,
      WFS_SANDBOX_SECRET: ready.controlSecret,
    });
    try {
      const env = (await call('wfs_environment')).structuredContent as Json;
      assert.equal(env.environment.billed, true);
      assert.match(env.environment.toSandbox, /did not prove that it holds WFS_SANDBOX_SECRET/);
    } finally {
      await client.close();
    }
    await sandbox.stopCleanly();
    await other.stopCleanly();
  });
});

describe('a fixed port keeps its key set (#79, item 1)', function () {
  this.timeout(60_000);

  it('wfs sandbox --port P twice, then wfs mcp --sandbox-port P: one key-set address, one key', async () => {
    const port = await freePort();
    const first = new WfsProcess(['sandbox', '--port', String(port)]);
    const a = await first.event('ready');
    const keysA = await keySet(a.jwksUrl);
    assert.equal(statSync(a.keptIn).mode & 0o777, 0o600, 'the kept key is readable by its owner alone');
    assert.ok(a.keptIn.startsWith(TEST_STATE_DIR), 'kept in the state folder, not the workspace');
    await first.stopCleanly();

    const second = new WfsProcess(['sandbox', '--port', String(port)]);
    const b = await second.event('ready');
    assert.equal(b.jwksUrl, a.jwksUrl);
    assert.equal(b.kid, a.kid);
    assert.equal(b.controlSecret, a.controlSecret, 'the export line pasted before still holds');
    assert.deepEqual(await keySet(b.jwksUrl), keysA);
    await second.stopCleanly();

    const { client, call } = await mcpClient(['--sandbox-port', String(port)], {});
    try {
      const env = (await call('wfs_environment')).structuredContent as Json;
      assert.equal(env.signer.value.jwksUrl, a.jwksUrl);
      assert.deepEqual(await keySet(a.jwksUrl), keysA, "the app's trust in that key set survives");
    } finally {
      await client.close();
    }
  });
});
