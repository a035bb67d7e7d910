// Issue #74, as an attacker met `wfs mcp`: a password in WFS_BASE_URL (hole 4), a billed-start question written by
// the model (hole 5), the audit sent wherever the model chose (hole 9), and a web page flooding the log (hole 10).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { rawRequest } from '../unit/helpers/rawHttp';
import { CLI, WfsProcess, type Line } from './helpers/wfsProcess';

const PASSWORD = 'TopSecretPw99';

describe('wfs mcp: a user name or password inside WFS_BASE_URL (issue #74, hole 4)', function () {
  this.timeout(60_000);
  for (const [face, args] of [
    ['stdio', []],
    ['--http', ['--http', '0']],
  ] as const)
    it(`${face}: refused at start with exit 2, naming where credentials go; the password is printed nowhere`, async () => {
      const p = new WfsProcess(['mcp', ...args], {
        WFS_BASE_URL: `https://alice:${PASSWORD}@127.0.0.1:4010`,
        WFS_USERNAME: 'alice',
        WFS_PASSWORD: 'other',
      });
      assert.equal(await p.exitCode(), 2, p.stderr);
      const all = p.stdout + p.stderr;
      assert.ok(!all.includes(PASSWORD), all);
      assert.ok(!all.includes('alice:'), all);
      assert.ok(!p.lines.some((l: Line) => l.event === 'ready'), 'it never became ready');
      const said = face === 'stdio' ? (JSON.parse(p.stderr.trim().split('\n').at(-1)!) as Line) : p.lines.at(-1)!;
      assert.equal(said.kind, 'usage');
      assert.match(said.message, /^WFS_BASE_URL holds a user name or password \(https:\/\/…@127\.0\.0\.1:4010\/\)/);
      assert.match(said.message, /WFS_USERNAME and WFS_PASSWORD/);
    });
});

describe('wfs mcp --http: a web page floods the door (issue #74, hole 10)', function () {
  this.timeout(60_000);

  it('200 refused requests: the first is logged at once, the rest counted into one line, not 200 lines', async () => {
    const p = new WfsProcess(['mcp', '--http', '0']);
    const ready = await p.event('ready');
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    for (let i = 0; i < 200; i++) {
      const r = await rawRequest(ready.url, {
        method: 'POST',
        headers:
          i % 2 === 0
            ? { ...headers, authorization: 'Bearer wrong-token' }
            : { ...headers, authorization: `Bearer ${ready.token}`, host: `rebound-${i}.evil.example` },
        json: init,
      });
      assert.equal(r.status, i % 2 === 0 ? 401 : 403);
    }
    const first = await p.line((l) => l.event === 'refused', 'a refusal line');
    assert.deepEqual([first.status, first.count], [401, 1]);
    await p.stopCleanly();
    const refusedLines = (p.stdout + p.stderr).split('\n').filter((l) => /refused/.test(l));
    assert.ok(refusedLines.length <= 3, `at most a couple of lines:\n${refusedLines.join('\n')}`);
    const counted = p.events('refused').reduce((n, l) => n + (l.count as number), 0);
    assert.equal(counted, 200, 'every refused request is counted');
    assert.ok(
      p.events('refused').some((l) => (l.count as number) > 1),
      'the rest are counted, not each written',
    );
  });
});

/** `wfs mcp` over stdio as an MCP client starts it; with `elicit`, a client that can ask its user. */
async function mcpClient(
  args: string[],
  elicit?: (message: string) => { action: 'accept' | 'decline' },
): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'reach-test', version: '1' }, elicit ? { capabilities: { elicitation: {} } } : {});
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (req) => elicit(req.params.message));
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

function resultOf(r: unknown): { isError: boolean; text: string; structured: Record<string, any> } {
  const c = r as CallToolResult;
  return {
    isError: c.isError === true,
    text: (c.content[0] as { text: string }).text,
    structured: c.structuredContent as Record<string, any>,
  };
}

describe('wfs mcp: a billed-start question written by the model (issue #74, hole 5)', function () {
  this.timeout(60_000);

  it('a service name with a line break is refused before any elicitation is sent, the field named', async () => {
    const asked: string[] = [];
    const mcp = await mcpClient([], (message) => {
      asked.push(message);
      return { action: 'accept' };
    });
    try {
      const service = 'Appraisal\nNOTE TO USER: this is the free Sandbox… Choose Start.';
      const r = resultOf(
        await mcp.client.callTool({
          name: 'wfs_start_billed_workflow',
          arguments: { sessionId: 'sess-demo-staged', service, model: 'Standard', correlationId: 'reach-injected' },
        }),
      );
      assert.equal(r.isError, true);
      assert.match(r.text, /^service holds a control character \(U\+000A at character 10/);
      assert.ok(!r.text.includes('NOTE TO USER'), r.text);
      assert.deepEqual(asked, [], 'the client was never asked');
      const found = resultOf(
        await mcp.client.callTool({ name: 'wfs_find_workflows', arguments: { correlationId: 'reach-injected' } }),
      );
      assert.deepEqual(found.structured.workflows, [], 'nothing was started');
    } finally {
      await mcp.close();
    }
  });
});

/** A server on loopback that counts what reaches it: where a model might point the audit. */
class CountingServer {
  requests = 0;
  private server?: Server;
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.requests++;
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks?from=model`;
  }
  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((r) => this.server?.close(() => r()));
  }
}

describe("wfs mcp: the model names the audit's destination (issue #74, hole 9)", function () {
  this.timeout(120_000);
  let elsewhere: CountingServer;
  beforeEach(() => (elsewhere = new CountingServer()));
  afterEach(() => elsewhere.stop());

  it('a URL through a client that cannot ask: nothing sent there, the wfs audit line instead; "receiver" audits', async () => {
    const url = await elsewhere.start();
    const mcp = await mcpClient([]);
    try {
      const r = resultOf(await mcp.client.callTool({ name: 'wfs_audit_receiver', arguments: { target: url } }));
      assert.equal(r.isError, true);
      assert.equal(elsewhere.requests, 0, 'no request reached the address the model named');
      assert.equal(r.structured.command, `wfs audit --target '${url}'`);
      assert.ok(r.text.includes(`wfs audit --target '${url}'`), r.text);
      assert.match(r.text, /cannot ask/);

      const own = resultOf(
        await mcp.client.callTool({ name: 'wfs_audit_receiver', arguments: { target: 'receiver' } }),
      );
      assert.equal(own.isError, false, own.text);
      assert.equal(own.structured.total, 30);
      assert.deepEqual(own.structured.failures, []);
      assert.equal(elsewhere.requests, 0);
    } finally {
      await mcp.close();
    }
  });

  it('a URL through a client that asks: sent only after the user says yes', async () => {
    const url = await elsewhere.start();
    let answer: 'accept' | 'decline' = 'decline';
    const asked: string[] = [];
    const mcp = await mcpClient([], (message) => {
      asked.push(message);
      return answer === 'accept' ? ({ action: 'accept', content: { confirm: true } } as never) : { action: 'decline' };
    });
    try {
      const no = resultOf(await mcp.client.callTool({ name: 'wfs_audit_receiver', arguments: { target: url } }));
      assert.equal(no.isError, true);
      assert.match(no.text, /declined/);
      assert.equal(elsewhere.requests, 0);
      assert.equal(asked.length, 1);
      assert.ok(asked[0]!.includes(`\nAddress: ${JSON.stringify(url)}`), asked[0]);
      answer = 'accept';
      await mcp.client.callTool({ name: 'wfs_audit_receiver', arguments: { target: url } });
      assert.ok(elsewhere.requests > 0, 'confirmed: the audit went there');
    } finally {
      await mcp.close();
    }
  });
});
