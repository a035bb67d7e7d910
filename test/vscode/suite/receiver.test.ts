// The receiver in a real VS Code host: start it, send a test webhook through the sandbox, see it arrive verified.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension/extension';
import type { DeliveryRecord } from '../../../src/core/webhooks/DeliveryLog';
import { LocaltunnelServer } from '../../unit/helpers/localtunnelServer';
import { extensionApi, setSetting, until } from './helpers';

describe('webhook receiver in a real VS Code host', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.startSandbox');
    assert.equal(await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }), true);
  });
  after(async () => {
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('the Webhook Receiver view is empty while the receiver is stopped (its welcome view offers to start it)', () => {
    assert.equal(api.receiver.info, undefined);
    assert.deepEqual(api.receiverTree.getChildren(), []);
  });

  it('starts on loopback (no tunnel for the sandbox by default)', async () => {
    const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string; publicUrl?: string; tunnelState: string };
    assert.match(info.localUrl, /^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    assert.equal(info.publicUrl, undefined);
    assert.equal(info.tunnelState, 'closed');
    assert.equal(await vscode.commands.executeCommand('wfs.copyReceiverUrl'), info.localUrl);
    // The view now shows the address (a click copies it), the tunnel, and the deliveries.
    const rows = api.receiverTree.getChildren();
    assert.deepEqual(rows.map((n) => n.kind), ['local', 'tunnel', 'deliveries']);
    const local = api.receiverTree.getTreeItem(rows[0]!);
    assert.equal(local.description, info.localUrl);
    assert.deepEqual([local.command?.command, ...(local.command?.arguments ?? [])], ['wfs.copyReceiverUrl', 'local']);
    assert.equal(api.receiverTree.getTreeItem(rows[1]!).description, 'no tunnel');
  });

  it('a test webhook sent through the sandbox arrives verified, all seven checks passed', async () => {
    const seen: DeliveryRecord[] = [];
    const sub = api.receiver.onDidReceive((r) => seen.push(r));
    const sent = (await vscode.commands.executeCommand('wfs.sendTestWebhook', {
      topic: 'workflow/completed',
      subTopic: 'event:workflow/completed',
      tenantId: 'tenant-host-test',
      testData: 'template',
      address: api.receiver.info!.localUrl,
    })) as { webhookId: string };
    assert.ok(sent?.webhookId);
    await until(api.receiver.onDidReceive, () => seen.length > 0, 'the delivery');
    sub.dispose();
    const r = seen[0]!;
    assert.equal(r.status, 200);
    assert.equal(r.verified, true);
    assert.deepEqual(r.checks.map((c) => c.ok), [true, true, true, true, true, true, true]);
    assert.equal(r.topic, 'workflow/completed');
    assert.deepEqual(api.state.get('wfs.testWebhook.last'), { topic: 'workflow/completed', subTopic: 'event:workflow/completed', tenantId: 'tenant-host-test' }, 'remembered for next time');
    // The receiver view lists it first, verified, and a click opens it in the panel.
    const newest = api.receiverTree.getChildren({ kind: 'deliveries' })[0]!;
    const item = api.receiverTree.getTreeItem(newest);
    assert.equal(item.label, 'workflow/completed');
    assert.match(String(item.description), /^200 · \d\d:\d\d:\d\d$/);
    assert.deepEqual([item.command?.command, ...(item.command?.arguments ?? [])], ['wfs.openWebhookPanel', r.id]);
  });

  it('a forged delivery (no token) is refused with 403 at step 1', async () => {
    let redraws = 0;
    const counting = api.receiverTree.onDidChangeTreeData(() => redraws++);
    const res = await fetch(api.receiver.info!.localUrl, { method: 'POST', body: '{"webhookId":"x"}', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 403);
    const last = api.receiver.log.all().at(-1)!;
    assert.equal(last.verified, false);
    assert.equal(last.checks.find((c) => !c.ok)?.step, 1);
    // Newest first in the view, with the step that refused it, once the view has redrawn.
    await until(api.receiverTree.onDidChangeTreeData, () => redraws > 0, 'a redraw of the receiver view');
    counting.dispose();
    const rows = api.receiverTree.getChildren({ kind: 'deliveries' });
    assert.equal((rows[0] as { deliveryId: string }).deliveryId, last.id);
    assert.match(String(api.receiverTree.getTreeItem(rows[0]!).description), /^403 refused at step 1 · /);
  });

  it('stops, and the port is closed', async () => {
    const url = api.receiver.info!.localUrl;
    await vscode.commands.executeCommand('wfs.stopReceiver');
    assert.equal(api.receiver.info, undefined);
    await assert.rejects(fetch(url, { method: 'POST' }));
    assert.deepEqual(api.receiverTree.getChildren(), [], 'the view is empty again: its welcome view shows');
  });

  describe('with a public tunnel (a localtunnel-compatible server on loopback)', () => {
    let server: LocaltunnelServer;
    before(async () => {
      server = new LocaltunnelServer();
      await server.start();
      await setSetting('receiver.tunnel', 'always');
      await setSetting('receiver.tunnelHost', server.url);
    });
    after(async () => {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.tunnel', undefined);
      await setSetting('receiver.tunnelHost', undefined);
      await server.stop();
    });

    it('start shows the public URL; the status bar shows the tunnel open, then reconnecting when it drops', async () => {
      const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string; publicUrl?: string; tunnelState: string };
      assert.match(info.publicUrl ?? '', /^http:\/\/[0-9a-f]{8}\.tunnel\.test:\d+\/webhooks$/);
      assert.equal(info.tunnelState, 'open');
      assert.equal(api.receiverStatusBar.text, '$(radio-tower) Receiver · tunnel open');
      assert.equal(await vscode.commands.executeCommand('wfs.copyReceiverUrl'), info.publicUrl, 'the public URL is the one copied');
      const publicRow = () => api.receiverTree.getTreeItem({ kind: 'tunnel' });
      assert.equal(publicRow().description, info.publicUrl);
      assert.deepEqual([publicRow().command?.command, ...(publicRow().command?.arguments ?? [])], ['wfs.copyReceiverUrl', 'public']);
      await server.stop();
      await until(api.receiver.onDidChange, () => api.receiver.info?.tunnelState === 'reconnecting', 'the tunnel to notice the drop');
      assert.equal(api.receiverStatusBar.text, '$(debug-disconnect) Receiver · tunnel reconnecting');
      assert.equal(publicRow().description, 'tunnel reconnecting', 'the view says the tunnel is down, not a stale URL');
      await server.start(server.port);
    });
  });
});
