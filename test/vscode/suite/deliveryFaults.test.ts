// The editor's sandbox delivery faults in a real VS Code host: Add Sandbox Delivery Fault sets a duplicate on the
// extension's sandbox, a test webhook then arrives twice at the receiver with the same webhookId, the copy carrying
// the sandbox's note, which the panel's row says in words; Clear removes it; a bad option changes nothing.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { deliveryRow } from '../../../src/extension/panel/deliveryView';
import { extensionApi, signInToSandbox, until } from './helpers';

describe('sandbox delivery faults from the editor', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await signInToSandbox();
  });
  after(async () => {
    await vscode.commands.executeCommand('wfs.clearSandboxDeliveryFaults');
    await vscode.commands.executeCommand('wfs.stopReceiver');
  });

  it('a duplicate fault: the test webhook arrives twice, the copy marked; Clear removes the fault', async () => {
    const set = await vscode.commands.executeCommand('wfs.addSandboxDeliveryFault', {
      fault: 'duplicate',
      count: 1,
      seed: 3,
    });
    assert.deepEqual(set, { seed: 3, to: 'all', duplicate: { copies: 1, freshToken: false } });
    const { localUrl } = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string };
    const seen: DeliveryRecord[] = [];
    const sub = api.receiver.onDidReceive((r) => seen.push(r));
    const sent = (await vscode.commands.executeCommand('wfs.sendTestWebhook', {
      topic: 'workflow/completed',
      subTopic: 'event:workflow/completed',
      tenantId: 'tenant-host-test',
      testData: 'template',
      address: localUrl,
    })) as { webhookId: string };
    await until(api.receiver.onDidReceive, () => seen.length >= 2, 'the delivery and its copy');
    sub.dispose();
    const [first, copy] = seen;
    assert.deepEqual([first!.verified, copy!.verified], [true, true]);
    assert.equal(first!.sandboxFault, undefined);
    assert.equal(copy!.duplicate, true);
    assert.equal(copy!.webhookId, first!.webhookId);
    assert.equal(copy!.sandboxFault?.duplicateOf, sent.webhookId);
    assert.equal(deliveryRow(copy!).sandboxNote, `duplicate of ${sent.webhookId} (same token)`);

    assert.equal(await vscode.commands.executeCommand('wfs.clearSandboxDeliveryFaults'), true);
    assert.equal(api.sandbox.info !== undefined, true);
  });

  it('a bad option is refused and changes nothing', async () => {
    await vscode.commands.executeCommand('wfs.clearSandboxDeliveryFaults');
    assert.equal(
      await vscode.commands.executeCommand('wfs.addSandboxDeliveryFault', { fault: 'burst', count: 500 }),
      undefined,
    );
    assert.equal(await vscode.commands.executeCommand('wfs.clearSandboxDeliveryFaults'), false);
  });
});
