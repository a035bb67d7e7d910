// Issue #79, item 1, where it was met: the assistant set up as docs/agents.md shows, line for line. The setup lines
// are read from the doc itself (so it cannot drift): the user's `wfs sandbox`, its `export` line in the shell, then
// `wfs mcp` as Claude Code's `claude mcp add` line and Cursor's mcp.json start it, driven by the official MCP SDK
// client over stdio. A small app verifies with jose against the trust the doc tells it to hold (the user's sandbox's
// issuer, audience and key set): the workflow's events and a replay reach it, and it answers 200.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { CLI, TEST_STATE_DIR, WfsProcess, type Line } from './helpers/wfsProcess';

type Json = Record<string, any>;

const AGENTS_MD = readFileSync(join(__dirname, '../../../docs/agents.md'), 'utf8');
const DOC_SANDBOX_PORT = '4010';
const DOC_APP_URL = 'http://localhost:3000/webhooks';

/** The text of a section: from its heading to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = AGENTS_MD.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `docs/agents.md has the section ${heading}`);
  const level = heading.split(' ')[0]!;
  const rest = AGENTS_MD.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? rest : rest.slice(0, next);
}

/** The code blocks of a section in a language, in order. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/** The doc's addresses made the test's: its sandbox port a free one, its app this test's app. */
function localize(text: string, port: number, appUrl: string): string {
  return text
    .split(DOC_APP_URL)
    .join(appUrl)
    .replace(new RegExp(`\\b${DOC_SANDBOX_PORT}\\b`, 'g'), String(port));
}

interface ServerLaunch {
  args: string[];
  /** What the client adds to the environment it was started in. */
  env: Record<string, string>;
}

/** `claude mcp add NAME [-e K=V]… -- wfs ARGS…`, as Claude Code starts it: the command after `--`. */
function claudeLaunch(port: number, appUrl: string): ServerLaunch {
  const lines = blocks(section('### Claude Code'), 'sh').join('\n').split('\n');
  const add = lines.find((l) => l.startsWith('claude mcp add '));
  assert.ok(add, 'the Claude Code block has a `claude mcp add` line');
  const words = localize(add, port, appUrl).trim().split(/\s+/);
  const dashes = words.indexOf('--');
  const env: Record<string, string> = {};
  for (let i = 3; i < dashes; i++)
    if (words[i] === '-e' || words[i] === '--env') {
      const [k, ...v] = words[++i]!.split('=');
      env[k!] = v.join('=');
    }
  assert.equal(words[dashes + 1], 'wfs');
  return { args: words.slice(dashes + 2), env };
}

/** Cursor's mcp.json entry, with `${env:NAME}` taken from the environment Cursor runs in. */
function cursorLaunch(port: number, appUrl: string, shell: Record<string, string>): ServerLaunch {
  const [json] = blocks(section('### Cursor'), 'json');
  assert.ok(json, 'the Cursor section has its mcp.json');
  const entry = (JSON.parse(localize(json, port, appUrl)) as Json).mcpServers.wfs as Json;
  assert.equal(entry.command, 'wfs');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries((entry.env ?? {}) as Record<string, string>))
    env[k] = v.replace(/\$\{env:([A-Z_]+)\}/g, (_m, name: string) => shell[name] ?? '');
  return { args: entry.args as string[], env };
}

/** The trust the doc tells the app to hold, from its bullets. */
function docTrust(port: number): { issuer: string; audience: string; jwksUrl: string } {
  const text = localize(section('## Add the server'), port, '');
  const item = (label: string) => new RegExp(`^- ${label} \`([^\`]+)\``, 'm').exec(text)?.[1];
  const trust = { issuer: item('issuer'), audience: item('audience'), jwksUrl: item('key set') };
  for (const [k, v] of Object.entries(trust)) assert.ok(v, `docs/agents.md names the ${k} the app trusts`);
  return trust as { issuer: string; audience: string; jwksUrl: string };
}

/** An app that verifies as the spec asks, with jose, against one issuer, audience and key set. */
class JoseApp {
  readonly answers: { status: number; topic?: string; why?: string }[] = [];
  private server?: Server;
  constructor(private readonly trust: { issuer: string; audience: string; jwksUrl: string }) {}

  async start(): Promise<string> {
    const keys = createRemoteJWKSet(new URL(this.trust.jwksUrl));
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
        jwtVerify(token, keys, { issuer: this.trust.issuer, audience: this.trust.audience })
          .then(({ payload }) => {
            if (payload.body_sha256 !== createHash('sha256').update(body).digest('hex')) throw new Error('body');
            const topic = (JSON.parse(body.toString('utf8')) as Json).topic as string;
            this.answers.push({ status: 200, topic });
            res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
          })
          .catch((err: Error) => {
            this.answers.push({ status: 401, why: err.message });
            res.writeHead(401).end(err.message);
          });
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((r) => this.server?.close(() => r()));
  }
}

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The variables the `export` line of `wfs sandbox` sets (src/cli/render/serverText.ts), from its ready line. */
function exportLine(ready: Line): Record<string, string> {
  return {
    WFS_BASE_URL: ready.baseUrl,
    WFS_USERNAME: ready.username,
    WFS_PASSWORD: ready.password,
    WFS_SANDBOX_SECRET: ready.controlSecret,
  };
}

async function connect(launch: ServerLaunch, inherited: Record<string, string>) {
  const client = new Client({ name: 'agents-md-setup', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...launch.args],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        WFS_STATE_DIR: TEST_STATE_DIR,
        ...inherited,
        ...launch.env,
      },
      stderr: 'pipe',
    }),
  );
  const call = async (name: string, args: Json = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const structured = async (name: string, args: Json = {}) => (await call(name, args)).structuredContent as Json;
  return { client, call, structured };
}

describe("docs/agents.md's setup lines, as written (#79, item 1)", function () {
  this.timeout(90_000);

  for (const setup of ['Claude Code', 'Cursor'] as const)
    it(`${setup}: wfs mcp signs with the user's wfs sandbox; a jose app trusting it answers 200`, async () => {
      const port = await freePort();
      const [sandboxLine] = blocks(section('## Add the server'), 'sh');
      assert.ok(sandboxLine?.trim().startsWith('wfs sandbox'), "the doc starts the user's sandbox first");
      const sandbox = new WfsProcess(localize(sandboxLine!.trim(), port, '').split(/\s+/).slice(1));
      const ready = await sandbox.event('ready');
      const shell = exportLine(ready);
      const trust = docTrust(port);
      assert.deepEqual(trust, { issuer: ready.issuer, audience: ready.audience, jwksUrl: ready.jwksUrl });
      const app = new JoseApp(trust);
      const appUrl = await app.start();
      // Claude Code passes the environment it was started in; Cursor only what its "env" names.
      const launch = setup === 'Claude Code' ? claudeLaunch(port, appUrl) : cursorLaunch(port, appUrl, shell);
      const { client, structured } = await connect(launch, setup === 'Claude Code' ? shell : {});
      try {
        const env = await structured('wfs_environment');
        assert.equal(env.environment.isSandbox, true);
        assert.equal(env.environment.billed, false);
        assert.equal(env.signer.value.jwksUrl, ready.jwksUrl, "the user's sandbox signs");
        assert.equal(env.signer.value.audience, ready.audience);
        assert.match(env.signer.value.trust, new RegExp(`key set ${ready.jwksUrl}`));

        const since = new Date().toISOString();
        const started = await structured('wfs_start_sandbox_workflow', { correlationId: `agents-md-${setup}` });
        assert.equal(started.started, true, JSON.stringify(started));
        assert.equal(started.billed, false);
        const event = await structured('wfs_wait_for_delivery', {
          topic: 'workflow/started',
          since,
          timeoutSeconds: 30,
        });
        assert.equal(event.delivery.runId, started.workflow.runId);

        const replay = await structured('wfs_replay_to_app', { topic: 'workflow/started', freshWebhookId: true });
        assert.equal(replay.to, appUrl);
        assert.equal(replay.answer.status, 200, JSON.stringify(app.answers));
        assert.ok(app.answers.length >= 2, 'the forwarded event and the replay reached the app');
        assert.deepEqual(
          app.answers.filter((a) => a.status !== 200),
          [],
          'the app verified everything against the trust the doc names',
        );
      } finally {
        await client.close();
        await app.stop();
      }
      await sandbox.stopCleanly();
    });
});
