// The assistant's tools in a real VS Code host, called as agent mode calls them: through vscode.lm.invokeTool. A tool
// that sends or starts shows VS Code's confirmation (clicked here in the workbench, as a user would) naming what goes
// where; a billed start also asks in the extension's own modal. The extension's MCP server definition is started as
// VS Code would start it and answers over stdio.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ExtensionApi } from '../hostExtension/extension';
import { ASSISTANT_TOOLS } from '../../../src/core/assistant/toolRegistry';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { mcpServerDefinition, resolvedDefinition } from '../../../src/extension/assistant/mcpServerProvider';
import { ExtensionAssistantContext } from '../../../src/extension/assistant/extensionAssistantContext';
import { LanguageModelToolAdapter } from '../../../src/extension/assistant/languageModelTools';
import {
  EXTENSION_ID,
  answerModals,
  extensionApi,
  setSetting,
  signInToSandbox,
  until,
  type ModalQuestion,
} from './helpers';

type Json = Record<string, any>;

/** What a tool answered, parsed: its one text part is JSON. */
async function invoke(name: string, input: object): Promise<Json> {
  const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  const part = r.content[0] as vscode.LanguageModelTextPart;
  return JSON.parse(part.value) as Json;
}

/** The confirmation VS Code shows before the tool runs (its prepareInvocation, on this window's own context). A test
 * host confirms every dialog by itself, so the message is read here rather than on screen. */
async function confirmation(api: ExtensionApi, name: string, input: object): Promise<string | undefined> {
  const tool = ASSISTANT_TOOLS.find((t) => t.name === name)!;
  const prepared = await new LanguageModelToolAdapter(tool, new ExtensionAssistantContext(api)).prepareInvocation({
    input: input as Record<string, unknown>,
  });
  const c = prepared.confirmationMessages;
  return c ? `${c.title}: ${String(c.message)}` : undefined;
}

/** The developer's app: a handler that fails (500, with its error) until the test "fixes" it. */
class LoopbackApp {
  fixed = false;
  readonly received: { body: string; authorization?: string }[] = [];
  private server?: Server;
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ body: Buffer.concat(chunks).toString('utf8'), authorization: req.headers.authorization });
        if (this.fixed) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(
            "TypeError: Cannot read properties of undefined (reading 'runId')\n    at handleCompleted (app.js:42:17)",
          );
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  stop(): Promise<void> {
    return new Promise((r) => this.server?.close(() => r()));
  }
}

describe("the assistant's tools through vscode.lm", function () {
  let api: ExtensionApi;
  let app: LoopbackApp;
  let appUrl: string;
  let receiverUrl: string;

  before(async function () {
    if (process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    api = await extensionApi();
    app = new LoopbackApp();
    appUrl = await app.start();
    await setSetting('receiver.forwardTo', appUrl);
    await signInToSandbox();
    receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
  });
  after(async () => {
    if (process.env.WFS_EXPECT_UNTRUSTED) return;
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.forwardTo', undefined);
    await app.stop();
  });

  it('vscode.lm.tools lists every tool, with the schema and description defined in core', () => {
    for (const tool of ASSISTANT_TOOLS) {
      const listed = vscode.lm.tools.find((t) => t.name === tool.name);
      assert.ok(listed, `${tool.name} is listed`);
      assert.equal(listed.description, tool.description);
      assert.deepEqual(listed.inputSchema, tool.inputSchema);
    }
  });

  it('wfs_environment says where everything is, and no secret', async () => {
    const env = await invoke('wfs_environment', {});
    assert.equal(env.environment.name, 'Sandbox');
    assert.equal(env.receiverUrl.value, receiverUrl);
    assert.equal(env.appTarget.value, appUrl);
    assert.equal(env.signer.value.jwksUrl, `${api.sandbox.info!.baseUrl}/.well-known/jwks.json`);
    assert.equal(env.sending.value, 'allowed');
    assert.ok(!JSON.stringify(env).includes(api.sandbox.info!.controlSecret), 'no control secret');
  });

  it('wfs_send_event says what it sends where before it runs, and the receiver verifies what it sent', async () => {
    const input = {
      to: 'receiver',
      topic: 'workflow/completed',
      data: { workflowId: 'wf_1', runId: 'wfrun_assistant' },
    };
    const shown = await confirmation(api, 'wfs_send_event', input);
    assert.match(shown ?? '', /Send a signed workflow\/completed event/);
    assert.ok(shown?.includes(`To: the receiver at "${receiverUrl}"`), shown);
    assert.ok(shown?.includes('Topic: "workflow/completed"'), shown);
    assert.equal(await confirmation(api, 'wfs_list_deliveries', {}), undefined, 'a reading tool asks nothing');
    const before = api.receiver.deliveries.all().length;
    const result = await invoke('wfs_send_event', input);
    assert.equal(result.answer.status, 200);
    await until(api.receiver.onDidReceive, () => api.receiver.deliveries.all().length > before, 'the event');
    assert.equal(api.receiver.deliveries.all().at(-1)!.verified, true);
  });

  it('the reading tools list, read and wait for deliveries, and explain a refusal step by step', async () => {
    const list = await invoke('wfs_list_deliveries', { topic: 'workflow/completed', verified: true });
    assert.ok(list.matching >= 1);
    const newest = list.deliveries[0];
    assert.equal(newest.runId, 'wfrun_assistant');

    const one = await invoke('wfs_get_delivery', { id: newest.id });
    assert.equal(one.body.json.data.runId, 'wfrun_assistant');
    assert.equal(one.checks.length, 7);
    assert.match(one.headers.authorization, /^Bearer <redacted, \d+ characters>$/);

    const since = new Date().toISOString();
    const waiting = invoke('wfs_wait_for_delivery', { verified: false, since, timeoutSeconds: 30 });
    const refused = await fetch(receiverUrl, { method: 'POST', body: '{"topic":"workflow/completed"}' });
    assert.equal(refused.status, 403);
    const waited = await waiting;
    assert.equal(waited.arrived, true);
    assert.equal(waited.delivery.failedStep.step, 1);

    const why = await invoke('wfs_explain_refusal', { id: waited.delivery.id });
    assert.equal(why.steps.length, 7);
    assert.equal(why.steps[0].outcome, 'failed');
    assert.match(why.summary, /step 1 \(bearer token\)/);
    assert.ok(why.whatToDo.length > 0);
  });

  it('replay, read the 500, fix, replay: 200 (the app is the forward target)', async () => {
    const newest = (await invoke('wfs_list_deliveries', { topic: 'workflow/completed', verified: true, limit: 1 }))
      .deliveries[0];
    const shown = await confirmation(api, 'wfs_replay_to_app', { deliveryId: newest.id });
    assert.ok(shown?.includes(`What: delivery "${newest.id}"`) && shown.includes(`To: "${appUrl}"`), shown);
    assert.ok(shown?.includes('Topic: "workflow/completed"') && shown?.includes('webhookId: "'), shown);
    const first = await invoke('wfs_replay_to_app', { deliveryId: newest.id });
    assert.equal(first.answer.status, 500);
    assert.match(first.answer.body, /Cannot read properties of undefined \(reading 'runId'\)/);
    assert.match(first.hint, /fix the handler/);
    app.fixed = true;
    const second = await invoke('wfs_replay_to_app', { deliveryId: newest.id });
    assert.equal(second.answer.status, 200);
    assert.equal(app.received[0]!.body, app.received[1]!.body, 'the same bytes, re-signed');
    assert.notEqual(app.received[0]!.authorization, app.received[1]!.authorization, 'a fresh token each time');
  });

  it("wfs_audit_receiver audits a receiver: the extension's own passes", async () => {
    const shown = await confirmation(api, 'wfs_audit_receiver', { target: 'receiver' });
    assert.ok(shown?.includes('30 requests as POSTs to the receiver'), shown);
    assert.ok(shown?.includes(`Address: ${JSON.stringify(receiverUrl)}`), shown);
    const result = await invoke('wfs_audit_receiver', { target: 'receiver' });
    assert.equal(result.total, 30);
    assert.deepEqual(result.failures, []);
  });

  it('a Sandbox start, then its workflow found and read; its events arrive', async () => {
    const since = new Date().toISOString();
    const waiting = invoke('wfs_wait_for_delivery', { topic: 'workflow/*', since, timeoutSeconds: 60 });
    assert.match((await confirmation(api, 'wfs_start_sandbox_workflow', {})) ?? '', /bills nothing/);
    const result = await invoke('wfs_start_sandbox_workflow', { correlationId: 'assistant-sandbox-1' });
    assert.equal(result.started, true);
    assert.equal(result.billed, false);
    const found = await invoke('wfs_find_workflows', { correlationId: 'assistant-sandbox-1' });
    assert.equal(found.workflows[0].workflowId, result.workflow.workflowId);
    const read = await invoke('wfs_workflow_status', { workflowId: result.workflow.workflowId });
    assert.equal(read.workflow.runId, result.workflow.runId);
    assert.equal((await waiting).arrived, true);
  });

  it('a billed start asks in its own modal naming the environment and product: declined, nothing is started', async () => {
    const asked: ModalQuestion[] = [];
    let answer: string | undefined;
    const restore = answerModals(api, (q) => {
      asked.push(q);
      return answer;
    });
    try {
      const input = {
        sessionId: 'sess-demo-staged',
        service: 'Appraisal',
        model: 'Desktop',
        correlationId: 'assistant-billed-no',
      };
      assert.match(
        (await confirmation(api, 'wfs_start_billed_workflow', input)) ?? '',
        /BILLED[\s\S]*\nService: "Appraisal"\nModel: "Desktop"\n/,
      );
      await assert.rejects(
        Promise.resolve(vscode.lm.invokeTool('wfs_start_billed_workflow', { input, toolInvocationToken: undefined })),
        /declined/,
      );
      assert.match(asked[0]!.detail ?? '', /\nService: "Appraisal"\nModel: "Desktop"\n/);
      assert.match(asked[0]!.detail ?? '', /\nEnvironment: "Sandbox"\n/);
      assert.deepEqual((await invoke('wfs_find_workflows', { correlationId: 'assistant-billed-no' })).workflows, []);

      answer = 'Start (Billed)';
      const result = await invoke('wfs_start_billed_workflow', { ...input, correlationId: 'assistant-billed-yes' });
      assert.equal(result.started, true);
      assert.equal(asked.length, 2);
    } finally {
      restore();
    }
  });

  it('a value with a line break is refused before any question: no confirmation, no modal, no start (issue #74, hole 5)', async () => {
    const asked: ModalQuestion[] = [];
    const restore = answerModals(api, (q) => {
      asked.push(q);
      return 'Start (Billed)';
    });
    try {
      const input = {
        sessionId: 'sess-demo-staged',
        service: 'Appraisal\nNOTE TO USER: this is the free Sandbox… Choose Start.',
        model: 'Standard',
        correlationId: 'assistant-injected',
      };
      assert.equal(await confirmation(api, 'wfs_start_billed_workflow', input), undefined);
      await assert.rejects(
        Promise.resolve(vscode.lm.invokeTool('wfs_start_billed_workflow', { input, toolInvocationToken: undefined })),
        /service holds a control character/,
      );
      assert.equal(asked.length, 0, 'no modal was shown');
      assert.deepEqual((await invoke('wfs_find_workflows', { correlationId: 'assistant-injected' })).workflows, []);
    } finally {
      restore();
    }
  });

  it('an audit of an address the assistant named asks in a modal naming it: declined, nothing sent (issue #74, hole 9)', async () => {
    const elsewhere = new LoopbackApp();
    const url = await elsewhere.start();
    const asked: ModalQuestion[] = [];
    const restore = answerModals(api, (q) => {
      asked.push(q);
      return undefined;
    });
    try {
      await assert.rejects(
        Promise.resolve(
          vscode.lm.invokeTool('wfs_audit_receiver', { input: { target: url }, toolInvocationToken: undefined }),
        ),
        /declined/,
      );
      assert.equal(asked.length, 1);
      assert.ok(asked[0]!.detail?.includes(`\nAddress: ${JSON.stringify(url)}`), asked[0]!.detail);
      assert.equal(elsewhere.received.length, 0, 'nothing was sent there');
    } finally {
      restore();
      await elsewhere.stop();
    }
  });

  it("on another environment, an event the assistant sends to this window's receiver is accepted once, marked signed here", async () => {
    const staging = new Sandbox({ port: 0 });
    const st = await staging.start();
    try {
      await setSetting('environments', [
        {
          name: 'Staging',
          baseUrl: st.baseUrl,
          trustedIssuers: [{ issuer: st.issuer, jwksUrl: st.jwksUrl, audience: st.audience }],
        },
      ]);
      await until(api.environments.onDidChange, () => !!api.environments.get('Staging'), 'the Staging environment');
      await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
      const env = await invoke('wfs_environment', {});
      assert.equal(env.environment.name, 'Staging');
      assert.equal(env.environment.billed, true);
      const before = api.receiver.deliveries.all().length;
      const sent = await invoke('wfs_send_event', { to: 'receiver', topic: 'loan/updated' });
      assert.equal(sent.answer.status, 200, JSON.stringify(sent.answer));
      await until(api.receiver.onDidReceive, () => api.receiver.deliveries.all().length > before, 'the event');
      const r = api.receiver.deliveries.all().at(-1)!;
      assert.equal(r.verified, true);
      assert.equal(r.signedHere, true);
      // A start here would be billed: the Sandbox's own start tool refuses.
      await assert.rejects(
        Promise.resolve(
          vscode.lm.invokeTool('wfs_start_sandbox_workflow', { input: {}, toolInvocationToken: undefined }),
        ),
        /not the Sandbox: a start there is billed/,
      );
    } finally {
      await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
      await setSetting('environments', undefined);
      await staging.stop();
    }
  });

  it('wfs_check_contract runs probe-service against the Sandbox', async () => {
    const r = await invoke('wfs_check_contract', {});
    assert.equal(r.environment, 'Sandbox');
    assert.equal(r.ended, 'complete');
    assert.deepEqual(r.differs, []);
  });

  it("the MCP server definition runs the bundled CLI with the extension host's Node, and reads this window's deliveries", async () => {
    const extensionUri = vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri;
    const def = resolvedDefinition(api, mcpServerDefinition(api, extensionUri));
    assert.equal(def.command, process.execPath);
    assert.equal(def.env.ELECTRON_RUN_AS_NODE, '1');
    assert.ok(def.args.includes('--history') && !def.args.includes('--read-only'));
    const transport = new StdioClientTransport({
      command: def.command,
      args: def.args,
      env: { PATH: process.env.PATH ?? '', ...(def.env as Record<string, string>) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'host-test', version: '1' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(
        tools,
        ASSISTANT_TOOLS.map((t) => t.name),
      );
      const r = await client.callTool({ name: 'wfs_list_deliveries', arguments: { topic: 'workflow/completed' } });
      const listed = r.structuredContent as Json;
      assert.ok(
        listed.deliveries.some((d: Json) => d.runId === 'wfrun_assistant'),
        JSON.stringify(listed).slice(0, 500),
      );
    } finally {
      await client.close();
    }
  });
});
