// The receiver task (type wfs) in a real VS Code host: a launch configuration whose preLaunchTask is the task starts
// the receiver before a small Node app under the debugger; a delivery reaches the app, the app's answer shows in the
// panel, a failed forward is in the Problems view, and ending the debug session stops the receiver the task started.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtensionApi } from '../hostExtension/extension';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { extensionApi, setSetting, signInToSandbox, until } from './helpers';
import { webhookPanelDom } from './webviewDom';

/** The app under the debugger: answers 201 with a line naming what it got, or 500 for tenant "fail". */
const APP = `
const http = require('node:http');
const port = Number(process.argv[2]);
http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const failing = body.includes('"tenantId":"fail"');
    res.writeHead(failing ? 500 : 201, { 'content-type': 'text/plain', 'x-app': 'fixture' });
    res.end(failing ? 'TypeError: the handler broke' : 'app got ' + body.length + ' bytes');
  });
}).listen(port, '127.0.0.1', () => console.log('app listening on ' + port));
`;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('receiver task and launch configuration in a real VS Code host', () => {
  let api: ExtensionApi;
  let port: number;
  let appFile: string;

  before(async () => {
    api = await extensionApi();
    await signInToSandbox();
    await vscode.commands.executeCommand('wfs.stopReceiver');
    port = await freePort();
    appFile = join(mkdtempSync(join(tmpdir(), 'wfs-app-')), 'app.js');
    writeFileSync(appFile, APP);
    await setSetting('receiver.forward', [{ topic: '**', url: `http://127.0.0.1:${port}/hooks` }]);
  });
  after(async () => {
    await setSetting('receiver.forward', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function delivered(tenantId: string): Promise<DeliveryRecord> {
    const before = api.receiver.deliveries.all().length;
    await vscode.commands.executeCommand('wfs.sendTestWebhook', {
      topic: 'workflow/completed',
      subTopic: 'event:workflow/completed',
      tenantId,
      testData: 'template',
      address: api.receiver.info!.localUrl,
    });
    await until(api.receiver.onDidReceive, () => api.receiver.deliveries.all().length > before, 'a delivery');
    return api.receiver.deliveries.all().at(-1)!;
  }

  it('preLaunchTask "wfs: receiver" starts the receiver before the app; the app answers, the panel shows it; ending the session stops the receiver', async function () {
    this.timeout(90_000);
    assert.equal(api.receiver.info?.localUrl, undefined, 'stopped before the launch');
    // The app says it listens on its stdout, which the debug adapter sends as an output event.
    let tracker!: vscode.Disposable;
    const appListening = new Promise<void>((resolve) => {
      tracker = vscode.debug.registerDebugAdapterTrackerFactory('*', {
        createDebugAdapterTracker: () => ({
          onDidSendMessage: (m: { type?: string; event?: string; body?: { output?: string } }) => {
            if (m.type === 'event' && m.event === 'output' && m.body?.output?.includes(`app listening on ${port}`))
              resolve();
          },
        }),
      });
    });
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
      type: 'node',
      request: 'launch',
      name: 'wfs fixture app',
      program: appFile,
      args: [String(port)],
      preLaunchTask: 'wfs: receiver',
    });
    assert.equal(started, true, 'the debug session started');
    assert.ok(api.receiver.info?.localUrl, 'the task started the receiver before the app');
    await appListening;
    try {
      const r = await delivered('task-ok');
      const f = r.forwards?.[0];
      assert.equal(f?.status, 201, JSON.stringify(r.forwards));
      assert.match(f!.body!, /^app got \d+ bytes$/);
      assert.equal(f!.headers!['x-app'], 'fixture');
      await vscode.commands.executeCommand('wfs.openWebhookPanel', r.id);
      const dom = await webhookPanelDom(`document.getElementById('detail').textContent.includes("The app's answer")`);
      assert.ok(dom.detailText.includes(f!.body!), "the app's body is shown");
      assert.ok(dom.detailText.includes('x-appfixture'), "the app's headers are shown");
      assert.equal(dom.injected, 0);

      const failed = await delivered('fail');
      assert.equal(failed.forwards?.[0]?.status, 500);
      await until(
        vscode.languages.onDidChangeDiagnostics,
        () =>
          vscode.languages
            .getDiagnostics()
            .some(
              ([uri, ds]) =>
                uri.path.endsWith('/webhook/workflow/completed') &&
                ds.some((d) => /forward failed: .* → 500/.test(d.message)),
            ),
        'the failed forward in the Problems view',
      ).catch((err: Error) => {
        const all = vscode.languages
          .getDiagnostics()
          .map(([u, ds]) => `${u.toString()}: ${ds.map((d) => d.message).join(' | ')}`);
        throw new Error(`${err.message}; diagnostics: ${JSON.stringify(all)}`);
      });
    } finally {
      tracker.dispose();
      await vscode.debug.stopDebugging();
    }
    await until(
      api.receiver.onDidChange,
      () => api.receiver.info?.localUrl === undefined,
      'the receiver to stop with the session',
    );
  });

  it('a receiver the user started stays up when the task ends', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('wfs.startReceiver');
    const url = api.receiver.info?.localUrl;
    assert.ok(url);
    const task = (await vscode.tasks.fetchTasks({ type: 'wfs' }))[0]!;
    const started = new Promise<vscode.TaskExecution>((resolve) => {
      const sub = vscode.tasks.onDidStartTask((e) => {
        if (e.execution.task.definition.type !== 'wfs') return;
        sub.dispose();
        resolve(e.execution);
      });
    });
    const ended = new Promise<void>((resolve) => {
      const sub = vscode.tasks.onDidEndTask((e) => {
        if (e.execution.task.definition.type !== 'wfs') return;
        sub.dispose();
        resolve();
      });
    });
    await vscode.tasks.executeTask(task);
    (await started).terminate();
    await ended;
    assert.equal(api.receiver.info?.localUrl, url, 'still running, at the same address');
    await vscode.commands.executeCommand('wfs.stopReceiver');
  });
});
