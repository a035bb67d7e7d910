// The CLI as a user installs it: `npm run pack:cli` makes a tarball, npm installs it into an empty folder (no dev
// dependencies, no VS Code, no repository), and the installed `wfs` runs a sandbox, a receiver and an audit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import manifest from '../../package.json';
import { startSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const ROOT = join(__dirname, '../../..');

function npm(args: string[], cwd: string): string {
  const r = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
  });
  assert.equal(r.status, 0, `npm ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

describe('the packed CLI, installed from its tarball into an empty folder', function () {
  this.timeout(360_000);
  let bin: string;
  let installed: string;

  before(() => {
    npm(['run', 'pack:cli'], ROOT);
    const tarball = join(ROOT, 'dist', `workflow-service-cli-${manifest.version}.tgz`);
    assert.ok(existsSync(tarball), tarball);
    const dir = mkdtempSync(join(tmpdir(), 'wfs-install-'));
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    npm(['install', '--prefer-offline', tarball], dir);
    installed = join(dir, 'node_modules', 'workflow-service-cli');
    bin = join(dir, 'node_modules', '.bin', 'wfs');
  });

  it('installs as one package with no dependencies: cli.js and its commands (wfs/), the test kit, the schemas, README, agents.md, LICENSE', () => {
    assert.deepEqual(
      readdirSync(join(installed, '..')).filter((n) => !n.startsWith('.')),
      ['workflow-service-cli'],
    );
    assert.deepEqual(readdirSync(installed).sort(), [
      'LICENSE',
      'README.md',
      'agents.md',
      'cli.js',
      'package.json',
      'schemas',
      'testkit.cjs',
      'testkit.d.ts',
      'testkit.md',
      'testkit.mjs',
      'wfs',
    ]);
    // The commands' code: dist/cli.js loads each command's chunk from wfs/ when it runs.
    assert.ok(readdirSync(join(installed, 'wfs')).includes('mcpCommand.mjs'));
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.version, manifest.version);
    assert.match(readFileSync(join(installed, 'README.md'), 'utf8'), /^# wfs/);
  });

  it('`wfs --version` and `wfs audit --help` run from the installed bin', async () => {
    const v = new WfsProcess(['--version'], {}, { bin });
    assert.equal(await v.exitCode(), 0, v.stderr);
    assert.equal(v.stdout, `${manifest.version}\n`);
    const h = new WfsProcess(['audit', '--help'], {}, { bin });
    assert.equal(await h.exitCode(), 0);
    assert.match(h.stdout, /^usage: wfs audit/);
  });

  it('runs `wfs sandbox`, `wfs listen --trust-sandbox` and `wfs audit` from there: the audit scores clean', async () => {
    const cwd = join(installed, '..', '..');
    const sandbox = await startSandboxProcess([], { bin, cwd });
    const listen = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', sandbox.info.baseUrl], {}, { bin, cwd });
    try {
      const ready = await listen.event('ready');
      const audit = new WfsProcess(
        ['audit', '--target', ready.url, '--sandbox-url', sandbox.info.baseUrl],
        {},
        { bin, cwd },
      );
      assert.equal(await audit.exitCode(), 0, audit.stdout + audit.stderr);
      const summary = audit.lines.at(-1)!;
      assert.deepEqual([summary.event, summary.failed], ['summary', 0]);
      assert.ok(summary.passed >= 18);
    } finally {
      listen.kill('SIGTERM');
      await listen.exited;
      await sandbox.stop();
    }
  });
});
