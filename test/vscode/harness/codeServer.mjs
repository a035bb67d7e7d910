// Starts code-server (VS Code's server build) on a free loopback port with a private, quiet profile.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, writeFileSync, createWriteStream, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'window.restoreWindows': 'none',
};

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * @param {{tools: {node24: string, codeServerEntry: string}, smokeTestDriver?: boolean, extensionsDir?: string, env?: Record<string,string>, settings?: object, workspaceTrust?: boolean}} opts
 *   workspaceTrust: VS Code's workspace trust on, so the folder opens untrusted (Restricted Mode); off by default.
 *   locale: the display language (e.g. "qps-ploc"); see declareLanguagePack.
 */
export async function startCodeServer(opts) {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-vscode-'));
  const userData = join(dir, 'data');
  const extensionsDir = opts.extensionsDir ?? join(dir, 'exts');
  const workspace = join(dir, 'workspace');
  for (const d of [join(userData, 'User'), extensionsDir, workspace]) mkdirSync(d, { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), 'auth: none\ncert: false\n');
  const trust = opts.workspaceTrust
    ? {
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.banner': 'never',
      }
    : {};
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...trust, ...opts.settings }, null, 2),
  );
  const port = await freePort();
  const args = [
    opts.tools.codeServerEntry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--config',
    join(dir, 'config.yaml'),
    '--user-data-dir',
    userData,
    '--extensions-dir',
    extensionsDir,
  ];
  if (!opts.workspaceTrust) args.push('--disable-workspace-trust');
  if (opts.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (opts.locale) {
    declareLanguagePack(userData, dir, opts.locale);
    args.push('--locale', opts.locale);
  }
  args.push(workspace);
  const logFile = join(dir, 'code-server.log');
  const log = createWriteStream(logFile);
  const child = spawn(opts.tools.node24, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env },
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited early (${child.exitCode}); log: ${logFile}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer /healthz within 60 s; log: ${logFile}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    dir,
    workspace,
    logFile,
    tail: (n = 40) => readFileSync(logFile, 'utf8').split('\n').slice(-n).join('\n'),
    stop: () => killTree(child),
  };
}

/** The server takes a display language only from an installed language pack (userData/languagepacks.json): without
 * one it falls back to English, and vscode.env.language (which picks an extension's l10n bundle) stays "en". This
 * declares an empty pack for `locale`, so the workbench and the extension host run in that language while VS Code's
 * own chrome keeps its English. The server rewrites the file only when a language pack is installed or removed. */
function declareLanguagePack(userData, dir, locale) {
  const translations = join(dir, 'language-pack', 'main.i18n.json');
  mkdirSync(join(dir, 'language-pack'), { recursive: true });
  writeFileSync(translations, JSON.stringify({ contents: {} }));
  const pack = {
    hash: `wfs-test-${locale}`,
    extensions: [{ extensionIdentifier: { id: `wfs-test.language-pack-${locale}` }, version: '0.0.0' }],
    translations: { vscode: translations },
    label: locale,
  };
  writeFileSync(join(userData, 'languagepacks.json'), JSON.stringify({ [locale]: pack }));
}

export function killTree(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000).unref();
  });
}
