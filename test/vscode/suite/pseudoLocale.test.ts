// The extension in the qps-ploc pseudo-locale: runOffline.mjs writes the pseudo bundles into the host extension and
// opens a third window with VS Code's display language set to qps-ploc (WFS_EXPECT_PSEUDO_LOCALE=1, only this
// suite). What is on screen is read from the workbench's DOM: any word of our English bundles left unaccented on our
// surfaces is a string that missed vscode.l10n. VS Code's own chrome stays English and is not read.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { englishLeaks, ourEnglishWords } from '../../unit/l10n/pseudoLocale';
import type { ExtensionApi } from '../hostExtension/extension';
import { deliveredBy, extensionApi, setSetting, signInToSandbox } from './helpers';
import { notificationsInCenter, ourStatusBarItems, quickPickShown, treeRows, type ShownItem } from './workbenchDom';
import { inWebview } from './webviewDom';

/** A webview's words: headings, buttons, labels, summaries, the verification steps and notes (core's words, worded
 * through the bundle) and what a screen reader or a hover says. The data it shows (topics, bodies) is left out. */
const WEBVIEW_WORDS = `[...document.querySelectorAll('h1, h2, h3, button, summary, label, th, option, legend, #title, #summary, .check, .note')]
  .map((e) => e.textContent.trim())
  .concat([...document.querySelectorAll('[aria-label], [title], [placeholder]')]
    .flatMap((e) => ['aria-label', 'title', 'placeholder'].map((a) => e.getAttribute(a)).filter(Boolean)))
  .filter(Boolean)`;

describe('Pseudo-locale: no English of ours on screen', function () {
  let api: ExtensionApi;
  let ours: Set<string>;
  /** Values the screens quote: names and data, not our words. */
  let values: string[];

  before(async function () {
    if (!process.env.WFS_EXPECT_PSEUDO_LOCALE) return this.skip();
    api = await extensionApi();
    ours = ourEnglishWords(join(__dirname, '../../../..'));
    await signInToSandbox();
    values = ['Sandbox', 'demo', 'workflow/completed', 'wfs.receiver.publicAddress'];
  });

  after(async () => {
    if (!process.env.WFS_EXPECT_PSEUDO_LOCALE) return;
    await setSetting('receiver.forwardTo', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  /** A test webhook from the Sandbox to `address`, once the receiver has recorded it. */
  const testWebhookTo = (address: string) =>
    deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 'tenant-pseudo',
        testData: 'template',
        address,
      }),
    );
  /** Each word of our English left in these texts, with the text it was found in. */
  const leaked = (texts: string[]) => texts.flatMap((t) => englishLeaks(t, ours, values).map((w) => `${w} in "${t}"`));
  const leaks = (items: ShownItem[]) => leaked(items.flatMap((i) => [i.text, i.ariaLabel]));
  /** A webview's words hold none of our English; the editors close for the next screen. */
  async function noEnglishIn(words: string[]): Promise<void> {
    assert.deepEqual(leaked(words), []);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }

  it("runs in qps-ploc, with the pseudo bundle loaded for the extension's strings", () => {
    assert.equal(vscode.env.language, 'qps-ploc');
    assert.equal(api.receiverTree.getTreeItem({ kind: 'local' }).label, '[Ĺôçàĺ]');
  });

  it('a notification and its buttons', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    void vscode.commands.executeCommand('wfs.copyReceiverUrl');
    const [message] = await notificationsInCenter(/./, 1);
    assert.deepEqual(englishLeaks(message!, ours, values), [], message);
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('the status bar, text and screen-reader label', async () => {
    await vscode.commands.executeCommand('wfs.startReceiver');
    const items = await ourStatusBarItems(2);
    assert.equal(items.length, 2, JSON.stringify(items));
    assert.deepEqual(leaks(items), []);
  });

  it('the receiver tree, with a verified and a refused delivery', async () => {
    const localUrl = api.receiver.info!.localUrl;
    values.push(localUrl, api.receiver.info!.publicUrl ?? localUrl);
    await testWebhookTo(localUrl);
    await deliveredBy(api, () => fetch(localUrl, { method: 'POST', body: '{}' }).then((r) => r.arrayBuffer()));
    values.push('event:workflow/completed', 'tenant-pseudo');
    const rows = await treeRows('wfs.receiver', /workflow\/completed/);
    assert.ok(rows.length >= 5, JSON.stringify(rows));
    assert.deepEqual(leaks(rows), []);
  });

  it('the explorer tree', async () => {
    const info = api.sandbox.info!;
    await vscode.commands.executeCommand('wfs.addSession', info.sessions.staged);
    values.push(info.sessions.staged, info.baseUrl);
    const rows = await treeRows('wfs.explorer', new RegExp(info.sessions.staged));
    assert.deepEqual(leaks(rows), []);
  });

  it('a quick pick: title, placeholder and rows', async () => {
    void vscode.commands.executeCommand('wfs.switchEnvironment');
    const shown = await quickPickShown('Sandbox');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    values.push(api.sandbox.info!.baseUrl);
    const texts = [shown.title, shown.placeholder, ...shown.rows];
    assert.deepEqual(leaked(texts), []);
  });

  it('the webhook panel', async () => {
    const refused = api.receiver.deliveries.all().find((r) => !r.verified)!;
    await vscode.commands.executeCommand('wfs.openWebhookPanel', refused.id);
    // The row's request line and the filter's field names are the protocol's, not words.
    values.push(`POST ${new URL(api.receiver.info!.localUrl).pathname}`, 'webhookId');
    // The headers table names each header as it arrived: data.
    values.push(...Object.keys(refused.headers));
    const words = await inWebview<string[]>(
      '#spacer',
      WEBVIEW_WORDS,
      `document.querySelectorAll('#spacer .row').length > 0 && document.querySelectorAll('.check').length === 2`,
    );
    assert.ok(words.length > 5, JSON.stringify(words));
    // Step 1 failed (no Authorization header), then the decision: core's words, through the bundle.
    assert.ok(
      words.some((w) => w.includes('[ñô Àûţĥôŕîžàţîôñ ĥéàďéŕ]')),
      JSON.stringify(words),
    );
    await noEnglishIn(words);
  });

  it("the webhook panel's seven passed steps of a verified delivery", async () => {
    const verified = api.receiver.deliveries.all().find((r) => r.verified)!;
    await vscode.commands.executeCommand('wfs.openWebhookPanel', verified.id);
    // Data: the issuer, its key-set address and the key's id the steps name; the token's claim and header names,
    // the request's header names, the body's keys as its JSON shows them, the run's id on its button.
    const claims = (verified.jwt?.claims ?? {}) as Record<string, unknown>;
    const header = (verified.jwt?.header ?? {}) as Record<string, unknown>;
    const body = JSON.parse((await api.receiver.deliveries.body(verified.id))!.toString('utf8')) as object;
    values.push(
      api.sandbox.info!.jwksUrl,
      ...[claims.iss, header.kid, verified.runId].filter((v): v is string => typeof v === 'string'),
      ...Object.keys(claims),
      ...Object.keys(header),
      ...Object.keys(verified.headers).map((h) => h.toLowerCase()),
      ...Object.keys(body).map((k) => JSON.stringify(k)),
    );
    const words = await inWebview<string[]>(
      '#spacer',
      WEBVIEW_WORDS,
      `document.querySelectorAll('.check.ok').length === 7`,
    );
    const steps = words.filter((w) => /^\d\./.test(w) || w.includes('—'));
    assert.ok(steps.length >= 7, JSON.stringify(words));
    await noEnglishIn(words);
  });

  it('the audit webview', async () => {
    const localUrl = api.receiver.info!.localUrl;
    const audit = (await vscode.commands.executeCommand('wfs.auditReceiver', { target: localUrl })) as {
      results: { title: string; expected: unknown }[];
    };
    // Each case's title, rule, result, why and fix are core's words, worded through the bundle (the command returns
    // the English summary, as the CLI prints it); the expected status is a number.
    values.push(...audit.results.map((r) => String(r.expected)));
    // The requests' header names, in the cases' tables: data (core's words name the Authorization header too).
    values.push('authorization', 'content-type', 'x-svc-webhook-id', 'x-svc-topic');
    const caseWords = `${WEBVIEW_WORDS}.concat([...document.querySelectorAll('.case > table.kv td, .case p.fix, .in-your-code p')]
      .map((e) => e.textContent.trim()).filter(Boolean))`;
    const words = await inWebview<string[]>('#cases', caseWords, `document.querySelectorAll('.case').length === 30`);
    // The cases' titles are read too, in the user's words: none is the English the command returned.
    const titles = (audit.results as { title: string }[]).map((r) => r.title);
    assert.ok(!words.some((w) => titles.some((t) => w.includes(t))), JSON.stringify(words.slice(0, 5)));
    assert.ok(words.length > 5, JSON.stringify(words));
    await noEnglishIn(words);
  });
  it("the webhook panel: an app that did not answer, in the user's words", async () => {
    // Nothing listens on port 9 here: the forward is refused, and the panel says why.
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.forwardTo', 'http://127.0.0.1:9/webhooks');
    const localUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
    const r = await testWebhookTo(localUrl);
    await vscode.commands.executeCommand('wfs.openWebhookPanel', r.id);
    values.push(localUrl, 'ECONNREFUSED', 'http://127.0.0.1:9/webhooks');
    const words = await inWebview<string[]>(
      '#spacer',
      `[...document.querySelectorAll('.app-answers > summary, .app-answers h3, .app-answers th, .app-answers td')].map((e) => e.textContent.trim()).filter(Boolean)`,
      `document.querySelectorAll('.app-answer.failed td').length > 0`,
    );
    assert.ok(words.length > 3, JSON.stringify(words));
    await noEnglishIn(words);
  });
});
