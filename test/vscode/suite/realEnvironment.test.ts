// The editor on an environment that is not the Sandbox (issue #70), in a real VS Code: "Staging" is a second
// sandbox started here, with a key set of its own under the same issuer name, trusted through its trustedIssuers.
// What the editor signs and sends to its own receiver (Edit and Resend, a fixture's CodeLens, Replay, the audit) is
// accepted once and marked signed here; anything else the sandbox's key signs stays refused; Compare with Original
// marks only the edit; the audit of the extension's own receiver scores 30/30 in the panel and the Testing view, and
// an audit of a receiver that does not trust the key says so instead of calling it insecure.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AUDIT_CASES } from '../../../src/core/audit/auditCases';
import type { AuditSummary } from '../../../src/core/audit/receiverAudit';
import { Sandbox, type SandboxInfo } from '../../../src/core/sandbox/Sandbox';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import type { FixtureSendResult } from '../../../src/extension/fixtures/fixtureSend';
import type { ExtensionApi } from '../hostExtension/extension';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { deliveredBy, extensionApi, setSetting, until } from './helpers';
import { auditPanelDom, inWebview, webhookPanelDom } from './webviewDom';
import { notificationButtons, notificationsInCenter } from './workbenchDom';

describe('the editor on a real environment (Staging, not the Sandbox)', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let staging: Sandbox;
  let st: SandboxInfo;
  let receiverUrl: string;
  /** A verified delivery from Staging, signed by Staging's key. */
  let original: DeliveryRecord;
  /** The fixture Edit and Resend opened, edited. */
  let editedUri: vscode.Uri;

  /** Runs a CodeLens of a document, as a click on it does. */
  async function clickLens<T>(uri: vscode.Uri, title: RegExp): Promise<T> {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    const lens = lenses.find((l) => title.test(l.command?.title ?? ''));
    assert.ok(lens, `a CodeLens ${title} among ${lenses.map((l) => l.command?.title).join(', ')}`);
    return vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
  }
  async function post(body: Buffer, token: string): Promise<number> {
    const res = await fetch(receiverUrl, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    return res.status;
  }

  before(async () => {
    api = await extensionApi();
    staging = new Sandbox({ port: 0 });
    st = await staging.start();
    await vscode.commands.executeCommand('wfs.stopReceiver');
    // The built-in sandbox runs: it is what the editor signs with.
    await vscode.commands.executeCommand('wfs.startSandbox');
    await setSetting('environments', [
      {
        name: 'Staging',
        baseUrl: st.baseUrl,
        trustedIssuers: [{ issuer: st.issuer, jwksUrl: st.jwksUrl, audience: st.audience }],
      },
    ]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Staging')?.trustedIssuers.length === 1,
      "Staging's trusted issuer",
    );
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Staging',
        username: st.username,
        password: st.password,
      }),
      true,
    );
    receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
    assert.equal(st.issuer, api.sandbox.info!.issuer, 'two sandboxes, one issuer name: as in the issue');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await setSetting('environments', undefined);
    await setSetting('fixtures.folder', undefined);
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await staging.stop();
  });

  it("a Staging test webhook is verified by Staging's key; Edit and Resend, edited and sent by its CodeLens: 200, verified, marked signed here", async () => {
    original = await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 'tenant-staging',
        testData: 'template',
        address: receiverUrl,
      }),
    );
    assert.equal(original.verified, true, JSON.stringify(original.checks.find((c) => !c.ok)));
    assert.equal(original.signedHere, undefined, "Staging's own delivery is not signed here");

    await api.webhookPanel.runAction('edit-resend', original.id);
    const editor = vscode.window.activeTextEditor!;
    editedUri = editor.document.uri;
    const text = editor.document.getText();
    const at = editor.document.positionAt(text.indexOf('actor-test'));
    await editor.edit((e) => e.replace(new vscode.Range(at, at.translate(0, 'actor-test'.length)), 'actor-edited'));

    const resent = await clickLens<FixtureSendResult>(editedUri, /Send to Receiver/);
    assert.equal(resent.sent?.answer.status, 200, resent.sent?.answer.body?.toString());
    const fresh = resent.delivery!;
    assert.equal(fresh.verified, true, JSON.stringify(fresh.checks.find((c) => !c.ok)));
    assert.equal(fresh.signedHere, true);
    assert.equal(fresh.derivedFrom, original.id);
    assert.match((await api.receiver.deliveries.body(fresh.id))!.toString(), /actor-edited/);

    // The panel says so, on the row and in the detail, so nobody takes it for Staging's.
    await vscode.commands.executeCommand('wfs.openWebhookPanel', fresh.id);
    const dom = await webhookPanelDom(
      `document.getElementById('detail').textContent.includes('signed here (sandbox key)')`,
    );
    assert.match(dom.detailText, /signed here \(sandbox key\)/);
    assert.ok(dom.visibleRows.some((r) => r?.includes('signed here (sandbox key)')));
    // No row is marked that the history does not mark (the panel shows a page of rows; other suites' deliveries
    // share this window's history).
    const marked = dom.visibleRows.filter((r) => r?.includes('signed here')).length;
    assert.ok(marked <= api.receiver.deliveries.all().filter((r) => r.signedHere).length, `${marked} rows marked`);
    assert.ok(
      dom.visibleRows.some((r) => r !== undefined && !r.includes('signed here')),
      "Staging's own is not",
    );
  });

  it('Compare with Original from the edited fixture: only the edited line differs', async () => {
    assert.equal(await clickLens<boolean>(editedUri, /Compare with Original/), true);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab!;
    assert.ok(tab.input instanceof vscode.TabInputTextDiff, 'a diff editor');
    const left = (await vscode.workspace.openTextDocument(tab.input.original)).getText().split('\n');
    const right = (await vscode.workspace.openTextDocument(tab.input.modified)).getText().split('\n');
    assert.equal(left.length, right.length, `${left.join('\n')}\n----\n${right.join('\n')}`);
    const changed = left.flatMap((l, i) => (l === right[i] ? [] : [[l.trim(), right[i]!.trim()]]));
    assert.equal(changed.length, 1, JSON.stringify(changed));
    assert.match(changed[0]![0]!, /^"actorId": "actor-test",?$/);
    assert.match(changed[0]![1]!, /^"actorId": "actor-edited",?$/);
  });

  it('Save as Fixture of the Staging delivery, then its CodeLens Send to Receiver: 200, verified, signed here; Replay too', async () => {
    await setSetting('fixtures.folder', 'webhooks/staging');
    const file = (await vscode.commands.executeCommand('wfs.saveAsFixture', { deliveryId: original.id }, 'staged'))!;
    assert.ok(file instanceof vscode.Uri);
    const sent = await clickLens<FixtureSendResult>(file, /Send to Receiver/);
    assert.equal(sent.sent?.answer.status, 200, sent.sent?.answer.body?.toString());
    assert.deepEqual([sent.delivery?.verified, sent.delivery?.signedHere], [true, true]);

    const replayed = await deliveredBy(api, () => api.webhookPanel.runAction('replay-local', original.id));
    assert.deepEqual(
      [replayed.status, replayed.verified, replayed.signedHere, replayed.duplicate],
      [200, true, true, true],
      'the same event again: verified, and known for a duplicate',
    );
  });

  it('a sandbox-signed delivery from any other process is still refused, and so is a token the editor already spent', async () => {
    const body = Buffer.from(JSON.stringify({ webhookId: 'b5b3c1e0-0000-4000-8000-000000000070', topic: 'x/y' }));
    const token = (await api.sandbox.signWebhookBody(body))!;
    const status = await post(body, token);
    assert.ok(status === 403 || status === 503, `refused: ${status}`);
    const refused = api.receiver.deliveries.all().at(-1)!;
    assert.deepEqual([refused.verified, refused.signedHere], [false, undefined]);
    assert.equal(api.receiver.deliveries.all().filter((r) => r.signedHere && !r.verified).length, 0);
  });

  it("the audit of the extension's own receiver: 30/30 in the scorecard and in the Testing view", async () => {
    const s = (await vscode.commands.executeCommand('wfs.auditReceiver', { target: receiverUrl })) as AuditSummary;
    assert.deepEqual(
      s.results.filter((r) => !r.passed).map((r) => `${r.id}: ${r.detail}`),
      [],
    );
    assert.equal(s.total, 30);
    const dom = await auditPanelDom(
      `document.querySelectorAll('.case').length === 30 && document.querySelectorAll('.case.ok').length === 30`,
    );
    assert.ok(dom.cases.every((c) => c.ok));

    const outcomes = await api.auditTests.run(
      new vscode.TestRunRequest(),
      new vscode.CancellationTokenSource().token,
      receiverUrl,
    );
    assert.equal(outcomes.length, AUDIT_CASES.length);
    assert.deepEqual(
      outcomes.filter((o) => !o.passed),
      [],
    );
  });

  it('an audit of a receiver that does not trust the key: one result saying so, in the scorecard and the Testing view; no case failed', async () => {
    const refusing = new RecordingServer();
    refusing.respond = () => 403;
    const target = `${await refusing.start()}/webhooks`;
    try {
      const s = (await vscode.commands.executeCommand('wfs.auditReceiver', { target })) as AuditSummary;
      assert.equal(refusing.requests.length, 1, 'only the genuine delivery was sent');
      assert.equal(s.trustMismatch?.status, 403);
      const shown = await inWebview<{ text: string; cases: number }>(
        '#cases',
        `({ text: document.querySelector('.trust-mismatch').textContent, cases: document.querySelectorAll('.case').length })`,
        `!!document.querySelector('.trust-mismatch')`,
      );
      assert.equal(shown.cases, 0, 'no case is shown failed');
      assert.match(shown.text, /The receiver refused the genuine delivery: the other 29 cases were not sent/);
      assert.ok(shown.text.includes(s.trustMismatch!.signedWith.jwksUrl), 'the key set it signed with');
      assert.ok(shown.text.includes(s.trustMismatch!.signedWith.kid!), 'and its kid');
      assert.match(
        shown.text,
        /Staging is the environment in use: this window's receiver trusts the Sandbox's key only while the Sandbox is in use/,
      );

      const item = api.auditTests.controller.items.get('group:Step 5')!;
      const outcomes = await api.auditTests.run(
        new vscode.TestRunRequest([item]),
        new vscode.CancellationTokenSource().token,
        target,
      );
      assert.ok(outcomes.length > 0);
      assert.ok(
        outcomes.every(
          (o) => !o.passed && o.notSent && /^Not sent: the receiver refused the genuine delivery/.test(o.message ?? ''),
        ),
        JSON.stringify(outcomes),
      );
      assert.equal(refusing.requests.length, 2, 'again the genuine delivery alone');
    } finally {
      await refusing.stop();
    }
  });

  it('sent to an app outside the Sandbox: said once which key the app must trust, with Copy JWKS URL; a 403 from the app says this may be why', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    const app = new RecordingServer();
    app.respond = () => 403;
    const url = `${await app.start()}/hooks`;
    const notice =
      /^What the editor sends to your app is signed with the sandbox's key, not Staging's\. For development, your app must trust issuer /;
    // VS Code shows a message once however often it is asked: the extension's own calls are counted.
    const window = api.window as { showInformationMessage: (...args: unknown[]) => Thenable<unknown> };
    const original = window.showInformationMessage;
    let asked = 0;
    window.showInformationMessage = (message: unknown, ...rest: unknown[]) => {
      if (notice.test(String(message))) asked++;
      return original.call(api.window, message, ...rest);
    };
    try {
      for (let i = 0; i < 2; i++) {
        const r = (await vscode.commands.executeCommand('wfs.sendFixture', editedUri, {
          target: { kind: 'url', url },
        })) as FixtureSendResult;
        assert.equal(r.sent?.answer.status, 403);
      }
      assert.equal(app.requests.length, 2);
      assert.ok(asked <= 1, `the notice is said once in a window, not ${asked} times`);
      const shown = await notificationsInCenter(notice, 1);
      assert.ok(shown[0]!.includes(api.sandbox.info!.jwksUrl));
      assert.deepEqual(await notificationButtons(notice), ['Copy JWKS URL']);
      await notificationsInCenter(/answered 403\. The delivery was signed with the sandbox's key .*that may be why/, 1);
    } finally {
      window.showInformationMessage = original;
      await vscode.commands.executeCommand('notifications.hideList');
      await app.stop();
    }
  });
});
