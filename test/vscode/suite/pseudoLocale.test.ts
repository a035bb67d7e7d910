// The extension in the qps-ploc pseudo-locale: runOffline.mjs writes the pseudo bundles into the host extension and
// opens a third window with VS Code's display language set to qps-ploc (WFS_EXPECT_PSEUDO_LOCALE=1, only this
// suite). What is on screen is read from the workbench's DOM: any word of our English bundles left unaccented on our
// surfaces is a string that missed vscode.l10n. VS Code's own chrome stays English and is not read.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { englishLeaks, ourEnglishWords } from '../../unit/l10n/pseudoLocale';
import type { ExtensionApi } from '../hostExtension/extension';
import { deliveredBy, extensionApi, signInToSandbox } from './helpers';
import { notificationsInCenter, ourStatusBarItems, quickPickShown, treeRows, type ShownItem } from './workbenchDom';

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
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  const leaks = (items: ShownItem[]) =>
    items.flatMap((i) =>
      [i.text, i.ariaLabel].flatMap((t) => englishLeaks(t, ours, values).map((w) => `${w} in "${t}"`)),
    );

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
    await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 'tenant-pseudo',
        testData: 'template',
        address: localUrl,
      }),
    );
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
    assert.deepEqual(
      texts.flatMap((t) => englishLeaks(t, ours, values).map((w) => `${w} in "${t}"`)),
      [],
    );
  });
});
