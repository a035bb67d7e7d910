// `npm start`: builds the extension and opens it in a real VS Code against the built-in sandbox.
// Desktop VS Code (`code --extensionDevelopmentPath=…`) when `code` is on PATH; otherwise the browser-served
// VS Code of the test harness (code-server), at a printed localhost URL, until Ctrl-C.
//   --browser      use the browser-served VS Code even when `code` is installed
//   --smoke-test   (CI) open the printed URL in Chromium, check the extension's view is there, and exit
import { spawn, spawnSync } from 'node:child_process';
import { projectRoot, ensureTools } from './harness/tools.mjs';
import { startCodeServer } from './harness/codeServer.mjs';

const root = projectRoot();
const args = new Set(process.argv.slice(2));

function hasDesktopCode() {
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function main() {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return 1;
  if (!args.has('--browser') && !args.has('--smoke-test') && hasDesktopCode()) {
    console.log('Opening desktop VS Code with the extension in development mode…');
    const child = spawn('code', ['--new-window', `--extensionDevelopmentPath=${root}`], { stdio: 'inherit' });
    return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)));
  }
  const tools = ensureTools();
  // The workbench honours the development payload only with the smoke-test driver on (shared/notes).
  const server = await startCodeServer({ tools, smokeTestDriver: true });
  const payload = [['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${root}`]];
  const url = `${server.url}/?folder=${encodeURIComponent(server.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  console.log(
    `\nVS Code with Workflow Service Toolkit (development mode) is at:\n\n  ${url}\n\nOpen the "Workflow Service" activity-bar view and press "Start Sandbox". Ctrl-C stops it.`,
  );
  if (args.has('--smoke-test')) {
    const { launchBrowser } = await import('./harness/browser.mjs');
    const browser = await launchBrowser();
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(url);
      await page.locator('.activitybar a[aria-label^="Workflow Service"]').click({ timeout: 60_000 });
      await page.getByText('Try everything against the built-in sandbox').waitFor({ timeout: 30_000 });
      console.log('start: the extension loaded in development mode (smoke test passed)');
      return 0;
    } catch (err) {
      console.error(`start: smoke test failed: ${err.message}`);
      return 1;
    } finally {
      await browser.close().catch(() => {});
      await server.stop();
    }
  }
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err?.message ?? err);
    process.exit(1);
  },
);
