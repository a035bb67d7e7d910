// docs/compose.yaml, run as compose would run it but on one machine's loopback (no container runtime here): each
// wfs service's exact command, environment and health check, in depends_on order, with the service names resolved
// to 127.0.0.1 (URLs and Host headers keep the names) and each port moved to a free one. A stand-in app takes the
// app's place. A workflow started on the sandbox reaches the app through the receiver, verified; every service
// stops on SIGTERM within 5 s. test/unit/docs/containerExamples.test.ts checks the same file against the CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { freePort } from '../unit/helpers/freePort';
import { rawRequest } from '../unit/helpers/rawHttp';
import { composeServices, interpolate, servicePort, type ComposeService } from '../unit/helpers/composeExample';
import { serviceNames } from './helpers/serviceNames';
import { WfsProcess, type Line } from './helpers/wfsProcess';

/** The app of the compose file: its health check, and the deliveries the receiver forwards to it. */
class StandInApp {
  readonly received: { host?: string; headers: IncomingHttpHeaders; body: Line }[] = [];
  private server?: Server;
  private waiter?: () => void;

  async start(port: number): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'GET' && req.url === '/healthz') return void res.writeHead(200).end('{"status":"ok"}');
        if (req.method !== 'POST' || req.url !== '/webhooks') return void res.writeHead(404).end();
        this.received.push({
          host: req.headers.host,
          headers: req.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        res.writeHead(200).end();
        this.waiter?.();
      });
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
  }

  /** Resolves once a delivery has arrived. */
  async delivery(): Promise<void> {
    while (this.received.length === 0) await new Promise<void>((r) => (this.waiter = r));
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** Runs a health check's exec form as the container runtime would; its exit code. */
function runHealthCheck(argv: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

/** Each of the compose file's ports moved to a free one, in every flag and URL that names it. */
async function portMap(services: ComposeService[]): Promise<(arg: string) => string> {
  const moved = new Map<string, string>();
  for (const s of services) moved.set(String(servicePort(s)), String(await freePort()));
  return (arg) =>
    moved.has(arg)
      ? moved.get(arg)!
      : arg.replace(/^(https?:\/\/[^/:]+):(\d+)/, (m, origin: string, port: string) =>
          moved.has(port) ? `${origin}:${moved.get(port)}` : m,
        );
}

/** SIGTERM, then the time to a clean exit (0, with its "stopped" line). */
async function stopTime(p: WfsProcess): Promise<number> {
  const t0 = performance.now();
  p.kill('SIGTERM');
  assert.equal((await p.exited).code, 0, `stopped by SIGTERM, it exits 0: ${p.stderr}`);
  assert.ok(p.lines.some((l) => l.event === 'stopped'));
  return performance.now() - t0;
}

describe('docs/compose.yaml, run on loopback', function () {
  this.timeout(90_000);

  it('runs each service as written: healthy in order, a workflow reaches the app verified, SIGTERM stops each within 5 s', async () => {
    const services = composeServices();
    const moved = await portMap(services);
    const names = serviceNames(services.map((s) => s.name));
    const env = { WFS_SANDBOX_SECRET: randomBytes(32).toString('hex') };
    const app = new StandInApp();
    const appService = services.find((s) => s.image === undefined)!;
    await app.start(Number(moved(String(servicePort(appService)))));
    assert.equal(await runHealthCheck(appService.healthcheck.map(moved)), 0, 'the stand-in app is healthy');

    const healthy = new Set([appService.name]);
    const running = new Map<string, WfsProcess>();
    const ready = new Map<string, Line>();
    for (const s of services.filter((x) => x !== appService)) {
      for (const [dep, condition] of Object.entries(s.dependsOn))
        assert.ok(condition !== 'service_healthy' || healthy.has(dep), `${s.name} starts after ${dep} is healthy`);
      const environment = Object.fromEntries(
        Object.entries(s.environment).map(([k, v]) => [k, moved(interpolate(v, env))]),
      );
      const p = new WfsProcess(s.command.map(moved), { ...environment, ...names.env(s.name) });
      running.set(s.name, p);
      ready.set(s.name, await p.event('ready'));
      assert.equal(await runHealthCheck(s.healthcheck.map(moved)), 0, `${s.name}'s health check passes once ready`);
      healthy.add(s.name);
    }

    const sandboxPort = new URL(ready.get('sandbox')!.baseUrl).port;
    const listenPort = new URL(ready.get('listen')!.url).port;
    assert.equal(ready.get('sandbox')!.controlSecret, env.WFS_SANDBOX_SECRET, 'the secret from .env');
    assert.equal(
      ready.get('listen')!.registeredUrl,
      `http://listen:${listenPort}/webhooks`,
      'the receiver registered by its service name',
    );
    for (const [name, port] of [
      ['sandbox', sandboxPort],
      ['listen', listenPort],
    ] as const) {
      const own = await rawRequest(`http://127.0.0.1:${port}/healthz`, { headers: { host: `${name}:${port}` } });
      assert.equal(own.status, 200, `${name} answers its service name`);
      const foreign = await rawRequest(`http://127.0.0.1:${port}/healthz`, { headers: { host: 'evil.example' } });
      assert.equal(foreign.status, 421, `${name} refuses a foreign Host`);
    }

    // Your tests on the host start a workflow through the sandbox's published port.
    const start = new WfsProcess(
      ['start', '--session', 'sess-demo-staged', '--service', 'Appraisal', '--model', 'Standard'],
      {
        WFS_BASE_URL: `http://localhost:${sandboxPort}`,
        WFS_USERNAME: ready.get('sandbox')!.username,
        WFS_PASSWORD: ready.get('sandbox')!.password,
      },
    );
    assert.equal(await start.exitCode(), 0, start.stdout + start.stderr);
    // The first delivery the sandbox made (not the foreign Host above): verified, and forwarded to the app.
    const listen = running.get('listen')!;
    const delivery = await listen.line(
      (l) => l.event === 'delivery' && !String(l.note).includes('evil.example'),
      'a delivery from the sandbox',
    );
    assert.equal(delivery.verified, true, JSON.stringify(delivery));
    assert.equal(delivery.forward?.status, 200, JSON.stringify(delivery));
    await app.delivery();
    const first = app.received[0]!;
    assert.equal(first.host, `app:${moved(String(servicePort(appService)))}`, 'forwarded to the app by its name');
    assert.equal(first.body.topic, delivery.topic);
    assert.match(String(first.body.topic), /^workflow\//);
    assert.match(String(first.headers.authorization), /^Bearer /, 'with its token, for the app to verify');
    const step3 = delivery.checks.find((c: Line) => c.step === 3);
    assert.match(step3.detail, new RegExp(`found in http://sandbox:${sandboxPort}/\\.well-known/jwks\\.json$`));
    const resolved = names.resolved();
    assert.ok(resolved.includes('listen sandbox'), 'the receiver reached the sandbox by its name');
    assert.ok(resolved.includes('listen app'), 'and the app');
    assert.ok(resolved.includes('sandbox listen'), 'the sandbox sent to the receiver by its name');
    const webhook = await running.get('sandbox')!.event('webhook');
    assert.equal(webhook.address, `http://listen:${listenPort}/webhooks`, JSON.stringify(webhook));

    // compose down: the dependants first. Every line each printed was JSON (no terminal: the JSON face).
    for (const name of ['listen', 'sandbox']) {
      const p = running.get(name)!;
      const ms = await stopTime(p);
      assert.ok(ms < 5000, `${name} stopped in ${Math.round(ms)} ms`);
      assert.deepEqual(
        p.lines.filter((l) => l.event === 'text'),
        [],
        `${name} printed only JSON lines`,
      );
    }
    await app.stop();
  });
});
