// `npm run test:vscode`: runs the extension-host suite in a real VS Code (code-server) opened by Debian's Chromium,
// collects mocha's output and the exit code, and stops every process it started.
// Expects `node esbuild.mjs --tests` to have built dist/ and out/ (the npm script does).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { ensureTools, projectRoot } from './harness/tools.mjs';
import { startCodeServer } from './harness/codeServer.mjs';
import { launchBrowser } from './harness/browser.mjs';
import { startWebviewInspector } from './harness/webviewInspector.mjs';

const SUITE_TIMEOUT_MS = 5 * 60_000;
const NOISE = [/ENOTFOUND/, /github-authentication/i, /marketplace|gallery/i, /Failed to fetch/i];

/** One window, one run of the suite: `untrusted` opens the folder with workspace trust on (Restricted Mode) and
 * runs only the Restricted Mode suite; `pseudoLocale` runs VS Code in the qps-ploc pseudo-locale and only the
 * Pseudo-locale suite, which fails on English of ours on screen. Resolves with the exit code. */
async function runSuite(root, testsPath, tools, { untrusted = false, pseudoLocale = false } = {}) {
  const label = untrusted ? 'vscode (Restricted Mode)' : pseudoLocale ? 'vscode (pseudo-locale)' : 'vscode';
  const t0 = Date.now();
  const resultFile = join(mkdtempSync(join(tmpdir(), 'wfs-results-')), 'results.json');
  const inspector = await startWebviewInspector();
  const env = {
    WFS_VSCODE_RESULT_FILE: resultFile,
    WFS_TEST_WEBVIEW_URL: inspector.url,
    ...(untrusted ? { WFS_EXPECT_UNTRUSTED: '1', WFS_VSCODE_GREP: 'Restricted Mode' } : {}),
    ...(pseudoLocale ? { WFS_EXPECT_PSEUDO_LOCALE: '1', WFS_VSCODE_GREP: 'Pseudo-locale' } : {}),
  };
  const server = await startCodeServer({
    tools,
    smokeTestDriver: true,
    workspaceTrust: untrusted,
    env,
    ...(pseudoLocale ? { locale: 'qps-ploc' } : {}),
  });
  const t1 = Date.now();
  let browser;
  try {
    browser = await launchBrowser();
    const page = browser.pages()[0] ?? (await browser.newPage());
    inspector.setPage(page);
    let settle;
    const exited = new Promise((resolve) => (settle = resolve));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      if (!NOISE.some((re) => re.test(text))) process.stdout.write(`[vscode ${type}] ${text}\n`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => settle(code));
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(join(root, 'out', 'host-extension'))],
      ['extensionTestsPath', remote(testsPath)],
    ];
    await page.goto(
      `${server.url}/?folder=${encodeURIComponent(server.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
    );
    const timer = setTimeout(() => settle('timeout'), SUITE_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    const t2 = Date.now();
    let ran = 0;
    if (existsSync(resultFile)) {
      const { results } = JSON.parse(readFileSync(resultFile, 'utf8'));
      for (const r of results)
        console.log(
          `  ${r.state === 'passed' ? '✔' : '✘'} ${r.title}${r.error ? '\n      ' + r.error.split('\n').slice(0, 6).join('\n      ') : ''}`,
        );
      const passed = results.filter((r) => r.state === 'passed').length;
      ran = results.length;
      console.log(`${label}: ${passed} passed, ${results.length - passed} failed`);
    } else {
      console.log(`${label}: no results were written (the suite did not run)`);
    }
    console.log(
      `timings: tools+server ${Math.round((t1 - t0) / 1000)} s, workbench+suite ${Math.round((t2 - t1) / 1000)} s`,
    );
    if (code === 'timeout') {
      console.error(
        `The extension-host suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s. code-server log:\n${server.tail()}`,
      );
      return 1;
    }
    if (code !== 0 || !existsSync(resultFile)) {
      console.error(`The extension-host suite failed (exit ${code}). code-server log tail:\n${server.tail(15)}`);
      return 1;
    }
    if (ran === 0) {
      console.error(`${label}: no test ran`);
      return 1;
    }
    return 0;
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
    await inspector.stop();
  }
}

async function main() {
  const root = projectRoot();
  const testsPath = join(root, 'out', 'test', 'vscode', 'index.js');
  if (!existsSync(join(root, 'out', 'host-extension', 'dist', 'extension.js')) || !existsSync(testsPath))
    throw new Error('Build first: node esbuild.mjs --tests');
  const tools = ensureTools();
  // A grep picks one run: WFS_VSCODE_GREP='Pseudo-locale' runs only the pseudo-locale window, and so on.
  const only = process.env.WFS_VSCODE_GREP;
  // A grep that matches a window's name, or names it (e.g. 'Restricted Mode: the contract check'), runs that window.
  const wanted = (name) => !only || only.includes(name) || new RegExp(only).test(name);
  const trusted = !only || !/^(Restricted Mode|Pseudo-locale)$/.test(only) ? await runSuite(root, testsPath, tools) : 0;
  const untrusted = wanted('Restricted Mode') ? await runSuite(root, testsPath, tools, { untrusted: true }) : 0;
  let pseudo = 0;
  if (wanted('Pseudo-locale')) {
    // The qps-ploc bundles, made now from the English ones the build copied into the host extension.
    const { writePseudoLocale } = createRequire(import.meta.url)(join(root, 'out/test/unit/l10n/pseudoLocale.js'));
    writePseudoLocale(join(root, 'out', 'host-extension'));
    pseudo = await runSuite(root, testsPath, tools, { pseudoLocale: true });
  }
  return trusted || untrusted || pseudo;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err?.message ?? err);
    process.exit(1);
  },
);
