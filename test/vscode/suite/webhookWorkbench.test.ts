// The webhook workbench as a user goes through it in a real VS Code: receive a delivery, Edit and Resend it with one
// field changed, see the new delivery verified with the edit and linked to its original (and compare the two), save
// it as a fixture, send the fixture through its CodeLens, and find the file on disk in the documented format.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server, type Socket } from 'node:net';
import type { ExtensionApi } from '../hostExtension/extension';
import { parseFixture } from '../../../src/core/fixtures/fixtureFormat';
import type { FixtureSendResult } from '../../../src/extension/fixtures/fixtureSend';
import { rawRequest } from '../../unit/helpers/rawHttp';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { deliveredBy, extensionApi, setSetting, signInToSandbox, until } from './helpers';
import { notificationsInCenter } from './workbenchDom';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('webhook workbench: Edit and Resend, fixtures and their CodeLenses', () => {
  let api: ExtensionApi;
  let receiverUrl: string;

  before(async () => {
    api = await extensionApi();
    await signInToSandbox();
    receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('fixtures.folder', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  /** Runs a CodeLens of a document, as a click on it does: the provider's own command and arguments. */
  async function clickLens(uri: vscode.Uri, title: RegExp): Promise<FixtureSendResult> {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    const lens = lenses.find((l) => title.test(l.command?.title ?? ''));
    assert.ok(lens, `a CodeLens ${title} among ${lenses.map((l) => l.command?.title).join(', ')}`);
    return vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
  }

  it('receive → Edit and Resend one field → verified, linked, compared → Save as Fixture → send by CodeLens', async () => {
    const tenant = `tenant-workbench-${Date.now()}`;
    const original = await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: tenant,
        testData: 'template',
        address: receiverUrl,
      }),
    );
    assert.equal(original.verified, true);

    // Edit and Resend from the panel's detail: a fixture document of its own, opened in an editor.
    await api.webhookPanel.runAction('edit-resend', original.id);
    const editor = vscode.window.activeTextEditor!;
    assert.match(editor.document.uri.fsPath, new RegExp(`delivery-${original.id}\\.webhook\\.json$`));
    const text = editor.document.getText();
    assert.ok(text.includes('"actorId": "actor-test"'), text);
    // One field changed, as a user types it.
    const at = editor.document.positionAt(text.indexOf('actor-test'));
    await editor.edit((e) => e.replace(new vscode.Range(at, at.translate(0, 'actor-test'.length)), 'actor-edited'));
    const edited = editor.document.getText();

    // Send through the document's CodeLens, to this receiver.
    const before = api.receiver.deliveries.all().length;
    const resent = await clickLens(editor.document.uri, /Send to Receiver/);
    assert.equal(resent.notSent, undefined);
    assert.equal(resent.sent?.answer.status, 200);
    const fresh = resent.delivery!;
    assert.ok(api.receiver.deliveries.all().length > before);
    assert.equal(fresh.verified, true, JSON.stringify(fresh.checks.find((c) => !c.ok)));
    assert.equal(fresh.duplicate, false, 'a fresh webhookId: not a duplicate of the original');
    assert.notEqual(fresh.webhookId, original.webhookId);
    assert.equal(fresh.derivedFrom, original.id, 'linked to its original');
    const body = (await api.receiver.deliveries.body(fresh.id))!;
    assert.match(body.toString('utf8'), /"actorId": "actor-edited"/);
    assert.match(body.toString('utf8'), new RegExp(tenant));
    // Exactly the editor's bytes were signed: the body's value as it stands in the document, ids filled in.
    const p = parseFixture(edited);
    assert.ok(p.ok);
    const expected = p.fixture.bodyText
      .replace('"{{webhookId}}"', JSON.stringify(fresh.webhookId))
      .replace('"{{triggeredAt}}"', JSON.stringify(fresh.triggeredAt));
    assert.equal(fresh.body.sha256, sha(expected));
    assert.equal(fresh.jwt?.claims?.body_sha256, sha(expected));

    // Compare with Original: VS Code's diff editor, the original on the left.
    assert.equal(await vscode.commands.executeCommand('wfs.compareWithOriginal', fresh.id), true);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab!;
    assert.ok(tab.input instanceof vscode.TabInputTextDiff, 'a diff editor');
    assert.equal(tab.input.original.path, `/${original.id}.json`);
    assert.equal(tab.input.modified.path, `/${fresh.id}.json`);

    // Save as Fixture: in the workspace's folder, in the documented format.
    await setSetting('fixtures.folder', 'webhooks/wb');
    const file = (await vscode.commands.executeCommand('wfs.saveAsFixture', { deliveryId: fresh.id }, 'edited'))!;
    assert.ok(file instanceof vscode.Uri);
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    assert.equal(file.fsPath, `${root}/webhooks/wb/edited.webhook.json`);
    const onDisk = readFileSync(file.fsPath, 'utf8');
    const saved = JSON.parse(onDisk) as Record<string, unknown>;
    assert.deepEqual(Object.keys(saved), [
      'wfsFixture',
      'topic',
      'subTopic',
      'tenant',
      'webhookId',
      'triggeredAt',
      'body',
      'expect',
      'derivedFrom',
    ]);
    assert.equal(saved.wfsFixture, 1);
    assert.equal(saved.tenant, tenant);
    assert.equal(saved.webhookId, '{{fresh}}');
    assert.equal(saved.triggeredAt, '{{now}}');
    assert.equal((saved.body as { actorId: string }).actorId, 'actor-edited');
    assert.deepEqual(saved.derivedFrom, {
      deliveryId: fresh.id,
      receivedAt: fresh.receivedAt,
      sha256: fresh.body.sha256,
    });
    assert.ok(onDisk.endsWith('}\n') && onDisk.includes('\n  "body": {\n'), 'two-space JSON, a line per field');

    // Its CodeLens sends it: a new event each time, verified.
    const again = await clickLens(file, /Send to Receiver/);
    assert.equal(again.delivery?.verified, true);
    assert.notEqual(again.delivery?.webhookId, fresh.webhookId);
    assert.match((await api.receiver.deliveries.body(again.delivery!.id))!.toString(), /actor-edited/);
  });

  it('Copy as PowerShell and Copy as curl for cmd.exe: the command on the clipboard, the body in the file it names', async () => {
    const d = await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 'tenant-shells',
        testData: 'template',
        address: receiverUrl,
      }),
    );
    const body = (await api.receiver.deliveries.body(d.id))!;
    const ps = (await api.webhookPanel.runAction('copy-powershell', d.id)) as string;
    assert.equal(await vscode.env.clipboard.readText(), ps);
    // curl.exe reads the request from a config file and the body file, in a folder the line enters: nothing from the
    // delivery is on its command line (test/unit/presentation/shellCommands.test.ts checks each shell's rules).
    const psDir =
      /^Push-Location -LiteralPath '([^']+)' -ErrorAction Stop; try \{ curl\.exe -sS --globoff -X POST -K 'request\.curlrc' -H "Authorization: Bearer \$env:WFS_WEBHOOK_TOKEN" \} finally \{ Pop-Location \}$/.exec(
        ps,
      );
    assert.ok(psDir, ps);
    assert.deepEqual(readFileSync(join(psDir[1]!, 'request.body')), body, 'the exact body in the file');
    assert.match(readFileSync(join(psDir[1]!, 'request.curlrc'), 'latin1'), /^url = "http:\/\/.*"$/m);
    assert.ok(!ps.includes('redacted'));
    const cmd = (await api.webhookPanel.runAction('copy-cmd', d.id)) as string;
    assert.equal(await vscode.env.clipboard.readText(), cmd);
    assert.ok(!cmd.includes('\n'), 'one line');
    const cmdDir =
      /^pushd "([^"]+)" && \(curl\.exe -sS --globoff -X POST -K request\.curlrc -H "Authorization: Bearer %WFS_WEBHOOK_TOKEN%" & popd\)$/.exec(
        cmd,
      );
    assert.ok(cmdDir, cmd);
    assert.deepEqual(readFileSync(join(cmdDir[1]!, 'request.body')), body);
  });

  it('a fixture with an error gets a diagnostic naming the field; nothing is sent', async () => {
    await setSetting('fixtures.folder', undefined);
    const root = vscode.workspace.workspaceFolders![0]!.uri;
    const uri = vscode.Uri.joinPath(root, 'webhooks', 'broken.webhook.json');
    await vscode.workspace.fs.writeFile(
      uri,
      Buffer.from('{\n  "wfsFixture": 1,\n  "topic": "orders/created",\n  "subTopic": "s:o/c",\n  "tenant": "t"\n}\n'),
    );
    await vscode.window.showTextDocument(uri);
    await until(
      vscode.languages.onDidChangeDiagnostics,
      () => vscode.languages.getDiagnostics(uri).some((d) => d.source === 'webhook fixture'),
      'a diagnostic',
    );
    const [d] = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'webhook fixture');
    assert.match(d!.message, /^body: "body" is missing: this fixture names topic "orders\/created" but no body/);
    const before = api.receiver.deliveries.all().length;
    const r = await clickLens(uri, /Send to Receiver/);
    assert.equal(r.notSent, 'invalid');
    assert.equal(api.receiver.deliveries.all().length, before);
    await notificationsInCenter(/broken\.webhook\.json: nothing was sent\. "body" \(line 1\)/, 1);
  });

  it('a refused delivery cannot be re-signed; a target that does not answer is named with the time waited', async () => {
    const refused = await deliveredBy(api, () =>
      rawRequest(receiverUrl, {
        method: 'POST',
        body: '{"webhookId":"x"}',
        headers: { 'content-type': 'application/json', authorization: 'Bearer not.a.jwt' },
      }),
    );
    assert.equal(refused.verified, false);
    assert.equal(await vscode.commands.executeCommand('wfs.editAndResend', refused.id), undefined);
    await notificationsInCenter(/^Edit and Resend: this delivery was refused, so it cannot be re-signed/, 1);

    // A server that accepts the connection and never answers.
    const held: Socket[] = [];
    const silent: Server = createServer((s) => void held.push(s.on('data', () => undefined)));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as { port: number }).port;
      const doc = await vscode.workspace.openTextDocument(
        vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'webhooks', 'wb', 'edited.webhook.json'),
      );
      const r = (await vscode.commands.executeCommand('wfs.sendFixture', doc.uri, {
        target: { kind: 'url', url: `http://127.0.0.1:${port}/hook` },
        timeoutMs: 400,
      })) as FixtureSendResult;
      assert.equal(r.sent?.answer.failure, 'timeout');
      assert.ok(r.sent!.answer.latencyMs >= 400);
      await notificationsInCenter(/^No answer from http:\/\/127\.0\.0\.1:\d+\/hook within 0\.4 s \(waited \d+ ms\)/, 1);
    } finally {
      for (const s of held) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});

describe('Restricted Mode: webhook fixtures', function () {
  let recorder: RecordingServer;
  let recorderUrl: string;
  before(async function () {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    assert.equal(vscode.workspace.isTrusted, false);
    await extensionApi();
    recorder = new RecordingServer();
    recorderUrl = await recorder.start();
  });
  after(async () => {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return;
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await recorder.stop();
  });

  it('a fixture is read and checked, sent to loopback, and sending it off this machine waits for trust', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'webhooks', 'restricted.webhook.json');
    const body = '{"webhookId":"{{webhookId}}","note":"restricted"}';
    await vscode.workspace.fs.writeFile(
      uri,
      Buffer.from(`{"wfsFixture":1,"topic":"a/b","subTopic":"s:a/b","tenant":"t","body":${body}}\n`),
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    assert.ok(
      lenses.some((l) => l.command?.title.includes('Send to Receiver')),
      'its CodeLenses are there',
    );
    const local = (await vscode.commands.executeCommand('wfs.sendFixture', doc.uri, {
      target: { kind: 'url', url: recorderUrl },
    })) as FixtureSendResult;
    assert.equal(local.sent?.answer.status, 200);
    assert.equal(recorder.requests.length, 1);
    assert.match(recorder.requests[0]!.headers.authorization as string, /^Bearer ey/);
    const remote = (await vscode.commands.executeCommand('wfs.sendFixture', doc.uri, {
      target: { kind: 'url', url: 'http://192.0.2.1:9/hook' },
      confirmedRemote: true,
    })) as FixtureSendResult;
    assert.equal(remote.notSent, 'waits-for-trust');
    await notificationsInCenter(/^Sending this fixture to 192\.0\.2\.1 waits until you trust this workspace/, 1);
  });
});
