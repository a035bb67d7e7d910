// UI checks in installed-extension mode: the packaged .vsix is installed into a private extensions dir of a
// real VS Code (code-server), and Chromium clicks through it as a user would, asserting what is on screen and
// saving PNG screenshots under test/vscode/screenshots/ (git-ignored; README images come from here).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSystemPrerequisites, ensureTools, projectRoot } from './harness/tools.mjs';
import { startCodeServer } from './harness/codeServer.mjs';
import { launchBrowser } from './harness/browser.mjs';

const root = projectRoot();
const shots = join(root, 'test', 'vscode', 'screenshots');
const VSIX = join(root, 'dist', 'workflow-service-toolkit.vsix');

/** One UI step: what a user does, then what they must see. */
async function step(name, fn) {
  const t = Date.now();
  try {
    await fn();
    console.log(`  ✔ ${name} (${Date.now() - t} ms)`);
    return true;
  } catch (err) {
    console.log(`  ✘ ${name}\n      ${String(err?.message ?? err).split('\n').slice(0, 4).join('\n      ')}`);
    return false;
  }
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title.split(': ')[1] }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

async function main() {
  checkSystemPrerequisites();
  const tools = ensureTools();
  if (!existsSync(VSIX)) throw new Error('Package first: npm run package');
  mkdirSync(shots, { recursive: true });
  const extensionsDir = mkdtempSync(join(tmpdir(), 'wfs-exts-'));
  const install = spawnSync(tools.node24, [tools.codeServerEntry, '--extensions-dir', extensionsDir, '--install-extension', VSIX], { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`installing the .vsix failed:\n${install.stdout}\n${install.stderr}`);
  const server = await startCodeServer({ tools, extensionsDir });
  const browser = await launchBrowser();
  const results = [];
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(server.workspace)}`);
    results.push(
      await step('the workbench loads', async () => {
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      }),
    );
    results.push(
      await step('the activity bar shows "Workflow Service"; its view offers the sandbox', async () => {
        await page.locator('.activitybar a[aria-label^="Workflow Service"]').click({ timeout: 30_000 });
        await page.getByText('Try everything against the built-in sandbox').waitFor({ timeout: 30_000 });
        await page.getByRole('button', { name: 'Start Sandbox' }).waitFor();
        await page.screenshot({ path: join(shots, '01-explorer-welcome.png') });
      }),
    );
    results.push(
      await step('"Workflow Service: Start Sandbox" from the palette shows the running sandbox in the tree', async () => {
        await runCommand(page, 'Workflow Service: Start Sandbox');
        const row = page.locator('.monaco-list-row', { hasText: 'Sandbox' }).filter({ hasText: 'http://127.0.0.1:' });
        await row.first().waitFor({ timeout: 30_000 });
        await page.getByText(/sandbox running at http:\/\/127\.0\.0\.1:\d+/).first().waitFor({ timeout: 15_000 });
        await page.screenshot({ path: join(shots, '02-sandbox-running.png') });
      }),
    );
    results.push(
      await step('"Workflow Service: Sign In to the Sandbox" asks for the demo credentials; the status bar shows who is signed in', async () => {
        await runCommand(page, 'Workflow Service: Sign In to the Sandbox');
        const input = page.locator('.quick-input-widget input');
        await page.getByText('Sign in to the Sandbox (1/2)').waitFor({ timeout: 15_000 });
        if ((await input.inputValue()) !== 'demo') throw new Error('the sandbox username is not offered');
        await page.keyboard.press('Enter');
        await page.getByText('Sign in to the Sandbox (2/2)').waitFor({ timeout: 15_000 });
        if ((await input.getAttribute('type')) !== 'password') throw new Error('the password box is not masked');
        await input.fill('demo-password');
        await page.keyboard.press('Enter');
        await page.locator('.statusbar').getByText(/Sandbox: demo · token (59m|1h 00m)/).waitFor({ timeout: 15_000 });
        await page.screenshot({ path: join(shots, '04-signed-in.png') });
      }),
    );
    results.push(
      await step('"Workflow Service: Show Log" opens the log with the sandbox address', async () => {
        await runCommand(page, 'Workflow Service: Show Log');
        await page.locator('.output-view, .panel').getByText(/Sandbox.listening.at.http:\/\/127\.0\.0\.1/).first().waitFor({ timeout: 15_000 });
        await page.screenshot({ path: join(shots, '03-log.png') });
      }),
    );
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(`Screenshots in test/vscode/screenshots/.`);
  console.log(`walkthrough: ${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err?.message ?? err);
    process.exit(1);
  },
);
