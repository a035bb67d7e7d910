// Real VS Code (the test harness's code-server + Chromium), when its tools are installed: the packaged
// extension's activation on first use, from the click on its activity-bar icon to its status bar item.
import { existsSync, mkdtempSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function measureRealVsCode(root) {
  const vsix = join(root, 'dist', 'workflow-service-toolkit.vsix');
  if (!existsSync(join(root, '.vscode-test', 'tools.json')))
    return { skipped: 'the test harness tools are not installed (run npm run test:vscode once)' };
  const pack = spawnSync('npm', ['run', 'package'], { cwd: root, encoding: 'utf8' });
  if (pack.status !== 0 || !existsSync(vsix)) return { skipped: 'npm run package failed' };
  const { ensureTools } = await import(join(root, 'test', 'vscode', 'harness', 'tools.mjs'));
  const { startCodeServer } = await import(join(root, 'test', 'vscode', 'harness', 'codeServer.mjs'));
  const { launchBrowser } = await import(join(root, 'test', 'vscode', 'harness', 'browser.mjs'));
  const tools = ensureTools();
  const extensionsDir = mkdtempSync(join(tmpdir(), 'wfs-bench-exts-'));
  const install = spawnSync(
    tools.node24,
    [tools.codeServerEntry, '--extensions-dir', extensionsDir, '--install-extension', vsix],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) return { skipped: 'installing the .vsix failed' };
  const server = await startCodeServer({ tools, extensionsDir });
  const browser = await launchBrowser();
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const t0 = Date.now();
    await page.goto(`${server.url}/?folder=${encodeURIComponent(server.workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const icon = page.locator('.activitybar a[aria-label^="Workflow Service"]');
    await icon.waitFor({ timeout: 60_000 });
    const t1 = Date.now();
    await icon.click();
    await page.locator('.statusbar').getByText('Sandbox: not started').waitFor({ timeout: 60_000 });
    const t2 = Date.now();
    return {
      windowOpenToIconMs: t1 - t0,
      clickToActivatedMs: t2 - t1,
      note: 'lazy activation: nothing runs until the view is opened or a command is used',
    };
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
  }
}
