// Runs last: disposing what activate() registered (as VS Code does on deactivate) stops the sandbox, the
// receiver and polling, and removes the status bar items. Nothing keeps listening.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension/extension';
import { extensionApi, setSetting } from './helpers';

describe('lifecycle in a real VS Code host (last)', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await setSetting('confirmBilledStart', false);
  });
  after(async () => {
    await setSetting('confirmBilledStart', undefined);
  });

  it('disposing the subscriptions stops the sandbox, the receiver and the poller', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    const sandbox = (await vscode.commands.executeCommand('wfs.startSandbox')) as { baseUrl: string; sessions: { staged: string }; products: { service: string; model: string }[] };
    assert.equal(await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }), true);
    const receiver = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string };
    await vscode.commands.executeCommand('wfs.explorer.focus');
    const w = await vscode.commands.executeCommand('wfs.startWorkflow', { sessionId: sandbox.sessions.staged, product: sandbox.products[0], correlationId: `lifecycle-${Date.now()}` });
    assert.ok(w, 'a workflow is being followed');
    assert.equal((await fetch(`${sandbox.baseUrl}/sandbox`)).status, 200);

    for (const d of [...api.subscriptions].reverse()) d.dispose();
    // Servers close asynchronously; both closes were started by dispose().
    await new Promise((r) => setImmediate(r));
    await assert.rejects(fetch(`${sandbox.baseUrl}/sandbox`), 'the sandbox stopped listening');
    await assert.rejects(fetch(receiver.localUrl, { method: 'POST' }), 'the receiver stopped listening');
    assert.equal(api.receiver.info, undefined);
    assert.equal(api.sandbox.info, undefined);
  });
});
