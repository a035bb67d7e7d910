// The receiver in a real VS Code host: start it, send a test webhook through the sandbox, see it arrive verified.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { LocaltunnelServer } from '../../unit/helpers/localtunnelServer';
import { freePort } from '../../unit/helpers/freePort';
import { fillDisk, tmpfsOrSkip } from '../../unit/helpers/tmpfs';
import { extensionApi, setSetting, signInToSandbox, until } from './helpers';
import { notificationButtons, notificationsInCenter, quickPickRows, statusBarEntry } from './workbenchDom';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiverHost } from '../../../src/extension/receiver/receiverHost';
import type { TestWebhookCommandResult } from '../../../src/extension/commands/testWebhookCommand';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import type { ExtensionLog } from '../../../src/extension/log/extensionLog';

const silentLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  show: () => undefined,
  dispose: () => undefined,
} as unknown as ExtensionLog;

/** Sends the i-th of a series of deliveries (60 KB unless padded otherwise), signed by the sandbox at baseUrl (the
 * extension's: its control secret comes from there), to a receiver; its status. */
async function sendSigned(baseUrl: string, url: string, i: number, pad = 60_000): Promise<number> {
  const body = Buffer.from(
    JSON.stringify({
      webhookId: `f${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`,
      topic: 'disk/full',
      data: { pad: 'x'.repeat(pad) },
    }),
  );
  const secret = (await extensionApi()).sandbox.info?.controlSecret ?? '';
  const signed = await fetch(`${baseUrl}/sandbox/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-secret': secret },
    // Signed as the service signs (without the mark of a token signed on request), so it enters the duplicate set.
    body: JSON.stringify({ bodyBase64: body.toString('base64'), claims: { wfs_signed_here: null } }),
  });
  const { token } = (await signed.json()) as { token: string };
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

describe('webhook receiver in a real VS Code host', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await signInToSandbox();
  });
  after(async () => {
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('the Webhook Receiver view is empty while the receiver is stopped (its welcome view offers to start it)', () => {
    assert.equal(api.receiver.info, undefined);
    assert.deepEqual(api.receiverTree.getChildren(), []);
  });

  it("starts on loopback; its public address is VS Code's forwarding of it (code-server is a remote), which reaches it", async () => {
    const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as {
      localUrl: string;
      publicUrl?: string;
      publicSource: string;
      tunnelState: string;
    };
    assert.match(info.localUrl, /^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    assert.equal(info.publicSource, 'vscode');
    assert.equal(info.tunnelState, 'closed', 'no third-party tunnel');
    assert.ok(info.publicUrl && info.publicUrl !== info.localUrl, `forwarded: ${info.publicUrl}`);
    // Through the forwarding, a request reaches the receiver (and is refused: it carries no token).
    const before = api.receiver.deliveries.size;
    const res = await fetch(info.publicUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 403, await res.text());
    assert.equal(api.receiver.deliveries.size, before + 1, 'the receiver recorded it');
    await api.receiver.clearHistory();
    assert.equal(await vscode.commands.executeCommand('wfs.copyReceiverUrl', 'local'), info.localUrl);
    // The view now shows the address (a click copies it), the public address, and the deliveries.
    const rows = api.receiverTree.getChildren();
    assert.deepEqual(
      rows.map((n) => n.kind),
      ['local', 'tunnel', 'deliveries'],
    );
    const local = api.receiverTree.getTreeItem(rows[0]!);
    assert.equal(local.description, info.localUrl);
    assert.deepEqual([local.command?.command, ...(local.command?.arguments ?? [])], ['wfs.copyReceiverUrl', 'local']);
    assert.equal(api.receiverTree.getTreeItem(rows[1]!).description, info.publicUrl);
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
    assert.deepEqual(
      r.checks.map((c) => c.ok),
      [true, true, true, true, true, true, true],
    );
    assert.equal(r.topic, 'workflow/completed');
    assert.deepEqual(
      api.state.get('wfs.testWebhook.last'),
      { topic: 'workflow/completed', subTopic: 'event:workflow/completed', tenantId: 'tenant-host-test' },
      'remembered for next time',
    );
    // The receiver view lists it first, verified, and a click opens it in the panel.
    const newest = api.receiverTree.getChildren({ kind: 'deliveries' })[0]!;
    const item = api.receiverTree.getTreeItem(newest);
    assert.equal(item.label, 'workflow/completed');
    assert.match(String(item.description), /^200 · \d\d:\d\d:\d\d$/);
    assert.deepEqual([item.command?.command, ...(item.command?.arguments ?? [])], ['wfs.openWebhookPanel', r.id]);
  });

  it('a test webhook to a receiver that answers 403: the user is shown the 403, named as a refusal, not "sent"', async () => {
    const app = new RecordingServer();
    app.respond = () => 403;
    const url = `${await app.start()}/hooks`;
    // The extension's own warnings are recorded as it shows them; VS Code still shows them (checked on screen below).
    const window = api.window as { showWarningMessage: (...args: unknown[]) => Thenable<unknown> };
    const original = window.showWarningMessage;
    const warned: string[] = [];
    window.showWarningMessage = (message: unknown, ...rest: unknown[]) => {
      warned.push(String(message));
      return original.call(api.window, message, ...rest);
    };
    try {
      const sent = (await vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 'tenant-host-test',
        testData: 'template',
        address: url,
      })) as TestWebhookCommandResult;
      assert.equal(app.requests.length, 1, 'the sandbox delivered it to the receiver');
      assert.deepEqual([sent.outcome.cause, sent.outcome.failed, sent.outcome.receiverStatus], ['refused', true, 403]);
      const words =
        /^Test webhook [0-9a-f-]{36} sent to http:\/\/127\.0\.0\.1:\d+\/hooks: your receiver refused it: it answered 403/;
      assert.ok(
        warned.some((m) => words.test(m)),
        warned.join('\n'),
      );
      await notificationsInCenter(
        /your receiver refused it: it answered 403, so it did not take the delivery as verified/,
        1,
      );
    } finally {
      window.showWarningMessage = original;
      await vscode.commands.executeCommand('notifications.hideList');
      await app.stop();
    }
  });

  it('a forged delivery (no token) is refused with 403 at step 1', async () => {
    let redraws = 0;
    const counting = api.receiverTree.onDidChangeTreeData(() => redraws++);
    const res = await fetch(api.receiver.info!.localUrl, {
      method: 'POST',
      body: '{"webhookId":"x"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 403);
    const last = api.receiver.deliveries.all().at(-1)!;
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

  it('Stop Receiver then Start Receiver: a copy of an event it acknowledged before is still a duplicate, and the view says so', async () => {
    await setSetting('receiver.publicAddress', 'none');
    try {
      const start = async () =>
        ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      assert.equal(await sendSigned(api.sandbox.info!.baseUrl, await start(), 900), 200);
      assert.equal(api.receiver.deliveries.all().at(-1)!.duplicate, false);
      await vscode.commands.executeCommand('wfs.stopReceiver');
      assert.equal(await sendSigned(api.sandbox.info!.baseUrl, await start(), 900), 200);
      const again = api.receiver.deliveries.all().at(-1)!;
      assert.deepEqual([again.status, again.verified, again.duplicate], [200, true, true]);
      const newest = api.receiverTree.getChildren({ kind: 'deliveries' })[0]!;
      assert.match(String(api.receiverTree.getTreeItem(newest).description), /^200 duplicate · /);
    } finally {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.publicAddress', undefined);
    }
  });

  it('a window reloaded with small history budgets: a copy of an event whose record they dropped is still a duplicate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-host-dedupe-'));
    await setSetting('receiver.historyMemoryMiB', 1);
    await setSetting('receiver.historyDiskMiB', 1);
    await setSetting('receiver.publicAddress', 'none');
    // A window as it builds its receiver, then the next window on the same storage after a reload.
    const windowOn = () => new ReceiverHost(dir, api.state, api.environments, api.sandbox, silentLog, api.clock);
    const first = 'f0000001-0000-4000-8000-000000000000';
    try {
      const before = windowOn();
      try {
        const { localUrl } = await before.start();
        // 200 KB a delivery against a 1 MiB file: the first record is dropped after a few.
        for (let i = 1; i <= 8; i++)
          assert.equal(await sendSigned(api.sandbox.info!.baseUrl, localUrl, i, 200_000), 200);
      } finally {
        await before.shutdown();
        before.dispose();
      }
      const after = windowOn();
      try {
        const { localUrl } = await after.start();
        assert.ok(
          !after.deliveries.all().some((r) => r.webhookId === first),
          'the first record is gone from the history',
        );
        assert.equal(await sendSigned(api.sandbox.info!.baseUrl, localUrl, 1, 200_000), 200);
        const again = after.deliveries.all().at(-1)!;
        assert.deepEqual([again.webhookId, again.status, again.verified, again.duplicate], [first, 200, true, true]);
      } finally {
        await after.shutdown();
        after.dispose();
      }
    } finally {
      await setSetting('receiver.historyMemoryMiB', undefined);
      await setSetting('receiver.historyDiskMiB', undefined);
      await setSetting('receiver.publicAddress', undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a public address unlike the last start's: with a real environment configured, the start says to register the new one, and what keeps it", async () => {
    const start = async () =>
      (await vscode.commands.executeCommand('wfs.startReceiver')) as {
        localUrl: string;
        publicUrl?: string;
        publicChangedFrom?: string;
      };
    const escaped = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    await setSetting('environments', [{ name: 'Staging', baseUrl: 'http://127.0.0.1:9/' }]);
    // The first start's port is held while the second starts, so the forwarded address surely differs.
    const holder = createServer();
    try {
      const first = await start();
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await new Promise<void>((r) => holder.listen(Number(new URL(first.localUrl).port), '127.0.0.1', r));
      await vscode.commands.executeCommand('notifications.clearAll');
      const second = await start();
      assert.ok(
        first.publicUrl && second.publicUrl && second.publicUrl !== first.publicUrl,
        `${first.publicUrl} then ${second.publicUrl}`,
      );
      assert.equal(second.publicChangedFrom, first.publicUrl);
      await notificationsInCenter(
        new RegExp(
          `Its public address is not the one it had last time \\(${escaped(first.publicUrl!)}\\): where your webhook endpoint is registered with the service, register this one\\. A fixed wfs\\.receiver\\.port keeps the forwarded address from one start to the next\\.$`,
        ),
        1,
      );
      // The same address again (a restart on the port just used): nothing to say.
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.port', Number(new URL(second.localUrl).port));
      const third = await start();
      assert.deepEqual([third.publicUrl, third.publicChangedFrom], [second.publicUrl, undefined]);
    } finally {
      holder.close();
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.port', undefined);
      await setSetting('environments', undefined);
    }
  });

  it('"none": loopback only, and the view says why there is no public address', async () => {
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.publicAddress', 'none');
    try {
      const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as {
        publicUrl?: string;
        publicNote?: string;
        publicSource: string;
      };
      assert.deepEqual([info.publicSource, info.publicUrl], ['none', undefined]);
      assert.match(String(api.receiverTree.getTreeItem({ kind: 'tunnel' }).tooltip), /Source: none/);
      assert.equal(api.receiverTree.getTreeItem({ kind: 'tunnel' }).command?.command, 'wfs.choosePublicAddress');
    } finally {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.publicAddress', undefined);
    }
  });

  it('wfs.receiver.port already in use: an error naming the port and the setting, and no receiver', async () => {
    await vscode.commands.executeCommand('wfs.stopReceiver');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    await setSetting('receiver.port', port);
    try {
      assert.equal(await vscode.commands.executeCommand('wfs.startReceiver'), undefined);
      assert.equal(api.receiver.info, undefined);
      await notificationsInCenter(
        new RegExp(
          `^The webhook receiver could not start: port ${port} on 127\\.0\\.0\\.1 is already in use by another process: choose another port, or 0 for a free one \\(wfs\\.receiver\\.port is ${port}\\)\\.$`,
        ),
        1,
      );
    } finally {
      await setSetting('receiver.port', undefined);
      taken.close();
    }
  });

  it('an address setting that is not a URL: Start Receiver names the setting and the address with its scheme, and opens it', async () => {
    // Only this test's notifications in the center: what earlier tests left cannot hide them.
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('wfs.stopReceiver');
    // forwardTo is read before anything listens: nothing starts, and no "Forward verified deliveries to null?"
    // question.
    await setSetting('receiver.forwardTo', 'localhost:3000');
    try {
      assert.equal(await vscode.commands.executeCommand('wfs.startReceiver'), undefined);
      assert.equal(api.receiver.info, undefined);
      const forward =
        /^The webhook receiver could not start: wfs\.receiver\.forwardTo must be an http\(s\) URL \(it lacks its scheme: write http:\/\/localhost:3000\)\.$/;
      await notificationsInCenter(forward, 1);
      assert.deepEqual(await notificationButtons(forward), ['Open Settings']);
    } finally {
      await setSetting('receiver.forwardTo', undefined);
    }
    // publicUrl is read once the receiver listens: it keeps running on loopback, and the warning offers the setting.
    await setSetting('receiver.publicAddress', 'url');
    await setSetting('receiver.publicUrl', 'hooks.example.test/webhooks');
    await setSetting('receiver.port', await freePort());
    try {
      const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as
        { localUrl: string; publicUrl?: string } | undefined;
      assert.ok(info?.localUrl, 'the receiver runs on loopback');
      assert.equal(info.publicUrl, undefined);
      const publicUrl =
        /did not open: wfs\.receiver\.publicUrl is not a URL: hooks\.example\.test\/webhooks \(it lacks its scheme: write https:\/\/hooks\.example\.test\/webhooks\)$/;
      await notificationsInCenter(publicUrl, 1);
      assert.deepEqual(await notificationButtons(publicUrl), ['Open Settings', 'Choose Address Source', 'Show Log']);
    } finally {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      for (const key of ['receiver.publicAddress', 'receiver.publicUrl', 'receiver.port'])
        await setSetting(key, undefined);
    }
  });

  it('an address setting with a password in it is refused, and the password is shown nowhere (issue #74, hole 4)', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.forwardTo', 'http://alice:TopSecretPw99@localhost:3000/hooks');
    try {
      assert.equal(await vscode.commands.executeCommand('wfs.startReceiver'), undefined);
      assert.equal(api.receiver.info, undefined);
      const forward =
        /^The webhook receiver could not start: wfs\.receiver\.forwardTo holds a user name or password \(http:\/\/…@localhost:3000\/hooks\): an address never carries credentials/;
      await notificationsInCenter(forward, 1);
    } finally {
      await setSetting('receiver.forwardTo', undefined);
    }
    await setSetting('receiver.publicAddress', 'url');
    await setSetting('receiver.publicUrl', 'https://alice:TopSecretPw99@hooks.example.test/webhooks');
    await setSetting('receiver.port', await freePort());
    try {
      const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as
        { localUrl: string; publicUrl?: string } | undefined;
      assert.ok(info?.localUrl, 'the receiver runs on loopback');
      assert.equal(info.publicUrl, undefined);
      await notificationsInCenter(
        /did not open: wfs\.receiver\.publicUrl holds a user name or password \(https:\/\/…@hooks\.example\.test\/webhooks\)/,
        1,
      );
      assert.deepEqual(
        await notificationsInCenter(/TopSecretPw99|alice/, 0),
        [],
        'neither the password nor the user is shown',
      );
    } finally {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      for (const key of ['receiver.publicAddress', 'receiver.publicUrl', 'receiver.port'])
        await setSetting(key, undefined);
    }
  });

  it('a receiver setting changed while it runs: a notice offers Restart Receiver; one our own command writes says nothing', async () => {
    // Only this test's notifications in the center: what earlier tests left cannot hide them.
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.ok(await vscode.commands.executeCommand('wfs.startReceiver'));
    try {
      // Written by Choose Public Address Source…, which says what to do itself.
      await api.receiver.settings.update('receiverPublicUrl', 'https://own-command.example.test/webhooks');
      await setSetting('receiver.forwardTo', 'http://127.0.0.1:9/app');
      const notice =
        /^wfs\.receiver\.forwardTo changed: the running webhook receiver uses the new value once restarted\.$/;
      await notificationsInCenter(notice, 1);
      assert.deepEqual(await notificationButtons(notice), ['Restart Receiver']);
      const all = await notificationsInCenter(/./, 1);
      assert.deepEqual(
        all.filter((m) => /wfs\.receiver\.publicUrl changed/.test(m)),
        [],
        'no notice for our own write',
      );
    } finally {
      await setSetting('receiver.forwardTo', undefined);
      await setSetting('receiver.publicUrl', undefined);
      await vscode.commands.executeCommand('wfs.stopReceiver');
    }
  });

  it('historyStorage "memory": a window that starts so erases the history file kept before, and logs what it erased', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-memory-'));
    const file = join(dir, 'deliveries.jsonl');
    writeFileSync(file, `${'x'.repeat(3000)}\n`);
    const lines: string[] = [];
    const log = {
      info: (l: string) => lines.push(l),
      warn: (l: string) => lines.push(l),
      error: (l: string) => lines.push(l),
      debug: () => undefined,
      show: () => undefined,
      dispose: () => undefined,
    } as unknown as ExtensionLog;
    await setSetting('receiver.historyStorage', 'memory');
    // A second ReceiverHost, as a window opened now builds it: the real settings, storage and file.
    const host = new ReceiverHost(dir, api.state, api.environments, api.sandbox, log, api.clock);
    try {
      await host.ready();
      assert.equal(existsSync(file), false, 'the earlier deliveries are gone from the disk');
      assert.equal(host.historyFile, undefined);
      assert.deepEqual(
        lines.filter((l) => !l.startsWith('Receiver trusts: ')),
        [`wfs.receiver.historyStorage is memory: the earlier delivery history file ${file} (2.9 KiB) was erased.`],
      );
    } finally {
      host.dispose();
      await setSetting('receiver.historyStorage', undefined);
    }
  });

  it('the disk holding the history fills up: a warning says so, with Open Webhook Panel and Show Log; verified deliveries are answered 503 until space is freed', async function () {
    const mounted = tmpfsOrSkip(this, 2 * 1024 * 1024);
    await vscode.commands.executeCommand('notifications.clearAll');
    // A second ReceiverHost, as a window builds it, whose storage is the full disk.
    const host = new ReceiverHost(mounted.dir, api.state, api.environments, api.sandbox, silentLog, api.clock);
    try {
      const { localUrl } = await host.start();
      const send = (i: number) => sendSigned(api.sandbox.info!.baseUrl, localUrl, i);
      assert.equal(await send(0), 200);
      fillDisk(join(mounted.dir, 'filler'));
      assert.equal(await send(1), 503);
      const warning =
        /^The webhook delivery history could not be written: the disk holding it is full \(ENOSPC: no space left on device, write\)\. Verified deliveries are answered 503, so the service sends them again, until space is freed\.$/;
      await notificationsInCenter(warning, 1);
      assert.deepEqual(await notificationButtons(warning), ['Open Webhook Panel', 'Show Log']);
      rmSync(join(mounted.dir, 'filler'));
      assert.equal(await send(1), 200, 'the same receiver takes the retry once space is freed');
    } finally {
      await host.shutdown();
      host.dispose();
      mounted.unmount();
    }
  });

  it('a window that starts on a full disk: Start Receiver says the history cannot be opened and offers its setting; once space is freed it starts with the history it had', async function () {
    const mounted = tmpfsOrSkip(this, 2 * 1024 * 1024);
    try {
      // One delivery kept by an earlier window.
      const earlier = new ReceiverHost(mounted.dir, api.state, api.environments, api.sandbox, silentLog, api.clock);
      assert.equal(await sendSigned(api.sandbox.info!.baseUrl, (await earlier.start()).localUrl, 0), 200);
      await earlier.shutdown();
      earlier.dispose();

      fillDisk(join(mounted.dir, 'filler'));
      const host = new ReceiverHost(mounted.dir, api.state, api.environments, api.sandbox, silentLog, api.clock);
      try {
        await host.ready();
        await assert.rejects(
          () => host.start(),
          (e: Error & { setting?: string }) =>
            e.setting === 'wfs.receiver.historyStorage' &&
            /^its delivery history file .*deliveries\.jsonl could not be opened \(ENOSPC: no space left on device, write\): free space on its disk or fix its access, or set wfs\.receiver\.historyStorage to memory$/.test(
              e.message,
            ),
        );
        assert.equal(host.info, undefined, 'no receiver answers deliveries it could not keep');
        rmSync(join(mounted.dir, 'filler'));
        const { localUrl } = await host.start();
        assert.equal(host.deliveries.size, 1, 'the earlier delivery is loaded');
        assert.equal(await sendSigned(api.sandbox.info!.baseUrl, localUrl, 1), 200);
      } finally {
        await host.shutdown();
        host.dispose();
      }
    } finally {
      mounted.unmount();
    }
  });

  describe('localtunnel (a localtunnel-compatible server on loopback), for a real environment with consent', () => {
    let server: LocaltunnelServer;
    before(async () => {
      server = new LocaltunnelServer();
      await server.start();
      await vscode.commands.executeCommand('wfs.stopReceiver');
      const sandboxUrl = api.sandbox.info!.baseUrl;
      await setSetting('environments', [{ name: 'Staging', baseUrl: sandboxUrl }]);
      await until(api.environments.onDidChange, () => !!api.environments.get('Staging'), 'Staging');
      await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
      await setSetting('receiver.publicAddress', 'localtunnel');
      await setSetting('receiver.tunnelHost', server.url);
      await api.receiver.consent.remember('Staging', true);
    });
    after(async () => {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await api.receiver.consent.remember('Staging', undefined);
      await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
      await setSetting('environments', undefined);
      await setSetting('receiver.publicAddress', undefined);
      await setSetting('receiver.tunnelHost', undefined);
      await server.stop();
    });

    it('start shows the public URL; the status bar shows the tunnel open, then reconnecting when it drops', async () => {
      const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as {
        localUrl: string;
        publicUrl?: string;
        tunnelState: string;
      };
      assert.match(info.publicUrl ?? '', /^http:\/\/[0-9a-f]{8}\.tunnel\.test:\d+\/webhooks$/);
      assert.equal(info.tunnelState, 'open');
      await statusBarEntry(/^\$\(radio-tower\) Receiver · tunnel open$/);
      assert.equal(
        await vscode.commands.executeCommand('wfs.copyReceiverUrl'),
        info.publicUrl,
        'the public URL is the one copied',
      );
      const publicRow = () => api.receiverTree.getTreeItem({ kind: 'tunnel' });
      assert.equal(publicRow().description, info.publicUrl);
      assert.deepEqual(
        [publicRow().command?.command, ...(publicRow().command?.arguments ?? [])],
        ['wfs.copyReceiverUrl', 'public'],
      );
      await server.stop();
      await until(
        api.receiver.onDidChange,
        () => api.receiver.info?.tunnelState === 'reconnecting',
        'the tunnel to notice the drop',
      );
      await statusBarEntry(/^\$\(debug-disconnect\) Receiver · tunnel reconnecting$/);
      assert.equal(publicRow().description, 'tunnel reconnecting', 'the view says the tunnel is down, not a stale URL');
      await server.start(server.port);
      await vscode.commands.executeCommand('wfs.stopReceiver');
    });

    it('wfs.receiver.tunnelSubdomain asks for the same name at each start; a name no server gives is named with its setting, and the server is not asked', async () => {
      type Info = { publicUrl?: string; publicNote?: string };
      await setSetting('receiver.tunnelSubdomain', 'wfs-staging-demo');
      try {
        const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as Info;
        assert.equal(info.publicUrl, `http://wfs-staging-demo.tunnel.test:${server.port}/webhooks`);
        await vscode.commands.executeCommand('wfs.stopReceiver');
        await setSetting('receiver.tunnelSubdomain', 'Not_A_Name');
        const before = server.openRequests;
        const bad = (await vscode.commands.executeCommand('wfs.startReceiver')) as Info;
        assert.equal(bad.publicUrl, undefined);
        assert.equal(
          bad.publicNote,
          'did not open: wfs.receiver.tunnelSubdomain is not a name a localtunnel server gives ("Not_A_Name"): 4 to 63 lower-case letters, digits and hyphens, starting and ending with a letter or digit',
        );
        assert.equal(server.openRequests, before, 'the tunnel server was never asked');
      } finally {
        await vscode.commands.executeCommand('wfs.stopReceiver');
        await setSetting('receiver.tunnelSubdomain', undefined);
      }
    });

    it('a self-test run once runs again by itself after the tunnel reconnects', async () => {
      await vscode.commands.executeCommand('wfs.startReceiver');
      const first = (await vscode.commands.executeCommand('wfs.testPublicAddress', { timeoutMs: 5000 })) as {
        testedAt: string;
        publicUrl: string;
      };
      assert.ok(first?.testedAt, 'a result (the stand-in public name resolves nowhere: a DNS failure is a result too)');
      await server.stop();
      await until(
        api.receiver.onDidChange,
        () => api.receiver.info?.tunnelState === 'reconnecting',
        'the tunnel to drop',
      );
      await server.start(server.port);
      await until(
        api.receiver.onDidChange,
        () => !!api.receiver.info?.selfTest && api.receiver.info.selfTest.testedAt !== first.testedAt,
        'a second self-test after the reconnection',
        30_000,
      );
      assert.equal(api.receiver.info?.tunnelState, 'open');
      await vscode.commands.executeCommand('wfs.stopReceiver');
    });

    it('without a remembered answer it asks (the test host dismisses the dialog): no tunnel, and it asks again next time', async () => {
      await api.receiver.consent.remember('Staging', undefined);
      const unanswered =
        /^not opened: you did not answer whether to open localtunnel for Staging; you are asked again at the next start$/;
      try {
        const before = server.openRequests;
        const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as {
          publicUrl?: string;
          publicNote?: string;
          tunnelState: string;
        };
        assert.equal(info.publicUrl, undefined);
        assert.equal(info.tunnelState, 'closed');
        assert.match(info.publicNote ?? '', unanswered);
        assert.equal(server.openRequests, before, 'the tunnel server was never contacted');
        await vscode.commands.executeCommand('wfs.stopReceiver');
        const again = (await vscode.commands.executeCommand('wfs.startReceiver')) as { publicNote?: string };
        assert.match(
          again.publicNote ?? '',
          unanswered,
          'a dismissed dialog is not an answer: asked again, not a remembered "no"',
        );
      } finally {
        await vscode.commands.executeCommand('wfs.stopReceiver');
      }
    });

    it('a remembered "no" opens nothing and does not ask; the Sandbox never opens localtunnel', async () => {
      try {
        await api.receiver.consent.remember('Staging', false);
        const before = server.openRequests;
        const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as {
          publicUrl?: string;
          publicNote?: string;
        };
        assert.equal(info.publicUrl, undefined);
        assert.match(
          info.publicNote ?? '',
          /^not opened: you declined localtunnel for Staging \(choose localtunnel again in "Choose Public Address Source…" to be asked again\)$/,
        );
        await vscode.commands.executeCommand('wfs.stopReceiver');
        await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
        const sandboxInfo = (await vscode.commands.executeCommand('wfs.startReceiver')) as {
          publicUrl?: string;
          publicNote?: string;
        };
        assert.equal(sandboxInfo.publicUrl, undefined);
        assert.match(sandboxInfo.publicNote ?? '', /not opened for the Sandbox/);
        assert.equal(server.openRequests, before);
      } finally {
        await vscode.commands.executeCommand('wfs.stopReceiver');
        await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
      }
    });

    it('choosing localtunnel again in "Choose Public Address Source…" forgets a remembered "no": the next start asks', async () => {
      await api.receiver.consent.remember('Staging', false);
      // The user picks the third source, localtunnel, in the quick pick.
      const chosen = vscode.commands.executeCommand('wfs.choosePublicAddress');
      const rows = await quickPickRows('localtunnel');
      assert.ok(rows[2]?.startsWith('localtunnel'), `localtunnel is the third choice: ${rows.join(' | ')}`);
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.equal(await chosen, 'localtunnel');
      try {
        const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as { publicNote?: string };
        assert.match(
          info.publicNote ?? '',
          /you did not answer whether to open localtunnel for Staging/,
          'asked (and dismissed), not the remembered "no"',
        );
      } finally {
        await vscode.commands.executeCommand('wfs.stopReceiver');
      }
    });
  });
});
