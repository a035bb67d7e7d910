// Acceptance check for issue #77, written apart from the implementation: only from the "Done when" and
// "What to build", and the user docs (docs/testkit.md, docs/containers.md, docs/ci.md, `wfs listen --help`,
// `wfs sandbox --help`). The test kit runs in this process, as a user's test would; `wfs` is the built CLI, spawned
// with real timers; the app is a real local server verifying the forwarded tokens with jose.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
// docs/testkit.md imports it as 'workflow-service-cli/testkit'; in the repository that package is src/testkit.
import { buildEvent, startReceiver, startSandbox } from '../../../src/testkit';
import { CLI, WfsProcess, type Line } from '../helpers/wfsProcess';
import { freePort, startJoseApp } from './apps';

const ROOT = join(__dirname, '../../../..');
const SECRET = 'a'.repeat(24) + 'b'.repeat(24); // WFS_SANDBOX_SECRET: at least 32 characters, as the docs ask

interface Answer {
  status: number;
  body: string;
}

/** A request to 127.0.0.1:port carrying the Host header a container's neighbour (or a rebinding page) would send. */
function requestWithHost(port: number, host: string, path: string, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { host, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** True when a new server can listen on 127.0.0.1:port: the port was freed. */
function canListenOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** SIGTERM, then the exit: its code and how long it took, in real milliseconds. */
async function stopTimed(proc: WfsProcess): Promise<{ code: number | null; ms: number }> {
  const t0 = performance.now();
  proc.kill('SIGTERM');
  const { code } = await proc.exited;
  return { code, ms: performance.now() - t0 };
}

/** Polls GET /healthz as a compose healthcheck does (every 20 ms here) until it answers 200; a 503 or a refused
 * connection means not yet. Ends with an error if the process exits first. */
async function untilHealthy(proc: WfsProcess, port: number, host: string): Promise<void> {
  for (;;) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw new Error(`wfs exited:\n${proc.stderr}`);
    const answer = await requestWithHost(port, host, '/healthz').catch(() => undefined);
    if (answer?.status === 200) return;
    assert.ok(answer === undefined || answer.status === 503, `before ready /healthz answers 503: ${answer?.status}`);
    await new Promise((r) => setTimeout(r, 20)); // the poll's pace, as a healthcheck's interval
  }
}

/** What `wfs CMD --help` prints (exit 0). */
const helpOf = (cmd: string): string => execFileSync(process.execPath, [CLI, cmd, '--help'], { encoding: 'utf8' });

/** The fenced ```yaml block of a docs page. */
function yamlBlockOf(page: string): string {
  const m = /```yaml\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs', page), 'utf8'));
  assert.ok(m, `docs/${page} holds a yaml block`);
  return m[1];
}

/** The flags (--name) of an argument list. */
const flagsIn = (args: string[]): string[] => args.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0]);

/** The value after a flag. */
function valueOf(args: string[], flag: string): string {
  const i = args.indexOf(flag);
  assert.ok(i >= 0 && args[i + 1] !== undefined, `${flag} is given a value in ${args.join(' ')}`);
  return args[i + 1];
}

function assertHelpListsFlags(cmd: string, args: string[], where: string): void {
  const help = helpOf(cmd);
  for (const flag of flagsIn(args))
    assert.match(help, new RegExp(`^\\s+${flag}\\b`, 'm'), `${where}: \`wfs ${cmd} --help\` lists ${flag}`);
}

describe('issue #77, checked apart (docs only)', function () {
  this.timeout(30_000);

  describe('1. end to end from code, with the test kit only', () => {
    it('startSandbox + startReceiver: a workflow completes, its event arrives verified with the app\u2019s answer; a timed-out wait says what came; close frees the ports', async () => {
      const sandbox = await startSandbox({ workflowDurationMs: 200 });
      // The app verifies the forwarded token itself, against the sandbox's key set, as docs/containers.md says.
      const app = await startJoseApp({ jwksUrl: sandbox.ready.jwksUrl });
      app.answer = (r) => ({
        status: 200,
        body: JSON.stringify({ processed: r.json.webhookId, workflowId: r.json.data?.workflowId }),
      });
      const receiver = await startReceiver({ trust: sandbox, forwardTo: app.url });
      const ports = [sandbox.port, receiver.port];
      try {
        assert.equal(typeof sandbox.baseUrl, 'string');
        assert.equal(receiver.ready.url, receiver.url, 'the ready information names the receiver address');
        assert.equal(typeof sandbox[Symbol.asyncDispose], 'function', 'sandbox supports await using');
        assert.equal(typeof receiver[Symbol.asyncDispose], 'function', 'receiver supports await using');

        const workflow = await sandbox.startWorkflow();
        const done = await receiver.next({ topic: 'workflow/completed', timeoutMs: 10_000 });
        assert.equal(done.verified, true);
        assert.equal(done.topic, 'workflow/completed');
        assert.equal(done.event?.data.workflowId, workflow.workflowId);
        assert.ok(done.checks.length === 7 && done.checks.every((c: any) => c.ok), 'all seven steps passed');
        assert.equal(done.answer?.status, 200, `the app answered: ${JSON.stringify(done.answer)}`);
        assert.deepEqual(JSON.parse(String(done.answer?.body)), {
          processed: done.webhookId,
          workflowId: workflow.workflowId,
        });
        assert.ok(
          app.handled.some((r) => r.json.webhookId === done.webhookId && r.verified),
          'the app itself verified the forwarded delivery',
        );

        // deliveries: the async iterator holds the started event before the completed one.
        const topics: string[] = [];
        for await (const d of receiver.deliveries) {
          topics.push(String(d.topic));
          if (d.webhookId === done.webhookId) break;
        }
        assert.deepEqual(topics, ['workflow/started', 'workflow/completed']);

        // A wait that times out rejects naming what did arrive.
        const t0 = performance.now();
        await assert.rejects(receiver.next({ topic: 'workflow/failed', timeoutMs: 300 }), (e: Error) => {
          assert.match(e.message, /workflow\/failed/);
          assert.match(e.message, /workflow\/started/, 'names the started event that did arrive');
          assert.ok(e.message.includes(done.webhookId!), 'names the completed delivery by its webhookId');
          return true;
        });
        assert.ok(performance.now() - t0 < 5_000, 'the wait ends near its timeout');

        // A wait under way when the receiver closes is rejected, not left hanging.
        const pending = receiver.next({ topic: 'workflow/failed', timeoutMs: 20_000 });
        pending.catch(() => undefined);
        await receiver.close();
        await assert.rejects(pending);
      } finally {
        await receiver.close(); // a second call is harmless
        await sandbox.close();
        await sandbox.close();
        await app.stop();
      }
      for (const port of ports) assert.equal(await canListenOn(port), true, `port ${port} is free after close()`);
    });
  });

  describe('2. the servers in a container: --host 0.0.0.0 --allow-host, /healthz, SIGTERM', () => {
    it('wfs listen --host 0.0.0.0 --allow-host app: 421 for a foreign Host, serves app:PORT and 127.0.0.1:PORT, /healthz 200, SIGTERM exit 0 within 5 s', async () => {
      const sandbox = new WfsProcess(['sandbox', '--port', '0'], { WFS_SANDBOX_SECRET: SECRET });
      const sandboxUrl = (await sandbox.event('ready')).baseUrl as string;
      const port = await freePort();
      const listen = new WfsProcess(
        ['listen', '--host', '0.0.0.0', '--port', String(port), '--allow-host', 'app', '--trust-sandbox', sandboxUrl],
        { WFS_SANDBOX_SECRET: SECRET },
      );
      const ready = await listen.event('ready');
      assert.ok(String(ready.registeredUrl ?? '').startsWith(`http://app:${port}/`), JSON.stringify(ready));

      const evil = await requestWithHost(port, 'evil.example', '/healthz');
      assert.equal(evil.status, 421, `a foreign Host: ${evil.body}`);
      const evilDelivery = await requestWithHost(port, `evil.example:${port}`, '/webhooks', 'POST', '{}');
      assert.equal(evilDelivery.status, 421, 'a delivery with a foreign Host is refused 421 too');
      for (const host of [`app:${port}`, `127.0.0.1:${port}`, `localhost:${port}`]) {
        const health = await requestWithHost(port, host, '/healthz');
        assert.equal(health.status, 200, `GET /healthz with Host ${host}: ${health.body}`);
        assert.equal(JSON.parse(health.body).status, 'ok');
        // An unsigned POST is served (refused by verification), not turned away by the Host rule.
        const post = await requestWithHost(port, host, '/webhooks', 'POST', '{}');
        assert.notEqual(post.status, 421, `POST /webhooks with Host ${host} is served`);
      }

      const stop = await stopTimed(listen);
      assert.equal(stop.code, 0, `exit 0 on SIGTERM; stderr:\n${listen.stderr}`);
      assert.ok(stop.ms < 5_000, `stopped in ${Math.round(stop.ms)} ms (bound 5 s)`);
      assertJsonLines(listen);
      assert.equal(await canListenOn(port), true);
      const sandboxStop = await stopTimed(sandbox);
      assert.equal(sandboxStop.code, 0);
    });

    it('wfs sandbox --host 0.0.0.0 --allow-host sandbox: the same Host rule, /healthz 200, SIGTERM exit 0 within 5 s', async () => {
      const port = await freePort();
      const sandbox = new WfsProcess(
        ['sandbox', '--host', '0.0.0.0', '--port', String(port), '--allow-host', 'sandbox'],
        { WFS_SANDBOX_SECRET: SECRET },
      );
      const ready = await sandbox.event('ready');
      assert.equal(ready.controlSecret, SECRET, 'WFS_SANDBOX_SECRET is its control secret');

      assert.equal((await requestWithHost(port, 'evil.example', '/healthz')).status, 421);
      assert.equal((await requestWithHost(port, 'evil.example', '/.well-known/jwks.json')).status, 421);
      for (const host of [`sandbox:${port}`, `127.0.0.1:${port}`, `localhost:${port}`]) {
        const health = await requestWithHost(port, host, '/healthz');
        assert.equal(health.status, 200, `GET /healthz with Host ${host}: ${health.body}`);
        assert.deepEqual(
          { status: JSON.parse(health.body).status, service: JSON.parse(health.body).service },
          { status: 'ok', service: 'sandbox' },
        );
        assert.equal((await requestWithHost(port, host, '/.well-known/jwks.json')).status, 200);
      }

      const stop = await stopTimed(sandbox);
      assert.equal(stop.code, 0, `exit 0 on SIGTERM; stderr:\n${sandbox.stderr}`);
      assert.ok(stop.ms < 5_000, `stopped in ${Math.round(stop.ms)} ms (bound 5 s)`);
      assertJsonLines(sandbox);
      // A /healthz it answers is not logged as a request (a 421 refusal may be: it is a foreign page's attempt).
      const logged = sandbox.events('request').filter((r) => String(r.path).startsWith('/healthz') && r.status !== 421);
      assert.deepEqual(logged, [], '/healthz is not logged as a request');
      assert.equal(await canListenOn(port), true);
    });
  });

  describe('2b. SIGTERM within the bound while busy', () => {
    it('wfs listen stops on SIGTERM with exit 0 within 5 s while a forward to a hung app is in flight', async () => {
      const sandbox = new WfsProcess(['sandbox', '--port', '0'], { WFS_SANDBOX_SECRET: SECRET });
      const sandboxUrl = (await sandbox.event('ready')).baseUrl as string;
      // An app that takes each request and never answers (a container stuck on its database).
      let arrived!: () => void;
      const reached = new Promise<void>((r) => (arrived = r));
      const app = createHttpServer(() => arrived());
      await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
      const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
      const port = await freePort();
      const receiver = new WfsProcess(
        [
          'listen',
          '--host',
          '0.0.0.0',
          '--port',
          String(port),
          '--allow-host',
          'app',
          '--trust-sandbox',
          sandboxUrl,
          '--forward-to',
          appUrl,
        ],
        { WFS_SANDBOX_SECRET: SECRET },
      );
      await receiver.event('ready');
      const body = Buffer.from(JSON.stringify(buildEvent('workflow/completed')));
      const signed = await fetch(`${sandboxUrl}/sandbox/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-secret': SECRET },
        body: JSON.stringify({ bodyBase64: body.toString('base64'), claims: { wfs_signed_here: null } }),
      });
      assert.equal(signed.status, 200, await signed.clone().text());
      const { token } = (await signed.json()) as { token: string };
      fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      }).catch(() => undefined);
      await reached; // the forward is in flight, unanswered
      const stop = await stopTimed(receiver);
      app.closeAllConnections();
      app.close();
      assert.equal(stop.code, 0, `exit 0 on SIGTERM; stderr:\n${receiver.stderr}`);
      assert.ok(stop.ms < 5_000, `stopped in ${Math.round(stop.ms)} ms with a forward in flight (bound 5 s)`);
      await stopTimed(sandbox);
    });
  });

  describe('2c. /healthz 200 means ready, as a compose healthcheck or `curl --retry` takes it', () => {
    // Found by this check: on a fixed port with a new state folder (a fresh container or CI runner), `wfs sandbox`
    // answered 200 some 200-700 ms before its ready line, and a SIGTERM then exited 130 with no "stopped" line.
    it('wfs sandbox (fixed port, new state): once /healthz answers 200 it has printed ready, and SIGTERM then exits 0 within 5 s', async () => {
      const port = await freePort();
      const sandbox = new WfsProcess(
        ['sandbox', '--host', '0.0.0.0', '--port', String(port), '--allow-host', 'sandbox'],
        { WFS_SANDBOX_SECRET: SECRET, WFS_STATE_DIR: mkdtempSync(join(tmpdir(), 'wfs-acc77-')) },
      );
      await untilHealthy(sandbox, port, `sandbox:${port}`);
      const stop = await stopTimed(sandbox);
      assert.ok(
        sandbox.events('ready').length === 1,
        `healthy, so it had started: ready before SIGTERM; exit ${stop.code} after ${Math.round(stop.ms)} ms; stdout:\n${sandbox.stdout}`,
      );
      assert.equal(stop.code, 0, `SIGTERM once healthy exits 0; stdout:\n${sandbox.stdout}stderr:\n${sandbox.stderr}`);
      assert.ok(stop.ms < 5_000, `stopped in ${Math.round(stop.ms)} ms`);
    });

    it('wfs listen --host 0.0.0.0: once /healthz answers 200 it has printed ready, and SIGTERM then exits 0 within 5 s', async () => {
      const sandbox = new WfsProcess(['sandbox', '--port', '0'], { WFS_SANDBOX_SECRET: SECRET });
      const sandboxUrl = (await sandbox.event('ready')).baseUrl as string;
      const port = await freePort();
      const listen = new WfsProcess(
        ['listen', '--host', '0.0.0.0', '--port', String(port), '--allow-host', 'app', '--trust-sandbox', sandboxUrl],
        { WFS_SANDBOX_SECRET: SECRET },
      );
      await untilHealthy(listen, port, `app:${port}`);
      const stop = await stopTimed(listen);
      assert.ok(listen.events('ready').length === 1, `healthy, so it had started; stdout:\n${listen.stdout}`);
      assert.equal(stop.code, 0, `SIGTERM once healthy exits 0; stdout:\n${listen.stdout}stderr:\n${listen.stderr}`);
      assert.ok(stop.ms < 5_000, `stopped in ${Math.round(stop.ms)} ms`);
    });
  });

  describe('3. the compose file and the CI job, as the docs give them', () => {
    it('docs/containers.md: each wfs service runs a command whose flags `--help` lists; health checks and addresses match the ports', () => {
      const yaml = yamlBlockOf('containers.md');
      assert.equal(yaml, readFileSync(join(ROOT, 'docs/compose.yaml'), 'utf8'), 'the page shows docs/compose.yaml');
      const services = new Map<string, { command?: string[]; health?: string[]; port?: string }>();
      for (const block of yaml.split(/\n(?= {2}\w[\w-]*:\n)/).slice(1)) {
        const name = /^ {2}([\w-]+):/.exec(block)![1];
        const command = /\n {4}command: (\[.*\])/.exec(block)?.[1];
        const health = /\n {6}test: (\[.*\])/.exec(block)?.[1];
        const port = /\n {6}PORT: "(\d+)"/.exec(block)?.[1];
        services.set(name, {
          command: command ? JSON.parse(command) : undefined,
          health: health ? JSON.parse(health) : undefined,
          port,
        });
      }
      assert.deepEqual([...services.keys()], ['app', 'sandbox', 'listen']);
      const portOf = new Map<string, string>([['app', services.get('app')!.port!]]);
      for (const [name, s] of services) {
        assert.ok(s.health, `${name} has a healthcheck`);
        if (!s.command) continue;
        const [cmd, ...args] = s.command;
        assert.equal(cmd, name, `the ${name} service runs wfs ${name}`);
        assertHelpListsFlags(cmd, args, `compose service ${name}`);
        assert.equal(valueOf(args, '--host'), '0.0.0.0');
        assert.equal(valueOf(args, '--allow-host'), name, `${name} answers its own service name`);
        portOf.set(name, valueOf(args, '--port'));
      }
      for (const [name, s] of services) {
        const url = s.health!.find((a) => a.startsWith('http'));
        assert.equal(url, `http://127.0.0.1:${portOf.get(name)}/healthz`, `${name}'s health check`);
      }
      const listenArgs = services.get('listen')!.command!;
      assert.equal(valueOf(listenArgs, '--trust-sandbox'), `http://sandbox:${portOf.get('sandbox')}`);
      assert.equal(valueOf(listenArgs, '--forward-to'), `http://app:${portOf.get('app')}/webhooks`);
      for (const cmd of ['sandbox', 'listen']) assert.match(helpOf(cmd), /WFS_SANDBOX_SECRET/);
    });

    it('docs/ci.md: each wfs command runs with flags `--help` lists; each curl waits on /healthz of the port just started', () => {
      const yaml = yamlBlockOf('ci.md');
      assert.equal(
        yaml,
        readFileSync(join(ROOT, 'docs/ci-workflow.yml'), 'utf8'),
        'the page shows docs/ci-workflow.yml',
      );
      const script = yaml.replace(/\\\n\s*/g, ''); // shell line continuations joined
      const lines = script
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^(wfs |curl )/.test(l));
      const started: { cmd: string; port: string; args: string[] }[] = [];
      const waited: string[] = [];
      for (const line of lines) {
        const words = line.split(/\s+/);
        if (words[0] === 'wfs') {
          const end = words.findIndex((w) => /^\d?>|^&$/.test(w));
          const args = words.slice(2, end < 0 ? undefined : end);
          assertHelpListsFlags(words[1], args, `ci.md: ${line}`);
          started.push({ cmd: words[1], port: valueOf(args, '--port'), args });
        } else {
          const url = words.find((w) => w.startsWith('http'))!;
          assert.equal(
            url,
            `http://127.0.0.1:${started.at(-1)?.port}/healthz`,
            `the wait after wfs ${started.at(-1)?.cmd}`,
          );
          waited.push(started.at(-1)!.cmd);
        }
      }
      assert.deepEqual(waited, ['sandbox', 'listen'], 'each server is waited on, the sandbox before the receiver');
      const [sandbox, listen] = started;
      assert.equal(valueOf(listen.args, '--trust-sandbox'), `http://127.0.0.1:${sandbox.port}`);
      assert.match(yaml, new RegExp(`WFS_BASE_URL=http://127\\.0\\.0\\.1:${sandbox.port}\\b`));
      assert.match(yaml, /if: failure\(\)[\s\S]*upload-artifact[\s\S]*path: wfs-logs\//);
      assert.ok(
        valueOf(listen.args, '--log').startsWith('wfs-logs/'),
        'the delivery history goes where the upload looks',
      );
    });
  });
});

/** Every stdout line is a JSON object, and the last says it stopped (docs/containers.md, Logs). */
function assertJsonLines(proc: WfsProcess): void {
  const text = proc.lines.filter((l: Line) => l.event === 'text');
  assert.deepEqual(text, [], 'every stdout line is JSON');
  assert.equal(proc.lines.at(-1)?.event, 'stopped', `the last line: ${JSON.stringify(proc.lines.at(-1))}`);
}
