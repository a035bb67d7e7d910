// UI checks in installed-extension mode: the packaged .vsix is installed into a private extensions dir of a
// real VS Code (code-server), and Chromium clicks through it as a user would, asserting what is on screen and
// saving PNG screenshots under test/vscode/screenshots/ (git-ignored; README images come from here).
import { randomUUID } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTools, projectRoot } from './harness/tools.mjs';
import { startCodeServer } from './harness/codeServer.mjs';
import { launchBrowser } from './harness/browser.mjs';
import {
  blocking,
  describeViolations,
  frameHolding,
  scanFrame,
  themeKindExpression,
  WEBVIEW_THEMES,
} from './harness/axeRun.mjs';

const root = projectRoot();
const shots = join(root, 'test', 'vscode', 'screenshots');
const VSIX = join(root, 'dist', 'workflow-service-toolkit.vsix');

/** One UI step: what a user does, then what they must see. */
let failedShots = 0;
/** The page of the current walkthrough, so a failed step can leave a screenshot of what it saw. */
let currentPage;

async function step(name, fn) {
  const t = Date.now();
  try {
    await fn();
    console.log(`  ✔ ${name} (${Date.now() - t} ms)`);
    return true;
  } catch (err) {
    console.log(
      `  ✘ ${name}\n      ${String(err?.message ?? err)
        .split('\n')
        .slice(0, 4)
        .join('\n      ')}`,
    );
    const shot = join(shots, `failed-${++failedShots}.png`);
    await currentPage?.screenshot({ path: shot }).then(
      () => console.log(`      (what it saw: ${shot})`),
      () => undefined,
    );
    // A screenshot stays on the machine that ran the test; the log travels with CI's answer.
    const texts = await currentPage
      ?.locator('.notification-list-item-message, .monaco-dialog-box .dialog-message-text')
      .allTextContents()
      .catch(() => []);
    for (const text of texts ?? []) console.log(`      (on screen: ${JSON.stringify(text.slice(0, 300))})`);
    return false;
  }
}

/**
 * Picks a colour theme as a user does: Preferences: Color Theme, its label typed, its row clicked. Returns the label
 * of the theme it replaced (the picker opens on it).
 */
async function pickColorTheme(page, label) {
  const input = page.locator('.quick-input-widget input');
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  // A row by its whole label: "Color Theme" alone also names the palette's "Browse Color Themes in Marketplace".
  const named = (text) =>
    rows
      .filter({
        has: page.locator('.label-name', { hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
      })
      .first();
  await page.keyboard.press('F1');
  await input.fill('>Preferences: Color Theme', { timeout: 10_000 });
  await named('Preferences: Color Theme').click({ timeout: 10_000 });
  // The picker opens on the current theme (its list shows only the rows in view).
  await page.locator('.quick-input-widget input[placeholder^="Select Color Theme"]').waitFor({ timeout: 10_000 });
  const was = (await rows.and(page.locator('.focused')).locator('.label-name').first().textContent())?.trim();
  await input.fill(label);
  await named(label).click({ timeout: 10_000 });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  return was;
}

/**
 * axe-core's WCAG 2.1 A/AA scan of the webview whose document holds `has` (or, with `workbench`, of the workbench's
 * `include`), once `ready` holds there: in the walkthrough's own theme, then Dark High Contrast, then light or dark
 * (the one the own theme is not), each picked as a user picks it; the own theme comes back after. Throws on any
 * serious or critical violation, naming its rule, impact and first nodes; the lesser ones are logged.
 */
async function axeInThemes(page, view, has, ready, { include, workbench = false } = {}) {
  const kindShown = themeKindExpression(workbench);
  const kindOf = (theme) => (workbench ? theme.workbench : theme.webview);
  const shows = (kind) => `(${ready}) && (${kindShown}) === ${JSON.stringify(kind)}`;
  const own = await (await frameHolding(page, has, ready, 30_000)).evaluate(kindShown);
  const { light, dark, highContrast } = WEBVIEW_THEMES;
  const lightOwn = own === kindOf(light);
  const themes = [{ kind: own }, { ...highContrast, kind: kindOf(highContrast) }];
  themes.push(lightOwn ? { ...dark, kind: kindOf(dark) } : { ...light, kind: kindOf(light) });
  const problems = [];
  let ownLabel;
  try {
    for (const theme of themes) {
      const t = Date.now();
      if (theme.label) {
        const was = await pickColorTheme(page, theme.label);
        ownLabel ??= was;
      }
      const scan = await scanFrame(page, has, { include, until: shows(theme.kind), timeoutMs: 30_000 });
      const bad = blocking(scan.violations);
      console.log(
        `      axe, ${view}, ${theme.label ?? `its own theme`} (${theme.kind}): ${scan.rulesPassed} rules passed, ` +
          `${scan.violations.length} violated, ${bad.length} serious or critical (${Date.now() - t} ms)`,
      );
      for (const v of scan.violations.filter((v) => !bad.includes(v)))
        console.log(`        lesser: ${describeViolations([v])}`);
      if (scan.rulesPassed === 0) problems.push(`${theme.kind}: axe checked nothing`);
      if (bad.length > 0) problems.push(`${theme.kind}: ${describeViolations(bad)}`);
    }
  } finally {
    if (ownLabel) {
      await pickColorTheme(page, ownLabel);
      await frameHolding(page, has, shows(own), 30_000);
    }
  }
  if (problems.length > 0) {
    for (const p of problems) console.log(`      axe: ${p}`);
    throw new Error(`${view}: ${problems.length} theme(s) with serious or critical WCAG 2.1 A/AA violations`);
  }
}

/**
 * Replaces the one `from` in the active editor by `to` as a user does (Find/Replace, Replace All), closes the Find
 * widget by its button and puts the top of the text in view, where a CodeLens sits above line 1.
 */
async function replaceInEditor(page, from, to) {
  await page.keyboard.press('Control+H');
  await page.locator('.find-widget textarea[aria-label="Find"]').fill(from);
  await page.locator('.find-widget textarea[aria-label="Replace"]').fill(to);
  // The search runs after typing stops: Replace All before it has found the match replaces nothing.
  await page.locator('.find-widget .matchesCount', { hasText: /^1 of 1$/ }).waitFor({ timeout: 10_000 });
  await page.locator('.find-widget [aria-label^="Replace All"]').click();
  const text = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await text.filter({ hasText: to }).waitFor({ timeout: 10_000 });
  // In code-server, Escape leaves the widget open over the CodeLens.
  await page.locator('.find-widget.visible [aria-label^="Close"]').click();
  await page.locator('.find-widget.visible').waitFor({ state: 'hidden', timeout: 10_000 });
  await text.click();
  await page.keyboard.press('Control+Home');
}

async function runCommand(page, title) {
  // One retry: a palette opened while a tree item is being revealed can lose its input; Escape and open it again.
  for (let attempt = 0; ; attempt++) {
    try {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 10_000 });
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: title.split(': ')[1] })
        .first()
        .waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      return;
    } catch (err) {
      if (attempt >= 1) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/** Packages test/vscode/peer and installs it into `extensionsDir`; returns what went wrong, if anything. */
/**
 * Waits for a notification: in the toasts first, then in the notification center. VS Code shows three toasts at
 * most and hides an information toast after a while, so a message that did arrive may be only in the center.
 */
async function seeNotification(page, hasText, timeout = 15_000) {
  const message = page.locator('.notification-list-item-message', { hasText }).first();
  try {
    await message.waitFor({ timeout });
  } catch (err) {
    await runCommand(page, 'Notifications: Show Notifications');
    const seen = await message.isVisible();
    await page.keyboard.press('Escape');
    if (!seen) throw err;
  }
}

function installPeer(tools, extensionsDir) {
  const vsix = join(mkdtempSync(join(tmpdir(), 'wfs-peer-')), 'peer.vsix');
  const pack = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--skip-license',
      '--out',
      vsix,
    ],
    { cwd: join(root, 'test', 'vscode', 'peer'), encoding: 'utf8' },
  );
  if (pack.status !== 0) return `packaging the peer extension failed:\n${pack.stdout}\n${pack.stderr}`;
  const install = spawnSync(
    tools.node24,
    [tools.codeServerEntry, '--extensions-dir', extensionsDir, '--install-extension', vsix],
    { encoding: 'utf8' },
  );
  return install.status === 0
    ? undefined
    : `installing the peer extension failed:\n${install.stdout}\n${install.stderr}`;
}

async function main() {
  const tools = ensureTools();
  if (!existsSync(VSIX)) throw new Error('Package first: npm run package');
  mkdirSync(shots, { recursive: true });
  const extensionsDir = mkdtempSync(join(tmpdir(), 'wfs-exts-'));
  const install = spawnSync(
    tools.node24,
    [tools.codeServerEntry, '--extensions-dir', extensionsDir, '--install-extension', VSIX],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`installing the .vsix failed:\n${install.stdout}\n${install.stderr}`);
  // Another extension, installed next to it: what a peer can reach of the toolkit (its exports, an Accounts session).
  const peer = installPeer(tools, extensionsDir);
  if (peer) throw new Error(peer);
  // A second environment, "Staging": a `wfs sandbox` process. It signs as the same issuer as the built-in sandbox
  // under its own key, so the receiver must check each delivery against its own key set.
  const staging = await startStagingSandbox();
  // The developer's app, which a forward rule routes `orders/*` deliveries to: it answers 201 with a header and a JSON
  // body of its own. No other step sends an `orders/` topic, so the rule changes nothing they see.
  const app = createServer((req, res) =>
    req
      .resume()
      .on('end', () =>
        res.writeHead(201, { 'content-type': 'application/json', 'x-app': 'walkthrough-app' }).end('{"handled":true}'),
      ),
  );
  await new Promise((r) => app.listen(0, '127.0.0.1', r));
  const server = await startCodeServer({
    tools,
    extensionsDir,
    settings: {
      'wfs.sandbox.workflowDurationSeconds': 3,
      'wfs.receiver.forward': [
        { name: 'orders app', topic: 'orders/*', url: `http://127.0.0.1:${app.address().port}/hooks` },
      ],
      'wfs.environments': [
        {
          name: 'Staging',
          baseUrl: staging.info.baseUrl,
          trustedIssuers: [
            { issuer: staging.info.issuer, audience: staging.info.audience, jwksUrl: staging.info.jwksUrl },
          ],
        },
      ],
    },
  });
  // A JSON file that is not valid JSON, for the "testData from the active editor" refusal.
  writeFileSync(join(server.workspace, 'bad-testdata.json'), '{ "webhookId": "x", oops }\n');
  // A valid one for "testData from a file": its topic (in the body) is distinctive, so the log line names it.
  const goodTestData = join(server.workspace, 'good-testdata.json');
  // One over the 64 MiB testData bound, picked by mistake (sparse: it takes no disk), for the size refusal.
  const hugeTestData = join(server.workspace, 'huge-dump.json');
  writeFileSync(hugeTestData, '');
  truncateSync(hugeTestData, 65 * 1024 * 1024);
  writeFileSync(
    goodTestData,
    JSON.stringify(
      {
        webhookId: randomUUID(),
        topic: 'filetest/from-a-file',
        subTopic: 'event:filetest/from-a-file',
        tenantId: 'tenant-demo',
        triggeredAt: '2026-11-22T08:00:00.1234567Z',
        actorId: 'actor-file',
        data: { runId: 'wfrun_from_file' },
      },
      null,
      2,
    ),
  );
  // testData whose signed topic the forward rule matches.
  const ordersTestData = join(server.workspace, 'orders-testdata.json');
  writeFileSync(
    ordersTestData,
    JSON.stringify(
      {
        webhookId: randomUUID(),
        topic: 'orders/created',
        subTopic: 'event:orders/created',
        tenantId: 'tenant-demo',
        triggeredAt: '2026-11-22T08:00:00.1234567Z',
        actorId: 'actor-orders',
        data: { orderId: 'ord_1001' },
      },
      null,
      2,
    ),
  );
  const browser = await launchBrowser();
  const results = [];
  let sendTestWebhook;
  let sendToOfferedReceiver;
  /** The built-in sandbox's address, read from its notification: the walkthrough injects faults through it. */
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    currentPage = page;
    await page.goto(`${server.url}/?folder=${encodeURIComponent(server.workspace)}`);
    results.push(
      await step('the workbench loads', async () => {
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      }),
    );
    const statusbar = page.locator('.statusbar');
    const tree = page.locator('.pane-body .monaco-list-row');
    const quickInput = page.locator('.quick-input-widget input');
    const receiverPane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Webhook Receiver' }) });
    // The two-step sign-in, answered as a user does: the offered username, then the demo password.
    const answerSignIn = async () => {
      await page.getByText('Sign in to Sandbox (1/2)').waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      await page.getByText('Sign in to Sandbox (2/2)').waitFor({ timeout: 15_000 });
      await quickInput.fill('demo-password');
      await page.keyboard.press('Enter');
      await statusbar.getByText(/Sandbox: demo · token/).waitFor({ timeout: 15_000 });
    };
    // The whole palette flow of "Send Test Webhook…", accepting what it offers (remembered headers, template, receiver).
    // With `testData` naming a choice of step 4 (e.g. 'The active JSON editor'), it stops after choosing it.
    sendTestWebhook = async (testData) => {
      await runCommand(page, 'Workflow Service: Send Test Webhook…');
      for (const title of [
        'Send test webhook (1/5): topic',
        'Send test webhook (2/5): sub-topic',
        'Send test webhook (3/5): tenant',
      ]) {
        await page.getByText(title).waitFor({ timeout: 15_000 });
        // Type where a person would: into the box they see (a webview clicked just before may still hold the keyboard).
        await quickInput.focus();
        await page.keyboard.press('Enter');
      }
      await page.getByText('Send test webhook (4/5)').waitFor({ timeout: 15_000 });
      if (testData) return page.locator('.quick-input-list .monaco-list-row', { hasText: testData }).click();
      await quickInput.focus();
      await page.keyboard.press('Enter');
      await sendToOfferedReceiver();
    };
    // Step 5 of "Send Test Webhook…": the receiver's address is offered; Enter sends, and the notification says so.
    sendToOfferedReceiver = async () => {
      await page.getByText('Send test webhook (5/5): address').waitFor({ timeout: 15_000 });
      if (!/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/.test(await quickInput.inputValue()))
        throw new Error('the receiver address is not offered');
      await quickInput.focus();
      await page.keyboard.press('Enter');
      await page
        .getByText(/Test webhook [0-9a-f-]{36} sent to/)
        .first()
        .waitFor({ timeout: 15_000 });
    };
    results.push(
      await step('the activity bar shows "Workflow Service"; its welcome view offers the sandbox', async () => {
        await page.locator('.activitybar a[aria-label^="Workflow Service"]').click({ timeout: 30_000 });
        await page.getByText('Try everything against the built-in sandbox').waitFor({ timeout: 30_000 });
        await statusbar.getByText('Sandbox: not started').waitFor({ timeout: 15_000 });
        await page.screenshot({ path: join(shots, '01-explorer-welcome.png') });
      }),
    );
    results.push(
      await step('"Start Sandbox" (the welcome button) starts it; the welcome view now asks to sign in', async () => {
        await page.getByRole('button', { name: 'Start Sandbox', exact: true }).click();
        const running = page.getByText(/sandbox running at http:\/\/127\.0\.0\.1:\d+/).first();
        await running.waitFor({ timeout: 30_000 });
        await page.getByText('You are not signed in to this environment.').waitFor({ timeout: 15_000 });
        await statusbar.getByText('Sandbox: signed out').waitFor({ timeout: 15_000 });
        await page.screenshot({ path: join(shots, '02-sandbox-running.png') });
      }),
    );
    results.push(
      await step(
        '"Sign In" offers the demo user, masks the password; the status bar shows who is signed in',
        async () => {
          await page.getByRole('button', { name: 'Sign In', exact: true }).click();
          await page.getByText('Sign in to Sandbox (1/2)').waitFor({ timeout: 15_000 });
          if ((await quickInput.inputValue()) !== 'demo') throw new Error('the sandbox username is not offered');
          await page.keyboard.press('Enter');
          await page.getByText('Sign in to Sandbox (2/2)').waitFor({ timeout: 15_000 });
          if ((await quickInput.getAttribute('type')) !== 'password') throw new Error('the password box is not masked');
          await quickInput.fill('demo-password');
          await page.keyboard.press('Enter');
          await statusbar.getByText(/Sandbox: demo · token (59m|1h 00m)/).waitFor({ timeout: 15_000 });
          await page.getByText('No sessions yet.').waitFor({ timeout: 15_000 });
          await page.screenshot({ path: join(shots, '03-signed-in.png') });
        },
      ),
    );
    results.push(
      await step('clicking the status bar item opens the environment menu (switch, sign out, configure)', async () => {
        await statusbar.getByText(/Sandbox: demo/).click();
        await page.getByText('Workflow Service: Environment').waitFor({ timeout: 15_000 });
        await page
          .locator('.quick-input-list .monaco-list-row', { hasText: 'Sign Out of Sandbox' })
          .waitFor({ timeout: 5_000 });
        await page
          .locator('.quick-input-list .monaco-list-row', { hasText: 'Configure Environments' })
          .waitFor({ timeout: 5_000 });
        await page.keyboard.press('Escape');
      }),
    );
    results.push(
      await step(
        'the Accounts menu lists "demo · Sandbox (Workflow Service)"; its Sign Out signs the environment out; signing in again adds it back',
        async () => {
          const account = page.locator('.monaco-menu .action-label', { hasText: 'demo · Sandbox (Workflow Service)' });
          await page.locator('.activitybar a[aria-label^="Accounts"]').click({ timeout: 15_000 });
          await account.waitFor({ timeout: 15_000 });
          await page.screenshot({ path: join(shots, '03b-accounts-menu.png') });
          await account.hover();
          // The submenu takes the keyboard once it shows: choose its "Sign Out" as a keyboard user would.
          await page.locator('.monaco-menu .action-label', { hasText: /^Sign Out$/ }).hover({ timeout: 15_000 });
          await page.keyboard.press('Enter');
          // VS Code confirms a sign-out from its Accounts menu.
          const confirm = page.locator('.monaco-dialog-box');
          await confirm.getByText("Sign out of 'demo · Sandbox'?").waitFor({ timeout: 15_000 });
          await confirm.getByRole('button', { name: 'Sign Out' }).click();
          await statusbar.getByText('Sandbox: signed out').waitFor({ timeout: 15_000 });
          await runCommand(page, 'Workflow Service: Sign In');
          await answerSignIn();
          await page.locator('.activitybar a[aria-label^="Accounts"]').click();
          await account.waitFor({ timeout: 15_000 });
          await page.keyboard.press('Escape');
        },
      ),
    );
    results.push(
      await step(
        "another extension gets nothing from the toolkit's exports, no session without asking, and a session once the user allows it",
        async () => {
          await runCommand(page, 'WFS Peer: Probe the Workflow Service Toolkit');
          // VS Code's own consent prompt, before a session (and its token) goes to another extension.
          const consent = page.locator('.monaco-dialog-box', { hasText: 'WFS Peer' });
          await consent.waitFor({ timeout: 15_000 });
          await page.screenshot({ path: join(shots, '03c-peer-asks-for-a-session.png') });
          await consent.getByRole('button', { name: 'Allow' }).click();
          // Then which account: the signed-in environment, or signing in to another.
          await page
            .getByText("The extension 'WFS Peer' wants to access a Workflow Service account")
            .waitFor({ timeout: 15_000 });
          await page.screenshot({ path: join(shots, '03d-peer-picks-an-account.png') });
          await page.locator('.quick-input-list .monaco-list-row', { hasText: 'demo · Sandbox' }).click();
          // The toast, not the screen reader's copy of it (an aria alert with the same text).
          await page
            .locator('.notification-list-item-message', {
              hasText: 'WFS Peer: exports none; without asking: none; after asking: demo · Sandbox with a token.',
            })
            .first()
            .waitFor({ timeout: 15_000 });
        },
      ),
    );
    results.push(
      await step(
        '"Add Session" suggests the sandbox sessions; the chosen one appears under the environment',
        async () => {
          await page.getByRole('button', { name: 'Add Session', exact: true }).click();
          await page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'sess-demo-staged' })
            .waitFor({ timeout: 15_000 });
          await page.keyboard.press('Enter');
          await tree.filter({ hasText: 'sess-demo-staged' }).first().waitFor({ timeout: 15_000 });
          await tree.filter({ hasText: 'no workflows yet' }).first().waitFor({ timeout: 15_000 });
        },
      ),
    );
    results.push(
      await step(
        '"Start Workflow (Billed)…": session, product, correlationId, then a modal naming product and session',
        async () => {
          await runCommand(page, 'Workflow Service: Start Workflow (Billed)…');
          await page.getByText('Start workflow: session').waitFor({ timeout: 15_000 });
          await page.keyboard.press('Enter');
          await page.getByText('Start workflow: product').waitFor({ timeout: 15_000 });
          await page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'Appraisal / Standard' })
            .first()
            .waitFor();
          await page.keyboard.press('Enter');
          await page.getByText('Start workflow: correlationId').waitFor({ timeout: 15_000 });
          if (!/^wfs-/.test(await quickInput.inputValue())) throw new Error('no generated correlationId is offered');
          await page.keyboard.press('Enter');
          const dialog = page.locator('.monaco-dialog-box');
          await dialog.getByText('Start a billed workflow?').waitFor({ timeout: 15_000 });
          await dialog.getByText(/Appraisal \/ Standard in session sess-demo-staged on Sandbox/).waitFor();
          await page.screenshot({ path: join(shots, '04-billing-confirmation.png') });
          await dialog.getByRole('button', { name: 'Start (Billed)' }).click();
        },
      ),
    );
    results.push(
      await step('the workflow shows "processing", then "complete" in the tree, by live polling', async () => {
        await tree
          .filter({ hasText: 'Appraisal / Standard' })
          .filter({ hasText: 'processing' })
          .first()
          .waitFor({ timeout: 15_000 });
        await tree
          .filter({ hasText: 'Appraisal / Standard' })
          .filter({ hasText: 'complete' })
          .first()
          .waitFor({ timeout: 30_000 });
        await page.locator('.pane-body .monaco-list-row .codicon-pass-filled').first().waitFor({ timeout: 5_000 });
        await page.screenshot({ path: join(shots, '05-workflow-complete.png') });
      }),
    );
    results.push(
      await step(
        'the Webhook Receiver view offers to start it; started, it shows its address, and so does the status bar',
        async () => {
          await receiverPane.getByText('The webhook receiver is not running.').waitFor({ timeout: 15_000 });
          await receiverPane.getByRole('button', { name: 'Start Webhook Receiver' }).click();
          await page
            .getByText(/Webhook receiver at http:\/\/127\.0\.0\.1:\d+\/webhooks/)
            .first()
            .waitFor({ timeout: 15_000 });
          await statusbar.getByText('Receiver').waitFor({ timeout: 15_000 });
          await receiverPane
            .locator('.monaco-list-row', { hasText: 'Local' })
            .getByText(/http:\/\/127\.0\.0\.1:\d+\/webhooks/)
            .waitFor({ timeout: 15_000 });
          // code-server is a remote: the public address is VS Code's forwarding of the receiver, and opened from the
          // browser it reaches the receiver (which answers a GET with 405).
          const publicRow = receiverPane.locator('.monaco-list-row', { hasText: 'Public' });
          await publicRow.getByText(/^http:\/\/127\.0\.0\.1:\d+\/.+/).waitFor({ timeout: 15_000 });
          const forwarded = (await publicRow.locator('.label-description').textContent()).trim();
          const tab = await browser.newPage();
          try {
            const res = await tab.goto(forwarded);
            const text = (await tab.textContent('body'))?.trim();
            if (res?.status() !== 405 || text !== 'POST only')
              throw new Error(`${forwarded} answered ${res?.status()} ${JSON.stringify(text)}, not the receiver's 405`);
          } finally {
            await tab.close();
          }
        },
      ),
    );
    results.push(
      await step(
        '"Send Test Webhook…" (remembered headers, template, receiver address) arrives verified, listed in the Webhook Receiver view',
        async () => {
          await sendTestWebhook();
          await receiverPane
            .locator('.monaco-list-row', { hasText: 'workflow/completed' })
            .getByText(/^200 · \d\d:\d\d:\d\d$/)
            .first()
            .waitFor({ timeout: 15_000 });
          await runCommand(page, 'Workflow Service: Show Log');
          await page
            .locator('.output-view, .panel')
            .getByText(/Webhook.POST.\/webhooks.→.200.verified/)
            .first()
            .waitFor({ timeout: 15_000 });
          await page.screenshot({ path: join(shots, '06-webhook-verified.png') });
        },
      ),
    );
    results.push(
      await step(
        'a free-text product the service does not know: the refusal says what happened and offers the correlationId',
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await runCommand(page, 'Workflow Service: Start Workflow (Billed)…');
          await page.getByText('Start workflow: session').waitFor({ timeout: 15_000 });
          await page.keyboard.press('Enter');
          await page.getByText('Start workflow: product').waitFor({ timeout: 15_000 });
          await quickInput.fill('Custom / Thing');
          await page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'other product' })
            .waitFor({ timeout: 5_000 });
          await page.keyboard.press('Enter');
          await page.getByText('Start workflow: correlationId').waitFor({ timeout: 15_000 });
          await page.keyboard.press('Enter');
          await page
            .locator('.monaco-dialog-box')
            .getByText(/Custom \/ Thing in session sess-demo-staged/)
            .waitFor({ timeout: 15_000 });
          await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Start (Billed)' }).click();
          const toast = page.locator('.notification-toast', {
            hasText: /Start workflow failed \(400 VALIDATION_ERROR\)/,
          });
          await toast.waitFor({ timeout: 15_000 });
          await toast.getByRole('button', { name: 'Copy correlationId' }).waitFor();
          await toast.getByRole('button', { name: 'Show Log' }).waitFor();
        },
      ),
    );
    /** Opens a workspace file by name with Quick Open (Ctrl+P) and waits for its tab. */
    const quickOpen = async (name) => {
      await page.keyboard.press('Control+P');
      await quickInput.fill(name);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      await page.locator('.tab', { hasText: name }).waitFor({ timeout: 15_000 });
    };
    results.push(
      await step(
        'testData from the active JSON editor that is not valid JSON: a clear error, nothing sent',
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await quickOpen('bad-testdata.json');
          await sendTestWebhook('The active JSON editor');
          await page
            .getByText(/The testData in the active editor is not valid JSON: .*Nothing was sent\./)
            .first()
            .waitFor({ timeout: 15_000 });
          if (await page.getByText('Send test webhook (5/5): address').isVisible())
            throw new Error('it went on to ask for an address');
          await runCommand(page, 'View: Close All Editors');
        },
      ),
    );
    /** "Send Test Webhook…" with "A JSON file", the file's path typed into the open dialog and confirmed. */
    const sendTestWebhookFromFile = async (file) => {
      await runCommand(page, 'Notifications: Clear All Notifications');
      await sendTestWebhook('A JSON file');
      // code-server's open dialog is VS Code's simple file dialog: a quick input holding a path.
      // It shows a parent folder first, then fills in the workspace folder: typing before that is overwritten.
      await page.waitForFunction(
        (folder) => document.querySelector('.quick-input-widget input')?.value === folder,
        `${server.workspace}/`,
        { timeout: 15_000 },
      );
      await quickInput.fill(file);
      await page.waitForFunction((want) => document.querySelector('.quick-input-widget input')?.value === want, file, {
        timeout: 5_000,
      });
      await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
    };
    results.push(
      await step(
        'testData from a JSON file (the open dialog): its JSON is the body, and the delivery arrives verified',
        async () => {
          await sendTestWebhookFromFile(goodTestData);
          await sendToOfferedReceiver();
          await runCommand(page, 'Workflow Service: Show Log');
          await page
            .locator('.output-view, .panel')
            .getByText(/Webhook.POST.\/webhooks.→.200.verified.topic.filetest\/from-a-file/)
            .first()
            .waitFor({ timeout: 15_000 });
        },
      ),
    );
    results.push(
      await step(
        'a testData file over 64 MiB picked in the open dialog: refused before it is read, saying its size; nothing is sent',
        async () => {
          await sendTestWebhookFromFile(hugeTestData);
          await page
            .getByText(
              /The testData file could not be used: .*huge-dump\.json is 68,157,440 bytes, over the 67,108,864 bytes \(64 MiB\) it may be\. Nothing was sent\./,
            )
            .first()
            .waitFor({ timeout: 15_000 });
          if (await page.getByText('Send test webhook (5/5): address').isVisible())
            throw new Error('it went on to ask for an address');
        },
      ),
    );
    const webview = () => page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    results.push(
      await step(
        '"Open Webhook Panel" lists the deliveries; a verified one shows its seven checks passed',
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await runCommand(page, 'View: Hide Panel');
          await runCommand(page, 'Workflow Service: Open Webhook Panel');
          await webview().locator('.row').first().waitFor({ timeout: 30_000 });
          const rows = webview().locator('.row');
          const verified = rows.filter({ hasText: 'verified' }).filter({ hasText: 'workflow/completed' }).first();
          await verified.click();
          await webview().locator('.check.ok').nth(6).waitFor({ timeout: 15_000 });
          const checks = await webview().locator('.check').count();
          if (checks !== 7) throw new Error(`expected 7 checks, saw ${checks}`);
          await webview()
            .getByText(/\.\d{7}Z/)
            .first()
            .waitFor();
          // Where the history is kept, and how to erase it, in plain sight.
          const storage = await webview().locator('#storage').textContent();
          if (
            !/The history is kept in .*deliveries.* \([\d.]+ (bytes|KiB|MiB) on disk, [\d.]+ (bytes|KiB|MiB) in memory\); Clear erases it/.test(
              storage ?? '',
            )
          )
            throw new Error(`the panel does not say where the history is kept: ${JSON.stringify(storage)}`);
          await page.screenshot({ path: join(shots, '07-webhook-panel.png') });
        },
      ),
    );
    results.push(
      await step(
        'the panel pauses (counting what arrives) and resumes; arrow keys move through the deliveries',
        async () => {
          const list = webview().locator('#list');
          const pause = webview().locator('#pause');
          const before = await webview().locator('.row').count();
          await pause.click();
          await sendTestWebhook();
          await webview().getByText('Resume (1 new)').waitFor({ timeout: 15_000 });
          if ((await webview().locator('.row').count()) !== before) throw new Error('a paused panel added a row');
          await pause.click();
          await webview().locator('.row').nth(before).waitFor({ timeout: 15_000 });
          await list.focus();
          await page.keyboard.press('Home');
          await webview().locator('.row[aria-selected="true"]').first().waitFor();
          const first = await webview().locator('.row[aria-selected="true"]').getAttribute('data-id');
          await page.keyboard.press('ArrowDown');
          await webview().locator(`.row[aria-selected="true"]:not([data-id="${first}"])`).waitFor({ timeout: 5_000 });
          await webview().locator('.check.ok').nth(6).waitFor({ timeout: 15_000 });
        },
      ),
    );
    results.push(
      await step(
        '"Edit and Resend…" in the panel opens the delivery as a fixture document; one field changed, its "Send to Receiver" CodeLens sends it, verified',
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          const before = await webview().locator('.row').count();
          await webview().locator('.row', { hasText: 'verified' }).first().click();
          await webview().locator('.check.ok').nth(6).waitFor({ timeout: 15_000 });
          await webview().getByRole('button', { name: 'Edit and Resend…' }).click();
          const tab = page.locator('.tab', { hasText: /^delivery-.*\.webhook\.json/ }).first();
          await tab.waitFor({ timeout: 15_000 });
          const lens = page.locator('.codelens-decoration a', { hasText: 'Send to Receiver' }).first();
          await lens.waitFor({ timeout: 30_000 });
          // One field changed as a user types it: find "actor-test" and replace it.
          await replaceInEditor(page, 'actor-test', 'actor-edited');
          await page.screenshot({ path: join(shots, '09-edit-and-resend.png') });
          await lens.click();
          await page
            .getByText(/^Sent to http:\/\/127\.0\.0\.1:\d+\/webhooks: 200, verified in \d+ ms/)
            .first()
            .waitFor({ timeout: 30_000 });
          await runCommand(page, 'Workflow Service: Open Webhook Panel');
          await webview().locator('.row').nth(before).waitFor({ timeout: 15_000 });
        },
      ),
    );
    results.push(
      await step('"Save as Fixture…" writes webhooks/NAME.webhook.json; its CodeLenses send it again', async () => {
        await runCommand(page, 'Notifications: Clear All Notifications');
        await webview().locator('.row', { hasText: 'verified' }).first().click();
        await webview().locator('.check.ok').nth(6).waitFor({ timeout: 15_000 });
        await webview().getByRole('button', { name: 'Save as Fixture…' }).click();
        await page.getByText('Save as Fixture', { exact: true }).first().waitFor({ timeout: 15_000 });
        await quickInput.fill('order-completed');
        await page.keyboard.press('Enter');
        await page.locator('.tab', { hasText: 'order-completed.webhook.json' }).waitFor({ timeout: 15_000 });
        for (const title of ['Send to Receiver', 'Send to App', 'Send as Test Webhook'])
          await page.locator('.codelens-decoration a', { hasText: title }).first().waitFor({ timeout: 30_000 });
        const onDisk = JSON.parse(
          readFileSync(join(server.workspace, 'webhooks', 'order-completed.webhook.json'), 'utf8'),
        );
        if (onDisk.wfsFixture !== 1 || onDisk.webhookId !== '{{fresh}}' || !onDisk.body)
          throw new Error(`not the documented format: ${JSON.stringify(onDisk).slice(0, 200)}`);
        await runCommand(page, 'Notifications: Clear All Notifications');
        await page.screenshot({ path: join(shots, '10-fixture-codelens.png') });
        await page.locator('.codelens-decoration a', { hasText: 'Send to Receiver' }).first().click();
        await page
          .getByText(/^Sent to http:\/\/127\.0\.0\.1:\d+\/webhooks: 200, verified in \d+ ms/)
          .first()
          .waitFor({ timeout: 30_000 });
        await runCommand(page, 'Workflow Service: Open Webhook Panel');
      }),
    );
    results.push(
      await step(
        '"Answer verified with" in the panel changes what the receiver answers (202 here), and back',
        async () => {
          await webview().locator('#override').selectOption('202');
          await sendTestWebhook();
          await webview().locator('.row .status', { hasText: '202' }).first().waitFor({ timeout: 15_000 });
          await webview().locator('#override').selectOption('');
          // Wait for this delivery's own row: a fixed row index is already there when earlier steps left more rows.
          const before = await webview().locator('.row').count();
          await sendTestWebhook();
          await webview().locator('.row').nth(before).waitFor({ timeout: 15_000 });
          const newest = await webview().locator('.row').first().locator('.status').textContent();
          if (newest !== '200')
            throw new Error(`after resetting the override the newest delivery was answered ${newest}`);
        },
      ),
    );
    results.push(
      await step(
        "a forward rule (orders/* → a small app on loopback, set before launch): the panel's detail shows the app's answer, its status, headers and body as text; the service is still answered 200",
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          // From the active editor, not the open dialog: the dialog opens in the folder it last showed, which by now
          // may be webhooks/ (Save as Fixture), and a typed path then lands there.
          await runCommand(page, 'View: Close All Editors');
          await quickOpen('orders-testdata.json');
          await sendTestWebhook('The active JSON editor');
          await sendToOfferedReceiver();
          await runCommand(page, 'Workflow Service: Open Webhook Panel');
          const row = webview().locator('.row:has(.badge.forwarded)').first();
          await row.waitFor({ timeout: 15_000 });
          // Pass-through is off by default: the service is still answered 200, whatever the app said.
          const status = await row.locator('.status').textContent();
          if (status !== '200') throw new Error(`the receiver answered ${status}, not 200, with pass-through off`);
          await row.click();
          const answer = webview().locator('.app-answers');
          await answer.getByText("The app's answer (1 target)").waitFor({ timeout: 15_000 });
          const box = answer.locator('.app-answer:not(.failed)');
          const pairs = await box
            .locator('tr')
            .evaluateAll((trs) =>
              trs.map((tr) => [
                tr.querySelector('th')?.textContent?.toLowerCase(),
                tr.querySelector('td')?.textContent,
              ]),
            );
          const value = (k) => pairs.find(([name]) => name === k)?.[1];
          if (value('status') !== '201') throw new Error(`the app's status shows as ${value('status')}, not 201`);
          if (value('x-app') !== 'walkthrough-app')
            throw new Error(`the app's x-app header is not shown: ${JSON.stringify(pairs)}`);
          const body = await box.locator('pre.app-body').textContent();
          if (body !== '{"handled":true}') throw new Error(`the app's body shows as ${JSON.stringify(body)}`);
          await answer.scrollIntoViewIfNeeded();
          await runCommand(page, 'Notifications: Clear All Notifications');
          // The palette fades out: the picture waits until it is gone.
          await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
          const shot = join(shots, '11-app-answer.png');
          await page.screenshot({ path: shot });
          copyFileSync(shot, join(root, 'media', 'readme', '08-app-answer.png'));
        },
      ),
    );
    results.push(
      await step(
        "the webhook panel (its deliveries listed, the forwarded one's detail open) passes axe-core (WCAG 2.1 A/AA) in its own theme, High Contrast, and light or dark",
        () =>
          axeInThemes(
            page,
            'webhook panel',
            '#spacer',
            "document.querySelectorAll('#spacer .row').length > 0 && !!document.querySelector('#detail .app-answers')",
          ),
      ),
    );
    results.push(
      await step(
        'a sandbox delivery fault "duplicate" (Add Sandbox Delivery Fault…): a test webhook arrives twice, and the panel marks the second "duplicate of …"',
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await runCommand(page, 'Workflow Service: Add Sandbox Delivery Fault…');
          await page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'the same event again, same webhookId' })
            .click({ timeout: 15_000 });
          await page.getByText('Copies of each event (1 to 10)').waitFor({ timeout: 15_000 });
          await quickInput.focus();
          await page.keyboard.press('Enter');
          await page.getByText('Seed, so a run repeats exactly').waitFor({ timeout: 15_000 });
          await quickInput.fill('7');
          await page.keyboard.press('Enter');
          await seeNotification(page, /Sandbox delivery faults now: .*duplicate/);
          await runCommand(page, 'Workflow Service: Open Webhook Panel');
          const rows = webview().locator('.row');
          await rows.first().waitFor({ timeout: 15_000 });
          const before = await rows.count();
          await runCommand(page, 'Notifications: Clear All Notifications');
          await sendTestWebhook();
          const sent =
            (await page
              .getByText(/Test webhook [0-9a-f-]{36} sent to/)
              .first()
              .textContent()) ?? '';
          const webhookId = /Test webhook ([0-9a-f-]{36})/.exec(sent)?.[1];
          // The delivery and its copy: newest first, so the copy is on top, the original under it.
          await rows.nth(before + 1).waitFor({ timeout: 15_000 });
          const [copy, original] = [await rows.nth(0).textContent(), await rows.nth(1).textContent()];
          const mark = `sandbox: duplicate of ${webhookId} (same token)`;
          if (!copy?.includes(mark) || !copy.includes('duplicate') || !copy.includes('verified'))
            throw new Error(`the second delivery is not marked ${JSON.stringify(mark)}: ${JSON.stringify(copy)}`);
          if (original?.includes('sandbox:')) throw new Error(`the first delivery is marked too: ${original}`);
          await rows.nth(0).click();
          await webview()
            .getByText(`the sandbox's note (unverified): duplicate of ${webhookId} (same token)`)
            .waitFor({ timeout: 15_000 });
          await webview().getByText('duplicate (already processed', { exact: false }).first().waitFor();
          // The detail keeps its scroll from the delivery shown before: its head, holding both marks, in view.
          await webview().locator('.detail-head').scrollIntoViewIfNeeded();
          await runCommand(page, 'Notifications: Clear All Notifications');
          await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
          await page.screenshot({ path: join(shots, '12-duplicate-marked.png') });
          await runCommand(page, 'Workflow Service: Clear Sandbox Delivery Faults');
          await seeNotification(page, 'Sandbox delivery faults cleared.');
        },
      ),
    );
    results.push(
      await step(
        'the panel comes back after a window reload, with its selection, and says the receiver is stopped, with a button to start it',
        async () => {
          // Before the reload it says where it receives.
          await webview()
            .getByText(/^Receiving at http:\/\/127\.0\.0\.1:\d+\/webhooks/)
            .waitFor({ timeout: 15_000 });
          await runCommand(page, 'Developer: Reload Window');
          await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
          await webview().locator('.check.ok').nth(6).waitFor({ timeout: 60_000 });
          // The reload restored the panel, not the receiver: the panel says so rather than wait for deliveries in silence.
          await webview()
            .getByText('The receiver is stopped: nothing is received until it starts.', { exact: false })
            .waitFor({ timeout: 15_000 });
          await webview().getByRole('button', { name: 'Start Receiver' }).waitFor({ state: 'visible', timeout: 5_000 });
        },
      ),
    );
    results.push(
      await step(
        '"Clear" asks first (Cancel keeps every delivery); the palette\'s Clear Webhook History… asks the same, then empties the history',
        async () => {
          const rows = await webview().locator('.row').count();
          if (rows === 0) throw new Error('no deliveries to clear');
          await webview().locator('#clear').click();
          const dialog = page.locator('.monaco-dialog-box');
          await dialog.getByText(/Clear all \d+ deliveries from the history\?/).waitFor({ timeout: 15_000 });
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
          if ((await webview().locator('.row').count()) !== rows) throw new Error('Cancel changed the list');
          await runCommand(page, 'Workflow Service: Clear Webhook History…');
          await dialog.getByText(/Clear all \d+ deliveries from the history\?/).waitFor({ timeout: 15_000 });
          await dialog.getByRole('button', { name: 'Clear' }).click();
          await webview().getByText('No deliveries yet.', { exact: false }).waitFor({ timeout: 15_000 });
          if ((await webview().locator('.row').count()) !== 0) throw new Error('rows remain after Clear');
        },
      ),
    );
    results.push(
      await step(
        'a billed start answered 500: the modal\'s first button is "Find Workflows", which finds the billed workflow and adds it',
        async () => {
          await runCommand(page, 'View: Close All Editors');
          await runCommand(page, 'Notifications: Clear All Notifications');
          // The window reload above restarted the extension host: the sandbox starts again on a new port.
          await page.getByRole('button', { name: 'Start Sandbox', exact: true }).click({ timeout: 15_000 });
          const running = page.getByText(/sandbox running at http:\/\/127\.0\.0\.1:\d+/).first();
          await running.waitFor({ timeout: 30_000 });
          await page.getByRole('button', { name: 'Sign In', exact: true }).click({ timeout: 15_000 });
          await answerSignIn();
          // The sandbox's control API needs its per-start secret, known inside the extension host only: the peer
          // extension asks for it and injects the fault.
          // Its answer is looked for in the toasts, then in the notification center (a toast may have been hidden); the
          // peer sets the fault anew each time, so a second try after a lost palette keystroke injects it once.
          const said = page
            .locator('.notification-list-item-message', {
              hasText: /WFS Peer: (the sandbox answered \d+ to the fault|the fault could not be injected)/,
            })
            .first();
          for (let attempt = 0; ; attempt++) {
            await runCommand(page, 'WFS Peer: Inject a Billed 500 into the Sandbox');
            try {
              await said.waitFor({ timeout: 10_000 });
              break;
            } catch (err) {
              await runCommand(page, 'Notifications: Show Notifications');
              if (await said.isVisible()) break;
              await page.keyboard.press('Escape');
              if (attempt >= 1) throw err;
            }
          }
          const injected = (await said.textContent()) ?? '';
          if (!injected.includes('answered 201')) throw new Error(`the fault was not injected: ${injected}`);
          await runCommand(page, 'Notifications: Clear All Notifications');
          const correlationId = `walkthrough-500-${Date.now()}`;
          await runCommand(page, 'Workflow Service: Start Workflow (Billed)…');
          await page.getByText('Start workflow: session').waitFor({ timeout: 15_000 });
          await quickInput.focus();
          await page.keyboard.press('Enter');
          await page.getByText('Start workflow: product').waitFor({ timeout: 15_000 });
          await page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'Appraisal / Standard' })
            .first()
            .waitFor();
          await page.keyboard.press('Enter');
          await page.getByText('Start workflow: correlationId').waitFor({ timeout: 15_000 });
          await quickInput.fill(correlationId);
          await page.keyboard.press('Enter');
          const dialog = page.locator('.monaco-dialog-box');
          await dialog.getByRole('button', { name: 'Start (Billed)' }).click({ timeout: 15_000 });
          await dialog.getByText(/Outcome unknown \(500\)/).waitFor({ timeout: 15_000 });
          // The modal's first button is its primary one: focused, so Enter finds.
          const primary = (await dialog.locator('.monaco-button:focus').textContent())?.trim();
          if (primary !== 'Find Workflows')
            throw new Error(`the primary button is ${JSON.stringify(primary)}, not "Find Workflows"`);
          await dialog.getByRole('button', { name: 'Find Workflows' }).click();
          await seeNotification(
            page,
            new RegExp(
              `Sandbox holds one workflow with correlationId ${correlationId}: Appraisal / Standard in sess-demo-staged .*Added to the explorer`,
            ),
          );
        },
      ),
    );
    results.push(
      await step(
        'two environments on one receiver: Staging (a second sandbox, same issuer, its own key) and Sandbox both arrive verified',
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await receiverPane.getByRole('button', { name: 'Start Webhook Receiver' }).click({ timeout: 15_000 });
          await receiverPane.locator('.monaco-list-row', { hasText: 'Local' }).waitFor({ timeout: 15_000 });
          await sendTestWebhook();
          await receiverPane
            .locator('.monaco-list-row', { hasText: 'workflow/completed' })
            .getByText(/^200 · \d\d:\d\d:\d\d$/)
            .first()
            .waitFor({ timeout: 15_000 });
          await runCommand(page, 'Workflow Service: Switch Environment…');
          await page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'Staging' })
            .first()
            .click({ timeout: 15_000 });
          await statusbar.getByText(/Staging: signed out/).waitFor({ timeout: 15_000 });
          await runCommand(page, 'Workflow Service: Sign In…');
          await page.getByText('Sign in to Staging (1/3)').waitFor({ timeout: 15_000 });
          await quickInput.fill(staging.info.username);
          await page.keyboard.press('Enter');
          await page.getByText('Sign in to Staging (2/3)').waitFor({ timeout: 15_000 });
          await quickInput.fill(staging.info.password);
          await page.keyboard.press('Enter');
          await page.getByText('Sign in to Staging (3/3)').waitFor({ timeout: 15_000 });
          await page.keyboard.press('Enter');
          await statusbar.getByText(/Staging: demo · token/).waitFor({ timeout: 15_000 });
          await sendTestWebhook();
          // Two deliveries since Clear, one per environment, each checked against its own key set: both answered 200.
          await receiverPane
            .locator('.monaco-list-row', { hasText: 'workflow/completed' })
            .getByText(/^200 · /)
            .nth(1)
            .waitFor({ timeout: 15_000 });
          // A refused delivery's row reads "403 refused at step N · hh:mm:ss" (a bare /403/ also matched a port).
          const refused = await receiverPane.locator('.monaco-list-row', { hasText: /\b403 refused\b/ }).count();
          if (refused !== 0) throw new Error(`${refused} deliveries were refused`);
        },
      ),
    );
    results.push(
      await step(
        '"Choose Public Address Source…" → a URL of your own without a fixed port: the restart warns why the address did not open, and offers the choice again',
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await runCommand(page, 'Workflow Service: Choose Public Address Source…');
          await page.getByText('Where the webhook receiver gets its public address').waitFor({ timeout: 15_000 });
          await page.locator('.quick-input-list .monaco-list-row', { hasText: 'A URL of your own' }).click();
          await page.getByText(/The public URL your tunnel or proxy serves/).waitFor({ timeout: 15_000 });
          await quickInput.fill('https://hooks.example.test/webhooks');
          await page.keyboard.press('Enter');
          const chosen = page.locator('.notification-toast', { hasText: /now comes from: A URL of your own/ });
          await chosen.getByRole('button', { name: 'Restart Receiver' }).click({ timeout: 15_000 });
          const warning = page.locator('.notification-toast', {
            hasText: /its public address \(url\) did not open: wfs\.receiver\.port is 0/,
          });
          await warning.waitFor({ timeout: 15_000 });
          await warning.getByRole('button', { name: 'Choose Address Source' }).waitFor();
          await receiverPane.locator('.monaco-list-row', { hasText: 'Local' }).waitFor({ timeout: 15_000 });
        },
      ),
    );
    results.push(
      await step(
        'the audit in the Testing view: run against a receiver that answers 200 to everything; a failed case shows its fix',
        async () => {
          const always200 = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
          await new Promise((r) => always200.listen(0, '127.0.0.1', r));
          try {
            await runCommand(page, 'Notifications: Clear All Notifications');
            await runCommand(page, 'View: Close All Editors');
            await runCommand(page, 'Testing: Focus on Test Explorer View');
            // One controller: its groups (the rule's step) are the tree's top level.
            await page.locator('.monaco-list-row', { hasText: 'Step 4' }).first().waitFor({ timeout: 15_000 });
            await runCommand(page, 'Test: Run All Tests');
            await page.getByText('Audit a webhook receiver').waitFor({ timeout: 15_000 });
            await quickInput.fill(`http://127.0.0.1:${always200.address().port}/webhooks`);
            await page.keyboard.press('Enter');
            // The scorecard opens as the readable report; the Testing view marks the failures, with the fix as the message.
            await webview()
              .getByText(/^\d+ of 30 passed$/)
              .waitFor({ timeout: 60_000 });
            await runCommand(page, 'Testing: Focus on Test Results View');
            await page
              .getByText(/Refuse \(403\) any delivery without an "Authorization: Bearer <JWT>" header/)
              .first()
              .waitFor({ timeout: 60_000 });
            await page.screenshot({ path: join(shots, '08-audit-testing-view.png') });
          } finally {
            always200.close();
          }
        },
      ),
    );
    results.push(
      await step(
        'the audit scorecard (a failed case opened) passes axe-core (WCAG 2.1 A/AA) in its own theme, High Contrast, and light or dark',
        async () => {
          const done = "document.querySelectorAll('#cases .case').length >= 30";
          const scorecard = await frameHolding(page, '#cases', `${done} && !!document.querySelector('.case.bad')`);
          await scorecard.click('.case.bad > summary');
          await axeInThemes(
            page,
            'audit scorecard',
            '#cases',
            `${done} && !!document.querySelector('.case.bad[open]')`,
          );
        },
      ),
    );
    results.push(
      await step(
        'the contract report ("Check Environment Against the Contract…" on the Sandbox) passes axe-core (WCAG 2.1 A/AA) in its own theme, High Contrast, and light or dark',
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await runCommand(page, 'View: Close All Editors');
          await runCommand(page, 'Workflow Service: Switch Environment…');
          // The row's label is a codicon (a check or a blank) and the name.
          await page
            .locator('.quick-input-list .monaco-list-row')
            .filter({ has: page.locator('.label-name', { hasText: /^\W*Sandbox\s*$/ }) })
            .first()
            .click({ timeout: 15_000 });
          await statusbar.getByText(/Sandbox: demo/).waitFor({ timeout: 15_000 });
          await runCommand(page, 'Workflow Service: Check Environment Against the Contract…');
          await page.getByText('Check Sandbox against the contract (1/3)').waitFor({ timeout: 15_000 });
          if ((await quickInput.inputValue()) !== 'demo') throw new Error('the sandbox username is not offered');
          await page.keyboard.press('Enter');
          await page.getByText('Check Sandbox against the contract (2/3)').waitFor({ timeout: 15_000 });
          await quickInput.fill('demo-password');
          await page.keyboard.press('Enter');
          await page.getByText('Check Sandbox against the contract (3/3)').waitFor({ timeout: 15_000 });
          await page.keyboard.press('Enter');
          const rows = `document.querySelectorAll('#probe-rows tr').length > 10`;
          await frameHolding(page, '#probe-rows', rows, 120_000);
          await axeInThemes(page, 'contract report', '#probe-rows', rows);
        },
      ),
    );
    results.push(
      await step(
        "Compare with Original (an edited delivery beside the one received, in VS Code's diff editor) passes axe-core (WCAG 2.1 A/AA) in its own theme, High Contrast, and light or dark",
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await runCommand(page, 'View: Close All Editors');
          await runCommand(page, 'Workflow Service: Open Webhook Panel');
          await webview().locator('.row', { hasText: 'verified' }).first().click({ timeout: 15_000 });
          await webview().locator('.check.ok').nth(6).waitFor({ timeout: 15_000 });
          await webview().getByRole('button', { name: 'Edit and Resend…' }).click();
          await page
            .locator('.tab', { hasText: /^delivery-.*\.webhook\.json/ })
            .first()
            .waitFor({ timeout: 15_000 });
          const lens = page.locator('.codelens-decoration a', { hasText: 'Compare with Original' }).first();
          await lens.waitFor({ timeout: 30_000 });
          await replaceInEditor(page, 'actor-test', 'actor-compared');
          await lens.click({ timeout: 15_000 });
          const diff = '.editor-group-container.active .monaco-diff-editor';
          const shown = `!!document.querySelector(${JSON.stringify(diff)})`;
          await frameHolding(page, '.monaco-workbench', shown, 30_000);
          await axeInThemes(page, 'compare view', '.monaco-workbench', shown, { include: diff, workbench: true });
        },
      ),
    );
    results.push(
      await step(
        "the extension's details page renders the packaged README (its tables and images) and CHANGELOG",
        async () => {
          await runCommand(page, 'Notifications: Clear All Notifications');
          await runCommand(page, 'View: Close All Editors');
          await runCommand(page, 'Extensions: Show Installed Extensions');
          // By its name: the peer test extension's description names the toolkit too.
          await page
            .locator('.extensions-viewlet .monaco-list-row .name', { hasText: /^Workflow Service Toolkit$/ })
            .first()
            .click({ timeout: 30_000 });
          const details = webview();
          // README: its first heading, a table rendered as a table (not as pipes), and its images loaded.
          await details.locator('h1', { hasText: 'Workflow Service Toolkit' }).first().waitFor({ timeout: 60_000 });
          await details.locator('table th').first().waitFor({ timeout: 15_000 });
          const pipes = await details.locator('p', { hasText: /^\s*\|.*\|\s*$/ }).count();
          if (pipes > 0) throw new Error(`${pipes} README table row(s) render as plain text`);
          // vsce points README's images at the repository (the Marketplace needs https); offline they cannot load,
          // so check that each names a screenshot the repository holds.
          const raw = `${repositoryUrl()}/raw/HEAD/`;
          const images = await details.locator('img').evaluateAll((imgs) => imgs.map((i) => i.src));
          const unknown = images.filter(
            (src) => !src.startsWith(raw) || !existsSync(join(root, src.slice(raw.length))),
          );
          if (images.length === 0 || unknown.length > 0) throw new Error(`README images: ${images.join(', ')}`);
          // The pointer still rests on the list row it clicked: the row's hover card may cover the page's tabs.
          await page.locator('.extension-editor').hover({ position: { x: 8, y: 8 }, force: true });
          await page.keyboard.press('Escape');
          await page.screenshot({ path: join(shots, '13-details-readme.png') });
          await page.locator('.extension-editor .navbar .action-label', { hasText: 'Changelog' }).click();
          await details.locator('h2', { hasText: '[0.1.0]' }).first().waitFor({ timeout: 30_000 });
          await details.locator('h3', { hasText: 'Added' }).first().waitFor({ timeout: 15_000 });
          await page.screenshot({ path: join(shots, '14-details-changelog.png') });
        },
      ),
    );
  } finally {
    app.close();
    await browser.close().catch(() => {});
    await server.stop();
    staging.stop();
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(`Screenshots in test/vscode/screenshots/.`);
  console.log(`walkthrough: ${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** The repository URL of package.json, as vsce uses it to rewrite README's relative links. */
function repositoryUrl() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return pkg.repository.url.replace(/\.git$/, '');
}

/** `wfs sandbox` from this build, as a second environment; resolves with its ready line. */
function startStagingSandbox() {
  const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'sandbox'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`wfs sandbox exited ${code} before it was ready`)));
    child.stdout.on('data', (c) => {
      text += c;
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      child.removeAllListeners('exit');
      resolve({ info: JSON.parse(text.slice(0, nl)), stop: () => child.kill('SIGTERM') });
    });
  });
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err?.message ?? err);
    process.exit(1);
  },
);
