// Acceptance check for issue #79, written apart from the implementation: only from the issue's "Done when" and
// "What to build", and the user docs (docs/agents.md's setup lines, docs/cli.md, docs/testkit.md, `wfs … --help`).
// `wfs` is the built CLI, spawned with real timers; `wfs mcp` is driven by the official MCP SDK client over stdio;
// the apps are real local servers verifying with jose.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
// docs/testkit.md imports it as 'workflow-service-cli/testkit'; in the repository that package is src/testkit.
import { buildEvent } from '../../../src/testkit';
import { CLI, startSandboxProcess, TEST_STATE_DIR, WfsProcess, type Line } from '../helpers/wfsProcess';
import { freePort, SANDBOX_AUDIENCE, SANDBOX_ISSUER, startJoseApp } from './apps';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'wfs-acc79-'));

/** `wfs sandbox --port P` as docs/agents.md starts it, and the environment its export line sets. */
async function userSandbox(
  port: number,
  extra: string[] = [],
): Promise<{ proc: WfsProcess; ready: Line; env: Record<string, string> }> {
  const proc = new WfsProcess(['sandbox', '--port', String(port), ...extra], { WFS_SANDBOX_SECRET: '' });
  const ready = await proc.event('ready');
  return {
    proc,
    ready,
    env: {
      WFS_BASE_URL: ready.baseUrl,
      WFS_USERNAME: ready.username,
      WFS_PASSWORD: ready.password,
      WFS_SANDBOX_SECRET: ready.controlSecret,
    },
  };
}

interface Mcp {
  client: Client;
  stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

/** `wfs mcp ARGS` started by the SDK's stdio client, as Claude Code or Cursor starts it, with `env` (the export
 * line's variables: Claude Code passes its environment on; the Cursor block names two of them). */
async function mcp(args: string[], env: Record<string, string>): Promise<Mcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', WFS_STATE_DIR: TEST_STATE_DIR, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'acceptance-79', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async call(name, a = {}) {
      const r: any = await client.callTool({ name, arguments: a });
      const text = r.content?.find((c: any) => c.type === 'text')?.text ?? '';
      let parsed: any = r.structuredContent;
      if (parsed === undefined) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = { text };
        }
      }
      return { ...parsed, isError: r.isError === true, raw: text };
    },
    close: () => client.close(),
  };
}

const START = { sessionId: 'sess-demo-staged', service: 'Appraisal', model: 'Standard' };

describe('issue #79, checked apart (docs only)', function () {
  this.timeout(60_000);

  it("docs/agents.md's Claude Code / Cursor setup, copied as written: a replay a jose app trusting the user's sandbox answers 200", async () => {
    const port = await freePort(); // docs/agents.md says 4010; a free port keeps the check from colliding.
    const sb = await userSandbox(port);
    const app = await startJoseApp({ jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` });
    const forwardTo = `http://localhost:${app.port}/webhooks`;
    // Claude Code: `claude mcp add wfs -- wfs mcp --forward-to http://localhost:3000/webhooks`, from the shell holding
    // the export line.
    const m = await mcp(['--forward-to', forwardTo], sb.env);
    try {
      const env = await m.call('wfs_environment');
      const text = JSON.stringify(env);
      assert.match(text, /"isSandbox":true/, `the user's sandbox is the Sandbox: ${text}`);
      assert.doesNotMatch(text, /"billed":true/, text);
      assert.ok(
        text.includes(`127.0.0.1:${port}/.well-known/jwks.json`),
        `the signer's key set is the user's: ${text}`,
      );
      assert.ok(text.includes(SANDBOX_AUDIENCE) && text.includes(SANDBOX_ISSUER), `issuer and audience named: ${text}`);
      assert.match(String(env.signer?.value?.trust ?? env.signer?.trust), /trust/i, `signer.trust, one line: ${text}`);

      const started = await m.call('wfs_start_sandbox_workflow', START);
      assert.ok(!started.isError, started.raw);
      const got = await m.call('wfs_wait_for_delivery', { topic: 'workflow/started', timeoutSeconds: 30 });
      assert.ok(!got.isError, got.raw);
      const replay = await m.call('wfs_replay_to_app', { topic: 'workflow/started' });
      assert.equal(
        replay.answer?.status,
        200,
        `${replay.raw}\napp saw: ${JSON.stringify(app.received.map((r) => [r.status, r.reason]))}`,
      );
      const last = app.received.at(-1)!;
      assert.equal(last.verified, true, `the app's jose verification: ${last.reason}`);
    } finally {
      await m.close();
      await app.stop();
    }
    // The Cursor block: the same args, the two variables it names from the environment.
    const cursorApp = await startJoseApp({ jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` });
    const c = await mcp(['--forward-to', `http://localhost:${cursorApp.port}/webhooks`], {
      WFS_BASE_URL: sb.env.WFS_BASE_URL,
      WFS_SANDBOX_SECRET: sb.env.WFS_SANDBOX_SECRET,
    });
    try {
      const sent = await c.call('wfs_send_event', {
        to: 'receiver',
        topic: 'workflow/completed',
        data: { workflowId: 'wf_1', runId: 'wfrun_1' },
      });
      assert.ok(!sent.isError, sent.raw);
      const replay = await c.call('wfs_replay_to_app', { topic: 'workflow/completed' });
      assert.equal(replay.answer?.status, 200, replay.raw);
      assert.equal(cursorApp.received.at(-1)!.verified, true, cursorApp.received.at(-1)!.reason);
    } finally {
      await c.close();
      await cursorApp.stop();
    }
    await sb.proc.stopCleanly();
  });

  it('replay, fix, replay against a handler that dedupes; hints by cause for a 503 with Retry-After and a failed new event', async () => {
    const port = await freePort();
    const sb = await userSandbox(port);
    const app = await startJoseApp({ jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`, dedupe: true });
    const m = await mcp(['--forward-to', app.url], sb.env);
    try {
      // The event reaches the app through wfs mcp's receiver, which forwards it: the app answers 2xx and keeps its id.
      const sent = await m.call('wfs_send_event', {
        to: 'receiver',
        topic: 'workflow/completed',
        data: { workflowId: 'wf_1', runId: 'wfrun_1' },
      });
      assert.ok(!sent.isError, sent.raw);
      assert.equal(
        app.handled.length,
        1,
        `the forward reached the handler: ${JSON.stringify(app.received.map((r) => r.status))}`,
      );
      const id = app.handled[0].json.webhookId;

      const plain = await m.call('wfs_replay_to_app', { topic: 'workflow/completed' });
      assert.equal(plain.answer?.status, 200, plain.raw);
      assert.equal(app.handled.length, 1, 'the plain replay was taken as a duplicate: the handler did not run');
      assert.match(plain.raw, /duplicate/i, `the answer says the app may take it as a duplicate: ${plain.raw}`);
      assert.match(plain.raw, /freshWebhookId/, `and how to send a fresh one: ${plain.raw}`);

      const fresh = await m.call('wfs_replay_to_app', { topic: 'workflow/completed', freshWebhookId: true });
      assert.equal(fresh.answer?.status, 200, fresh.raw);
      assert.equal(app.handled.length, 2, 'the fresh-id replay reached the handler');
      assert.notEqual(app.handled[1].json.webhookId, id);
      assert.equal(app.handled[1].verified, true);
      assert.deepEqual(app.handled[1].json.data, app.handled[0].json.data, 'only the webhookId changed');

      app.answer = () => ({ status: 503, headers: { 'retry-after': '1' }, body: '{"error":"key set unavailable"}' });
      const busy = await m.call('wfs_replay_to_app', { topic: 'workflow/completed', freshWebhookId: true });
      assert.equal(busy.answer?.status, 503, busy.raw);
      assert.match(String(busy.hint), /key set/i, `503 + Retry-After: the key set hint: ${busy.hint}`);
      assert.match(String(busy.hint), /resen[dt]|send it again/i, busy.hint);
      assert.doesNotMatch(String(busy.hint), /handler failed/i, busy.hint);

      app.answer = () => ({ status: 500, body: 'TypeError: boom' });
      const failed = await m.call('wfs_send_event', {
        to: 'app',
        topic: 'workflow/completed',
        data: { workflowId: 'wf_2' },
      });
      assert.match(
        JSON.stringify(failed),
        /wfs_send_event/,
        `a failed new event: send it again with wfs_send_event: ${failed.raw}`,
      );
      assert.doesNotMatch(String(failed.hint ?? ''), /same delivery again/i, failed.raw);
    } finally {
      await m.close();
      await app.stop();
    }
    await sb.proc.stopCleanly();
  });

  it('forward answered 500, replay answered 200, replay again: only the second replay is named a possible duplicate', async () => {
    const port = await freePort();
    const sb = await userSandbox(port);
    const app = await startJoseApp({ jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`, dedupe: true });
    // The handler being fixed: it fails the first time it runs, then works.
    let runs = 0;
    app.answer = () =>
      ++runs === 1 ? { status: 500, body: '{"error":"TypeError: boom"}' } : { status: 200, body: '{"ok":true}' };
    const m = await mcp(['--forward-to', app.url], sb.env);
    try {
      const sent = await m.call('wfs_send_event', {
        to: 'receiver',
        topic: 'workflow/completed',
        data: { workflowId: 'wf_79', runId: 'wfrun_79' },
      });
      assert.ok(!sent.isError, sent.raw);
      const seen = (): string => JSON.stringify(app.received.map((r) => [r.status, r.verified, r.json?.webhookId]));
      assert.equal(app.received.length, 1, `the receiver forwarded the event once: ${seen()}`);
      assert.equal(app.received[0].verified, true, app.received[0].reason);
      assert.equal(app.received[0].status, 500, `the receiver's forward got 500: ${seen()}`);
      const id = app.received[0].json.webhookId;
      assert.equal(typeof id, 'string');

      // The app never answered 2xx for this id: the replay runs the handler, and nothing calls it a duplicate.
      const first = await m.call('wfs_replay_to_app', { topic: 'workflow/completed' });
      assert.ok(!first.isError, first.raw);
      assert.equal(first.answer?.status, 200, first.raw);
      assert.equal(app.handled.length, 2, `the replay reached the handler: ${seen()}`);
      assert.equal(app.handled[1].json.webhookId, id, 'a plain replay keeps the webhookId');
      assert.doesNotMatch(first.raw, /duplicate/i, `no duplicate note before any 2xx for this id: ${first.raw}`);

      // Now the app has answered 200 for this id: the same replay is skipped by its dedupe, and the answer says so.
      const second = await m.call('wfs_replay_to_app', { topic: 'workflow/completed' });
      assert.ok(!second.isError, second.raw);
      assert.equal(second.answer?.status, 200, second.raw);
      assert.equal(app.handled.length, 2, `the app took it as a duplicate: the handler did not run: ${seen()}`);
      assert.equal(app.received.at(-1)!.json.webhookId, id);
      assert.match(second.raw, /duplicate/i, `the answer says the app may take it as a duplicate: ${second.raw}`);
      assert.match(second.raw, /freshWebhookId/, `and how to send a fresh webhookId: ${second.raw}`);
    } finally {
      await m.close();
      await app.stop();
    }
    await sb.proc.stopCleanly();
  });

  it('a WFS_BASE_URL sandbox whose secret the environment does not hold stays billed; the start names both fixes', async () => {
    const port = await freePort();
    const sb = await userSandbox(port);
    const m = await mcp(['--forward-to', 'http://localhost:3000/webhooks'], {
      ...sb.env,
      WFS_SANDBOX_SECRET: 'f'.repeat(64),
    });
    try {
      const env = await m.call('wfs_environment');
      assert.match(env.raw, /"isSandbox": false/, env.raw);
      assert.match(env.raw, /"billed": true/, env.raw);
      const start = await m.call('wfs_start_sandbox_workflow', START);
      assert.equal(start.isError, true, start.raw);
      assert.match(start.raw, /--sandbox-url/, `names --sandbox-url: ${start.raw}`);
      assert.match(start.raw, /export/, `names the export line: ${start.raw}`);
    } finally {
      await m.close();
    }
    await sb.proc.stopCleanly();
  });

  it('wfs_explain_refusal: a forged alg none token without a kid fails at step 3, with that reason', async () => {
    const app = await startJoseApp();
    const m = await mcp(['--forward-to', app.url], {});
    try {
      const env = await m.call('wfs_environment');
      const receiver = env.receiverUrl?.value;
      assert.ok(receiver, env.raw);
      const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
      const exp = Math.floor(Date.now() / 1000) + 300;
      const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: SANDBOX_ISSUER, aud: SANDBOX_AUDIENCE, exp })}.`;
      const res = await fetch(receiver, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          webhookId: '11111111-2222-4333-8444-555555555555',
          topic: 'workflow/completed',
          data: {},
        }),
      });
      assert.equal(res.status, 403);
      const why = await m.call('wfs_explain_refusal');
      const steps: any[] = why.steps ?? why.checks ?? [];
      const step3 = steps.find((x) => x.step === 3);
      assert.ok(step3, why.raw);
      assert.ok(step3.ok === false || step3.outcome === 'failed', `step 3 fails: ${JSON.stringify(step3)}`);
      assert.match(JSON.stringify(step3), /kid/, JSON.stringify(step3));
      assert.ok(
        steps.filter((x) => x.step < 3).every((x) => x.ok === true || x.outcome === 'passed'),
        why.raw,
      );
    } finally {
      await m.close();
      await app.stop();
    }
  });

  it("wfs listen's usage line names --trust-keys", async () => {
    const help = new WfsProcess(['listen', '--help']);
    assert.equal(await help.exitCode(), 0);
    assert.match(help.stdout.split('\n\n')[0], /--trust-keys/, help.stdout.slice(0, 600));
  });

  it('wfs mcp --workflow-duration: its own sandbox finishes a workflow in that time', async () => {
    const help = new WfsProcess(['mcp', '--help']);
    assert.equal(await help.exitCode(), 0);
    assert.match(help.stdout, /--workflow-duration/);
    const app = await startJoseApp();
    const m = await mcp(
      ['--sandbox-port', String(await freePort()), '--workflow-duration', '1s', '--forward-to', app.url],
      {},
    );
    try {
      const t0 = Date.now();
      const started = await m.call('wfs_start_sandbox_workflow', START);
      assert.ok(!started.isError, started.raw);
      const done = await m.call('wfs_wait_for_delivery', { topic: 'workflow/completed', timeoutSeconds: 15 });
      assert.ok(!done.isError, `${done.raw}\n${m.stderr()}`);
      assert.ok(Date.now() - t0 < 15_000);
    } finally {
      await m.close();
      await app.stop();
    }
  });

  it('restarting wfs sandbox on the same --port while wfs listen --trust-sandbox runs: listen says so, events still arrive', async () => {
    const port = await freePort();
    const first = await userSandbox(port, ['--workflow-duration', '1s']);
    const secret = first.env.WFS_SANDBOX_SECRET;
    const listen = new WfsProcess(['listen', '--trust-sandbox', first.ready.baseUrl, '--port', '0'], {
      WFS_SANDBOX_SECRET: secret,
    });
    await listen.event('ready');
    await first.proc.stopCleanly();
    const again = await userSandbox(port, ['--workflow-duration', '1s']);
    assert.equal(again.env.WFS_SANDBOX_SECRET, secret, 'a fixed port keeps the secret (docs/cli.md)');
    const said = await listen.event('sandbox-registered');
    assert.ok(said.message, JSON.stringify(said));
    const start = new WfsProcess(
      ['start', '--session', 'sess-demo-staged', '--service', 'Appraisal', '--model', 'Standard'],
      again.env,
    );
    assert.equal(await start.exitCode(), 0, start.stdout + start.stderr);
    const topics = (): string[] =>
      listen
        .events('delivery')
        .filter((d) => d.verified)
        .map((d) => d.topic);
    await listen.line(() => topics().includes('workflow/completed'), 'the workflow/completed delivery');
    assert.deepEqual(topics(), ['workflow/started', 'workflow/completed']);
    await listen.stopCleanly();
    await again.proc.stopCleanly();
  });

  it('wfs audit --target with a path typo: "nothing takes webhooks at that path", its own exit code', async () => {
    const s = await startSandboxProcess();
    const app = await startJoseApp({ jwksUrl: s.info.jwksUrl });
    try {
      const audit = new WfsProcess([
        'audit',
        '--target',
        `http://127.0.0.1:${app.port}/webhook`,
        '--sandbox-url',
        s.info.baseUrl,
      ]);
      const code = await audit.exitCode();
      assert.equal(code, 10, audit.stdout + audit.stderr);
      const err = audit.lines.find((l) => l.event === 'error');
      assert.equal(err?.kind, 'path-not-served', audit.stdout);
      assert.ok(!audit.lines.some((l) => l.event === 'trust-mismatch'), 'not a trust mismatch');
    } finally {
      await app.stop();
      await s.stop();
    }
  });

  it('Ctrl-C during wfs start --follow: started, its workflowId and status, and the exact command to follow it again', async () => {
    const s = await startSandboxProcess();
    try {
      const start = new WfsProcess(
        ['start', '--session', 'sess-demo-staged', '--service', 'Appraisal', '--model', 'Standard', '--follow'],
        s.env,
      );
      const started = await start.event('started');
      const id = started.workflow.workflowId;
      // The started line is printed once the start was answered: from then on it follows.
      start.kill('SIGINT');
      assert.equal(await start.exitCode(), 130, start.stdout + start.stderr);
      const err = start.lines.find((l) => l.event === 'error');
      assert.equal(err?.kind, 'cancelled', start.stdout);
      assert.equal(err.workflowId, id);
      assert.equal(err.lastStatus, 'processing', start.stdout);
      assert.match(err.resume, new RegExp(`^wfs status --follow --workflow ${id}\\b`), err.resume);
      assert.match(err.message, /started/i, err.message);
      assert.ok(err.message.includes(id), err.message);
    } finally {
      await s.stop();
    }
  });

  it("wfs test-webhook --data FILE reports the body's webhookId (and the header's when it differs)", async () => {
    const s = await startSandboxProcess();
    const app = await startJoseApp();
    try {
      const file = join(tmp(), 'mydata.json');
      const bodyId = '5edd9658-0000-4000-8000-00000000abcd';
      writeFileSync(
        file,
        JSON.stringify({ webhookId: bodyId, topic: 'workflow/completed', data: { runId: 'wfrun_1' } }),
      );
      const tw = new WfsProcess(
        [
          'test-webhook',
          '--address',
          app.url,
          '--topic',
          'workflow/completed',
          '--sub-topic',
          'status:workflow/completed',
          '--tenant-id',
          't1',
          '--data',
          file,
        ],
        s.env,
      );
      assert.equal(await tw.exitCode(), 0, tw.stdout + tw.stderr);
      const sent = await tw.event('sent');
      assert.equal(app.received.length, 1);
      assert.equal(app.received[0].json.webhookId, bodyId);
      assert.equal(sent.webhookId, bodyId, `the reported id is the body's: ${JSON.stringify(sent)}`);
      const header = app.received[0].headers['x-svc-webhook-id'];
      if (header !== bodyId) assert.equal(sent.headerWebhookId, header, 'the header id is named when it differs');
    } finally {
      await app.stop();
      await s.stop();
    }
  });

  it("the test kit's buildEvent('workflow/completed') carries the sandbox's data, and takes overrides", () => {
    const e: any = buildEvent('workflow/completed');
    for (const k of ['workflowId', 'runId', 'sessionId', 'status', 'productType', 'productName'])
      assert.ok(typeof e.data?.[k] === 'string' && e.data[k].length > 0, `data.${k}: ${JSON.stringify(e.data)}`);
    assert.match(e.data.workflowId, /^wf_/);
    assert.match(e.data.runId, /^wfrun_/);
    assert.equal(e.data.status, 'complete');
    const o: any = buildEvent('workflow/completed', { data: { workflowId: 'wf_mine' } } as any);
    assert.equal(o.data.workflowId, 'wf_mine');
    assert.match(o.data.runId, /^wfrun_/, 'fields.data is laid over key by key');
  });
});
