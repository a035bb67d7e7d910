// `wfs mcp` as an MCP client meets it: spawned over stdio by the SDK's Client, and served over Streamable HTTP on
// loopback. Every tool is called; the replay-fix-replay loop runs against a small app that first answers 500, then 200;
// a billed start is refused with the exact `wfs start` command where the client cannot ask, and asked through
// elicitation where it can; a request with a foreign Origin or Host, or without the token, is refused at the door.
// No answer carries the sandbox's control secret or password.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { rawRequest } from '../unit/helpers/rawHttp';
import { CLI, WfsProcess, withSandboxProcess, type Line } from './helpers/wfsProcess';

type Json = Record<string, any>;

/** The developer's app: its handler fails (500, with its error) until the test "fixes" it. */
class FlakyApp {
  fixed = false;
  readonly bodies: string[] = [];
  private server?: Server;
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.bodies.push(Buffer.concat(chunks).toString('utf8'));
        if (this.fixed) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end("TypeError: Cannot read properties of undefined (reading 'runId')");
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

/** `wfs mcp` over stdio, as an MCP client starts it; its stderr lines (JSON) collected. */
async function stdioClient(
  args: string[],
  env: Record<string, string>,
  o: { elicit?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Json } } = {},
): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client(
    { name: 'process-test', version: '1' },
    o.elicit ? { capabilities: { elicitation: {} } } : {},
  );
  if (o.elicit) {
    const answer = o.elicit;
    client.setRequestHandler(ElicitRequestSchema, (req) => answer(req.params.message));
  }
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

function structured(r: unknown): Json {
  return (r as CallToolResult).structuredContent as Json;
}

describe('wfs mcp over stdio', function () {
  this.timeout(120_000);
  const s = withSandboxProcess();
  let app: FlakyApp;
  let appUrl: string;
  let mcp: Awaited<ReturnType<typeof stdioClient>>;
  const outputs: string[] = [];
  const call = async (name: string, args: Json = {}) => {
    const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
    outputs.push(JSON.stringify(r));
    return r;
  };

  before(async () => {
    app = new FlakyApp();
    appUrl = await app.start();
    mcp = await stdioClient(['--sandbox-url', s.info.baseUrl, '--forward-to', appUrl], {
      WFS_SANDBOX_SECRET: s.info.controlSecret,
    });
  });
  after(async () => {
    await mcp?.close();
    await app?.stop();
  });

  it('lists every tool with its schema and annotations; its own lines go to stderr, never stdout', async () => {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [
        'wfs_environment',
        'wfs_list_deliveries',
        'wfs_get_delivery',
        'wfs_explain_refusal',
        'wfs_wait_for_delivery',
        'wfs_replay_to_app',
        'wfs_send_event',
        'wfs_audit_receiver',
        'wfs_find_workflows',
        'wfs_workflow_status',
        'wfs_start_sandbox_workflow',
        'wfs_start_billed_workflow',
        'wfs_check_contract',
      ],
    );
    const billed = tools.find((t) => t.name === 'wfs_start_billed_workflow')!;
    assert.equal(billed.annotations?.destructiveHint, true);
    assert.equal(tools.find((t) => t.name === 'wfs_list_deliveries')!.annotations?.readOnlyHint, true);
    assert.equal(billed.inputSchema.type, 'object');
    const ready = JSON.parse(mcp.stderr().split('\n')[0]!) as Line;
    assert.equal(ready.event, 'ready');
    assert.equal(ready.transport, 'stdio');
  });

  it('the setup, an event sent to its own receiver, the delivery read whole, a refusal explained', async () => {
    const env = structured(await call('wfs_environment'));
    assert.equal(env.environment.name, 'Sandbox');
    assert.equal(env.appTarget.value, appUrl);
    const receiver = env.receiverUrl.value as string;
    const sent = structured(
      await call('wfs_send_event', { to: 'receiver', topic: 'workflow/completed', data: { runId: 'wfrun_mcp' } }),
    );
    assert.equal(sent.answer.status, 200);
    const list = structured(await call('wfs_list_deliveries', { topic: 'workflow/completed' }));
    assert.equal(list.deliveries[0].runId, 'wfrun_mcp');
    assert.equal(list.deliveries[0].verified, true);
    const one = structured(await call('wfs_get_delivery', { id: list.deliveries[0].id }));
    assert.equal(one.body.json.data.runId, 'wfrun_mcp');
    assert.equal(one.checks.length, 7);
    const since = new Date().toISOString();
    const waiting = call('wfs_wait_for_delivery', { verified: false, since, timeoutSeconds: 30 });
    assert.equal((await rawRequest(receiver, { method: 'POST', body: '{}' })).status, 403);
    const waited = structured(await waiting);
    assert.equal(waited.arrived, true);
    const why = structured(await call('wfs_explain_refusal', { id: waited.delivery.id }));
    assert.match(why.summary, /step 1 \(bearer token\)/);
  });

  it('replay, read the 500, fix, replay: 200 (the same delivery, re-signed, to --forward-to)', async () => {
    // The receiver forwarded the event to the app once already, as it arrived.
    const before = app.bodies.length;
    const first = await call('wfs_replay_to_app', { topic: 'workflow/completed' });
    const a = structured(first);
    assert.equal(a.answer.status, 500);
    assert.match(a.answer.body, /Cannot read properties of undefined/);
    assert.match(a.hint, /fix the handler/);
    app.fixed = true;
    const b = structured(await call('wfs_replay_to_app', { topic: 'workflow/completed' }));
    assert.equal(b.answer.status, 200);
    assert.equal(app.bodies.length, before + 2);
    assert.equal(app.bodies[before], app.bodies[before + 1]);
  });

  it('the audit of its own receiver passes all 30 cases', async () => {
    const env = structured(await call('wfs_environment'));
    const r = structured(await call('wfs_audit_receiver', { target: 'receiver' }));
    assert.equal(r.target, env.receiverUrl.value);
    assert.equal(r.total, 30);
    assert.deepEqual(r.failures, []);
  });

  it('a Sandbox start, found by its correlationId and read; its events reach the receiver', async () => {
    const since = new Date().toISOString();
    const started = structured(await call('wfs_start_sandbox_workflow', { correlationId: 'mcp-process-1' }));
    assert.equal(started.started, true);
    assert.equal(started.billed, false);
    const found = structured(await call('wfs_find_workflows', { correlationId: 'mcp-process-1' }));
    assert.equal(found.workflows[0].workflowId, started.workflow.workflowId);
    const read = structured(await call('wfs_workflow_status', { workflowId: started.workflow.workflowId }));
    assert.equal(read.workflow.runId, started.workflow.runId);
    const event = structured(await call('wfs_wait_for_delivery', { topic: 'workflow/*', since, timeoutSeconds: 30 }));
    assert.equal(event.delivery.runId, started.workflow.runId);
  });

  it('a billed start is refused where the client cannot ask: the exact wfs start command, nothing billed', async () => {
    const r = await call('wfs_start_billed_workflow', {
      sessionId: 'sess-demo-staged',
      service: 'Appraisal',
      model: 'Standard',
      correlationId: 'mcp-billed-refused',
    });
    assert.equal(r.isError, true);
    const d = structured(r);
    assert.equal(
      d.command,
      'wfs start --session sess-demo-staged --service Appraisal --model Standard --correlation-id mcp-billed-refused',
    );
    assert.match((r.content[0] as { text: string }).text, /cannot ask/);
    const billing = (await s.control('GET', 'billing')).json() as { billed: { correlationId: string }[] };
    assert.ok(!billing.billed.some((b) => b.correlationId === 'mcp-billed-refused'));
  });

  it('the contract check of the sandbox finds nothing that differs', async () => {
    const r = structured(await call('wfs_check_contract'));
    assert.equal(r.ended, 'complete');
    assert.deepEqual(r.differs, []);
  });

  it("no answer carried the sandbox's control secret or password", () => {
    assert.ok(outputs.length >= 15);
    for (const o of outputs) {
      assert.ok(!o.includes(s.info.controlSecret), o.slice(0, 300));
      assert.ok(!o.includes(s.info.password), o.slice(0, 300));
    }
  });
});

describe('wfs mcp: usage errors on stdio', function () {
  it('are said on stderr, never on stdout (the client reads stdout as the protocol), with exit 2', async () => {
    const p = new WfsProcess(['mcp', '--forward-to', 'https://app.example/hooks']);
    assert.equal(await p.exitCode(), 2);
    assert.equal(p.stdout, '');
    const line = JSON.parse(p.stderr.trim().split('\n').at(-1)!) as Line;
    assert.equal(line.kind, 'usage');
    assert.match(line.message, /not on this machine: add --allow-remote/);
  });
});

describe('wfs mcp: a billed start through a client that asks the user (MCP elicitation)', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();

  it('declined: nothing is started; confirmed: one start, after a question naming environment and product', async () => {
    const asked: string[] = [];
    let accept = false;
    const mcp = await stdioClient(
      ['--sandbox-url', s.info.baseUrl],
      { WFS_SANDBOX_SECRET: s.info.controlSecret },
      {
        elicit: (message) => {
          asked.push(message);
          return accept ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
        },
      },
    );
    try {
      const input = { sessionId: 'sess-demo-staged', service: 'Appraisal', model: 'Desktop' };
      const no = await mcp.client.callTool({
        name: 'wfs_start_billed_workflow',
        arguments: { ...input, correlationId: 'mcp-elicit-no' },
      });
      assert.equal(no.isError, true);
      assert.match(
        asked[0]!,
        /BILLED[\s\S]*\nEnvironment: "Sandbox"\n[\s\S]*\nService: "Appraisal"\nModel: "Desktop"\n/,
      );
      accept = true;
      const yes = structured(
        await mcp.client.callTool({
          name: 'wfs_start_billed_workflow',
          arguments: { ...input, correlationId: 'mcp-elicit-yes' },
        }),
      );
      assert.equal(yes.started, true);
      const billed = ((await s.control('GET', 'billing')).json() as { billed: { correlationId: string }[] }).billed.map(
        (b) => b.correlationId,
      );
      assert.ok(billed.includes('mcp-elicit-yes'));
      assert.ok(!billed.includes('mcp-elicit-no'));
    } finally {
      await mcp.close();
    }
  });
});

describe('wfs mcp --http: Streamable HTTP on loopback', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();

  it('serves an MCP client that carries the token; refuses a foreign Origin, a foreign Host, and no token', async () => {
    const p = new WfsProcess(['mcp', '--http', '0', '--sandbox-url', s.info.baseUrl]);
    const ready = await p.event('ready');
    assert.equal(ready.transport, 'http');
    assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(ready.token, /^[\w-]{32}$/);
    const token = ready.token as string;

    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(ready.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    assert.equal((await client.listTools()).tools.length, 13);
    const env = structured(await client.callTool({ name: 'wfs_environment', arguments: {} }));
    assert.equal(env.environment.isSandbox, true);
    await client.close();

    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const noToken = await rawRequest(ready.url, { method: 'POST', headers, json: init });
    assert.equal(noToken.status, 401);
    const wrongToken = await rawRequest(ready.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token.slice(1)}x` },
      json: init,
    });
    assert.equal(wrongToken.status, 401);
    const foreignOrigin = await rawRequest(ready.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}`, origin: 'https://evil.example' },
      json: init,
    });
    assert.equal(foreignOrigin.status, 403);
    assert.match(foreignOrigin.text, /web origin https:\/\/evil\.example/);
    const foreignHost = await rawRequest(ready.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}`, host: 'rebound.evil.example:80' },
      json: init,
    });
    assert.equal(foreignHost.status, 403);
    // The first refusal is logged at once; the rest within 10 s are counted into one line, written at the latest
    // when it stops (refusalLog.ts).
    const first = await p.line((l) => l.event === 'refused', 'refused');
    assert.deepEqual([first.status, first.count], [401, 1]);
    await p.stopCleanly();
    const last = p.events('refused').at(-1)!;
    assert.equal(last.host, 'rebound.evil.example:80');
    assert.equal(last.count, 3);
    // The token is said once, in the ready line, and nowhere else.
    assert.equal(p.stdout.split(token).length - 1, 1);
    assert.ok(!p.stderr.includes(token));
  });
});

describe('wfs mcp --history: the deliveries of a running `wfs listen --log FILE`', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();

  it('reads them without its lock and without changing the file; events sent to that receiver show up', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-mcp-history-')), 'deliveries.jsonl');
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--log', file]);
    const { url } = await listen.event('ready');
    const lock = readFileSync(`${file}.lock`, 'utf8');
    const mcp = await stdioClient(['--history', file, '--receiver-url', url, '--sandbox-url', s.info.baseUrl], {
      WFS_SANDBOX_SECRET: s.info.controlSecret,
    });
    try {
      const sent = structured(
        await mcp.client.callTool({ name: 'wfs_send_event', arguments: { to: 'receiver', topic: 'loan/updated' } }),
      );
      assert.equal(sent.answer.status, 200);
      await listen.event('delivery');
      const sizeAfterListen = statSync(file).size;
      const list = structured(await mcp.client.callTool({ name: 'wfs_list_deliveries', arguments: {} }));
      assert.match(list.source, /read-only/);
      assert.equal(list.deliveries[0].topic, 'loan/updated');
      assert.equal(list.deliveries[0].verified, true);
      assert.equal(readFileSync(`${file}.lock`, 'utf8'), lock, "the listener's lock is untouched");
      assert.equal(statSync(file).size, sizeAfterListen, 'reading wrote nothing');
    } finally {
      await mcp.close();
    }
    await listen.stopCleanly();
  });
});
