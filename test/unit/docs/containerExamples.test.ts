// The container examples say what the CLI does, so they cannot drift: the Dockerfile's base image, user, entrypoint
// and tarball; each compose service's command and flags as `wfs … --help` knows them, its names and ports, its health
// check; and docs/containers.md holding the compose file as it is. test/process/composeExample.test.ts runs it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../../src/cli/commandList';
import type { CommandSpec } from '../../../src/cli/commandSpec';
import { HEALTH_PATH } from '../../../src/core/http/health';
import { JWKS_PATH } from '../../../src/core/sandbox/Sandbox';
import { SANDBOX_AUDIENCE, SANDBOX_ISSUER } from '../../../src/core/sandbox/sandboxSeed';
import { COMPOSE_FILE, composeServices, REPO_ROOT, servicePort } from '../helpers/composeExample';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
/** Flags every command takes. */
const COMMON = new Set(['help', 'json', 'human']);
const IMAGE = 'workflow-service-cli';

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trimStart().startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.trim().split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
}

async function spec(name: string): Promise<CommandSpec> {
  const entry = COMMANDS.find((c) => c.name === name);
  assert.ok(entry, `"${name}" is a wfs command`);
  return entry.load();
}

describe('Dockerfile', () => {
  const steps = instructions(read('Dockerfile'));
  const one = (op: string) => steps.filter((s) => s.op === op);

  it('starts from a small Node image of the major the CLI needs', () => {
    const from = one('FROM');
    assert.equal(from.length, 1, 'one stage');
    const m = /^node:(\d+)-(alpine|slim)$/.exec(from[0]!.args);
    assert.ok(m, `a small Node base image: ${from[0]!.args}`);
    const engines = JSON.parse(read('package.json')).engines.node as string;
    assert.equal(m[1], /\d+/.exec(engines)![0], `the major of engines.node (${engines})`);
  });

  it('installs the tarball `npm run pack:cli` writes, and only that goes to the build', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    assert.match(scripts['pack:cli']!, /npm pack \.\/dist\/cli-package --pack-destination dist$/);
    const esbuild = read('esbuild.mjs');
    assert.match(esbuild, /name: 'workflow-service-cli',/, 'the package npm pack names the tarball after');
    assert.match(esbuild, /bin: \{ wfs: 'cli\.js' \}/, 'its bin is wfs');
    const copy = one('COPY');
    assert.deepEqual(
      copy.map((c) => c.args),
      ['dist/workflow-service-cli-*.tgz /tmp/wfs/'],
    );
    assert.match(one('RUN')[0]!.args, /^npm install --global \/tmp\/wfs\/workflow-service-cli-\*\.tgz /);
    const ignore = read('.dockerignore').split('\n').filter((l) => l && !l.startsWith('#'));
    assert.deepEqual(ignore, ['*', '!dist/workflow-service-cli-*.tgz']);
  });

  it('runs as a user that is not root, with wfs as its entrypoint', () => {
    const user = one('USER');
    assert.equal(user.length, 1);
    assert.ok(!['root', '0', '0:0'].includes(user[0]!.args), `USER ${user[0]!.args}`);
    assert.equal(user[0]!.args, 'node', "the base image's own unprivileged user");
    assert.ok(
      steps.findIndex((s) => s.op === 'USER') > steps.findIndex((s) => s.op === 'RUN'),
      'the user is set after the install',
    );
    assert.deepEqual(JSON.parse(one('ENTRYPOINT')[0]!.args), ['wfs']);
  });

  it('is built under the name the compose file and the docs use, and stays out of the .vsix', () => {
    const tag = `docker build -t ${IMAGE} .`;
    for (const file of ['Dockerfile', COMPOSE_FILE, 'docs/containers.md']) assert.ok(read(file).includes(tag), file);
    const vscodeignore = read('.vscodeignore').split('\n');
    assert.equal(vscodeignore.find((l) => l && !l.startsWith('#')), '**', 'the .vsix takes only what is listed');
    assert.ok(!vscodeignore.some((l) => /docker|compose/i.test(l) && l.startsWith('!')));
  });
});

describe('docs/compose.yaml', () => {
  const services = composeServices();
  const byName = new Map(services.map((s) => [s.name, s]));
  const wfs = services.filter((s) => s.image === IMAGE);

  it('has the app, a sandbox and a receiver', () => {
    assert.deepEqual(
      services.map((s) => s.name),
      ['app', 'sandbox', 'listen'],
    );
    assert.deepEqual(
      wfs.map((s) => s.command[0]),
      ['sandbox', 'listen'],
    );
  });

  it('gives each wfs service a command and flags `wfs … --help` knows, with their values', async () => {
    for (const s of wfs) {
      const command = await spec(s.command[0]!);
      for (let i = 1; i < s.command.length; i++) {
        const arg = s.command[i]!;
        assert.ok(arg.startsWith('--'), `${s.name}: ${arg} is a flag (a command takes no bare words here)`);
        const name = arg.slice(2);
        const flag = command.flags[name];
        assert.ok(flag || COMMON.has(name), `${s.name}: wfs ${command.name} has no --${name}`);
        if (flag?.type === 'string') {
          const value = s.command[++i];
          assert.ok(value !== undefined && !value.startsWith('--'), `${s.name}: --${name} needs a value`);
        }
      }
    }
  });

  it('listens on every interface and answers its own service name', () => {
    for (const s of wfs) {
      const flag = (f: string) => s.command.filter((_, i) => s.command[i - 1] === f);
      assert.deepEqual(flag('--host'), ['0.0.0.0'], s.name);
      assert.equal(flag('--allow-host')[0], s.name, `${s.name}: its first --allow-host is the name others use`);
      assert.equal(flag('--port').length, 1, `${s.name}: a fixed port`);
    }
  });

  it('names the other services by their name and port', () => {
    const urls = wfs.flatMap((s) =>
      [...s.command, ...Object.values(s.environment)].filter((a) => /^https?:\/\//.test(a)).map((u) => [s, u] as const),
    );
    const app = byName.get('app')!;
    urls.push(...Object.entries(app.environment).filter(([k]) => k.endsWith('_URL')).map(([, u]) => [app, u] as const));
    assert.ok(urls.length >= 3);
    for (const [s, u] of urls) {
      const url = new URL(u);
      const target = byName.get(url.hostname);
      assert.ok(target && target !== s, `${s.name}: ${u} names another service`);
      assert.equal(Number(url.port), servicePort(target), `${s.name}: ${u} is on ${target.name}'s port`);
    }
  });

  it("tells the app the sandbox's issuer and audience", () => {
    const env = byName.get('app')!.environment;
    assert.equal(env.WEBHOOK_ISSUER, SANDBOX_ISSUER);
    assert.equal(env.WEBHOOK_AUDIENCE, SANDBOX_AUDIENCE);
    assert.equal(env.WEBHOOK_JWKS_URL, `http://sandbox:${servicePort(byName.get('sandbox')!)}${JWKS_PATH}`);
  });

  it('gives the sandbox and the receiver the one control secret, and starts the receiver once both are healthy', () => {
    const sandbox = byName.get('sandbox')!;
    const listen = byName.get('listen')!;
    assert.match(sandbox.environment.WFS_SANDBOX_SECRET!, /^\$\{WFS_SANDBOX_SECRET:\?[^}]+\}$/);
    assert.equal(listen.environment.WFS_SANDBOX_SECRET, sandbox.environment.WFS_SANDBOX_SECRET);
    assert.ok(listen.command.includes('--trust-sandbox'));
    assert.deepEqual(listen.dependsOn, { sandbox: 'service_healthy', app: 'service_healthy' });
  });

  it("checks each service's health at /healthz on its own port, by an exec form the tests run", () => {
    for (const s of services) {
      assert.deepEqual(s.healthcheck.slice(0, 2), ['wget', '-qO-'], s.name);
      const url = new URL(s.healthcheck[2]!);
      assert.equal(s.healthcheck.length, 3, s.name);
      assert.equal(url.hostname, '127.0.0.1', `${s.name}: from inside its own container`);
      assert.equal(url.pathname, HEALTH_PATH, s.name);
      assert.equal(Number(url.port), servicePort(s), s.name);
    }
  });

  it('logs JSON lines: no service asks for a terminal', () => {
    for (const s of services) assert.equal(s.raw.tty, undefined, `${s.name}: tty would switch wfs to text`);
  });

  it('is the file docs/containers.md shows', () => {
    const doc = read('docs/containers.md');
    assert.ok(doc.includes('```yaml\n' + read(COMPOSE_FILE) + '```\n'), 'docs/containers.md holds docs/compose.yaml');
  });
});
