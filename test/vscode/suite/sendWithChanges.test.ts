// "Send with Changes…" (#76, item 3) as a user goes through it in a real VS Code: on a fixture's CodeLens, type
// path=value pairs; a path the event does not have is named while typing; the delivery arrives at the receiver with
// the change, verified (signed after the change). A fixture's {{env.NAME}} reads the editor's environment; an unset
// one is named and nothing is sent. The same on a delivery, from the panel's action.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { FixtureSendResult } from '../../../src/extension/fixtures/fixtureSend';
import { deliveredBy, extensionApi, signInToSandbox } from './helpers';
import { notificationsInCenter } from './workbenchDom';

interface AskedInput {
  title?: string;
  /** What validateInput said of each value typed. */
  said: (string | undefined)[];
}

/** Plays the user at the extension's next input boxes: types each value of `typed` in turn (validateInput sees it,
 * as when a user types), and accepts the last one; returns what was asked and said. */
function typeIntoInputBox(api: ExtensionApi, typed: string[]): { asked: AskedInput; restore: () => void } {
  const window = api.window as { showInputBox: typeof vscode.window.showInputBox };
  const original = window.showInputBox;
  const asked: AskedInput = { said: [] };
  window.showInputBox = async (options?: vscode.InputBoxOptions) => {
    asked.title = options?.title;
    for (const v of typed) {
      const said = await options?.validateInput?.(v);
      asked.said.push(typeof said === 'string' ? said : (said ?? undefined)?.message);
    }
    return typed.at(-1);
  };
  return { asked, restore: () => void (window.showInputBox = original) };
}

describe('Send with Changes…: path=value on a fixture and on a delivery', () => {
  let api: ExtensionApi;

  before(async () => {
    api = await extensionApi();
    await signInToSandbox();
    await vscode.commands.executeCommand('wfs.startReceiver');
  });
  after(async () => {
    delete process.env.WFS_CHANGES_NOTE;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  async function writeFixture(name: string, body: unknown): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'webhooks', `${name}.webhook.json`);
    const doc = {
      wfsFixture: 1,
      topic: 'workflow/completed',
      subTopic: 'status:workflow/completed',
      tenant: 't1',
      body,
    };
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(doc, null, 2)));
    return uri;
  }

  const bodyOf = async (id: string) =>
    JSON.parse((await api.receiver.deliveries.body(id))!.toString('utf8')) as {
      tenantId: string;
      data: { runId: string; count: number; note: string };
    };

  it('on a fixture: a CodeLens; it asks for changes, names a wrong path while typing, and sends the change signed', async () => {
    process.env.WFS_CHANGES_NOTE = 'from the "editor"';
    const uri = await writeFixture('changes', {
      webhookId: '{{webhookId}}',
      tenantId: 't1',
      data: { runId: 'wfrun_1', count: 1, note: '{{env.WFS_CHANGES_NOTE}}' },
    });
    // Open, as a user has it when the CodeLens shows (the provider is asked for an open document).
    await vscode.window.showTextDocument(uri);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    const lens = lenses.find((l) => l.command?.title === 'Send with Changes…');
    assert.ok(lens, `a "Send with Changes…" CodeLens among ${lenses.map((l) => l.command?.title).join(', ')}`);

    const { asked, restore } = typeIntoInputBox(api, [
      'data.runid=wfrun_42',
      'data.runId=wfrun_42 data.count=3 tenantId=t2',
    ]);
    let result: FixtureSendResult | undefined;
    try {
      const delivery = await deliveredBy(api, async () => {
        // The lens's command, with the target given (the quick pick of targets is not what this tests).
        result = await vscode.commands.executeCommand<FixtureSendResult>('wfs.sendFixtureWithChanges', uri, {
          target: { kind: 'receiver' },
        });
      });
      assert.equal(asked.title, 'Send the Fixture with Changes');
      assert.match(
        asked.said[0] ?? '',
        /^data\.runid is not in the event: data has no "runid"\. Did you mean data\.runId\?/,
      );
      assert.equal(asked.said[1], undefined, 'the corrected changes are taken');
      assert.equal(result?.sent?.answer.status, 200);
      assert.equal(delivery.verified, true, 'signed over the changed bytes');
      assert.equal(delivery.headers['x-svc-tenant-id'], 't2', 'the header follows the body');
      const body = await bodyOf(delivery.id);
      assert.deepEqual([body.data.runId, body.data.count, body.tenantId], ['wfrun_42', 3, 't2']);
      assert.equal(body.data.note, 'from the "editor"', "{{env.NAME}} is the editor's environment");
    } finally {
      restore();
    }
  });

  it('an unset variable, or a path given that the event does not have: named, and nothing is sent', async () => {
    const uri = await writeFixture('unset', { data: { runId: 'r', note: '{{env.WFS_CHANGES_NOT_SET}}' } });
    const before = api.receiver.deliveries.all().length;
    const unset = await vscode.commands.executeCommand<FixtureSendResult>('wfs.sendFixtureWithChanges', uri, {
      changes: 'data.runId=x',
      target: { kind: 'receiver' },
    });
    assert.equal(unset.notSent, 'invalid');
    await notificationsInCenter(
      /unset\.webhook\.json: nothing was sent\. \{\{env\.WFS_CHANGES_NOT_SET\}\}: the variable/,
      1,
    );
    const missing = await vscode.commands.executeCommand<FixtureSendResult>('wfs.sendFixtureWithChanges', uri, {
      changes: 'data.nope=1',
      target: { kind: 'receiver' },
    });
    assert.equal(missing.notSent, 'invalid');
    await notificationsInCenter(/^Send with Changes: nothing was sent\. data\.nope is not in the event/, 1);
    assert.equal(api.receiver.deliveries.all().length, before, 'the receiver got nothing');
  });

  it('on a delivery: the panel action re-signs it with the change', async () => {
    const uri = await writeFixture('original', { tenantId: 't1', data: { runId: 'wfrun_1' } });
    const original = await deliveredBy(api, () => vscode.commands.executeCommand('wfs.sendFixtureToReceiver', uri));
    assert.equal(original.verified, true);
    const changed = await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendDeliveryWithChanges', original.id, {
        changes: 'data.runId=wfrun_99',
        target: { kind: 'receiver' },
      }),
    );
    assert.equal(changed.verified, true);
    assert.equal((await bodyOf(changed.id)).data.runId, 'wfrun_99');
  });
});
