// An https app with its own certificate (self-signed, made here with openssl) behind a forward rule, as the editor
// meets it. In a trusted window the user's own rule's `ca` is what Send to App, the receiver's forwarding and Replay
// to Forward Target trust; without it, Send to App names the certificate problem and the rule as its fix. In
// Restricted Mode a workspace's rule with a `ca` for the same app is not used: Send to App goes to the user's own
// target with no `ca`, and meets the certificate problem (docs/receiver.md: a workspace's `ca` is never read there).
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { FixtureSendResult } from '../../../src/extension/fixtures/fixtureSend';
import {
  makeTestCertificates,
  startHttpsApp,
  type HttpsApp,
  type TestCertificates,
} from '../../unit/helpers/testCertificates';
import { extensionApi, setSetting, until } from './helpers';

const FIXTURE = JSON.stringify({
  wfsFixture: 1,
  topic: 'orders/created',
  subTopic: 'event:orders/created',
  tenant: 'tenant-demo',
  body: { webhookId: '{{webhookId}}', topic: 'orders/created', triggeredAt: '{{triggeredAt}}', data: {} },
});

/** A fixture file in the workspace folder, removed by the caller. */
function writeFixture(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  mkdirSync(join(folder, 'webhooks'), { recursive: true });
  const uri = vscode.Uri.file(join(folder, 'webhooks', `${name}.webhook.json`));
  writeFileSync(uri.fsPath, FIXTURE);
  return uri;
}

describe('https app targets: a forward rule’s ca in Send to App and Replay to Forward Target', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let certs: TestCertificates;
  let app: HttpsApp;
  let fixture: vscode.Uri;
  let target: string;

  before(async function () {
    if (process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    api = await extensionApi();
    certs = makeTestCertificates();
    app = await startHttpsApp(certs.selfSigned, { host: 'localhost' });
    target = `${app.origin}/in`;
    fixture = writeFixture('https-app');
    await vscode.commands.executeCommand('wfs.stopReceiver');
  });

  after(async () => {
    if (process.env.WFS_EXPECT_UNTRUSTED) return;
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.forward', undefined);
    rmSync(fixture.fsPath, { force: true });
    await app.stop();
    certs.remove();
  });

  it("without `ca`, Send to App names the self-signed certificate and the rule's ca as its fix; nothing arrives", async () => {
    await setSetting('receiver.forward', [{ topic: '**', url: target }]);
    const sent = (await vscode.commands.executeCommand('wfs.sendFixtureToApp', fixture)) as FixtureSendResult;
    assert.equal(sent.target, target);
    assert.equal(sent.sent?.answer.tls, 'self-signed');
    assert.match(String(sent.sent?.answer.error), /presented a self-signed certificate: add `ca` to the forward rule/);
    assert.deepEqual(app.paths, []);
  });

  it("with the rule's `ca`: Send to App, the receiver's forward and Replay to Forward Target reach the app", async () => {
    await setSetting('receiver.forward', [{ topic: '**', url: target, ca: certs.selfSigned.cert }]);
    const sent = (await vscode.commands.executeCommand('wfs.sendFixtureToApp', fixture)) as FixtureSendResult;
    assert.equal(sent.sent?.answer.status, 200, String(sent.sent?.answer.error));
    assert.deepEqual(app.paths, ['/in']);

    const received = (await vscode.commands.executeCommand('wfs.sendFixtureToReceiver', fixture)) as FixtureSendResult;
    assert.equal(received.delivery?.verified, true);
    assert.deepEqual(
      received.delivery?.forwards?.map((f) => [f.target, f.status]),
      [[target, 200]],
    );
    assert.deepEqual(app.paths, ['/in', '/in']);

    const replayed = (await api.webhookPanel.runAction('replay-forward', received.delivery!.id)) as { status: number };
    assert.equal(replayed?.status, 200);
    assert.deepEqual(app.paths, ['/in', '/in', '/in']);
  });
});

describe("Restricted Mode: a workspace rule's ca for an https app is not used", function () {
  this.timeout(60_000);
  let certs: TestCertificates;
  let app: HttpsApp;
  let fixture: vscode.Uri;
  let settingsFile: string;
  let target: string;

  before(async function () {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    assert.equal(vscode.workspace.isTrusted, false, 'this window must open the folder untrusted');
    await extensionApi();
    certs = makeTestCertificates();
    app = await startHttpsApp(certs.selfSigned, { host: 'localhost' });
    target = `${app.origin}/in`;
    // The user's own target is the same app, with no `ca` (wfs.receiver.forwardTo takes none).
    await setSetting('receiver.forwardTo', target);
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    settingsFile = join(folder, '.vscode', 'settings.json');
    writeFileSync(
      settingsFile,
      JSON.stringify({
        'wfs.receiver.forward': [{ topic: '**', url: target, ca: certs.selfSigned.cert }],
        // A setting a workspace may set: once it applies, VS Code has read the file.
        'wfs.polling.deadlineMinutes': 7,
      }),
    );
    await until(
      vscode.workspace.onDidChangeConfiguration,
      () => vscode.workspace.getConfiguration('wfs').get('polling.deadlineMinutes') === 7,
      'the workspace settings file to be read',
    );
    fixture = writeFixture('https-restricted');
  });

  after(async () => {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return;
    rmSync(settingsFile, { force: true });
    rmSync(fixture.fsPath, { force: true });
    await setSetting('receiver.forwardTo', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await app.stop();
    certs.remove();
  });

  it("Send to App goes to the user's own target without the workspace's ca: the certificate problem is named", async () => {
    const sent = (await vscode.commands.executeCommand('wfs.sendFixtureToApp', fixture)) as FixtureSendResult;
    assert.equal(sent.target, target);
    assert.equal(sent.sent?.answer.tls, 'self-signed', 'the workspace rule’s ca was not trusted');
    assert.equal(sent.sent?.answer.status, undefined);
    assert.deepEqual(app.paths, []);
  });
});
