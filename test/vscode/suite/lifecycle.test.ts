// Deactivating the extension (VS Code awaits deactivate() on reload and shutdown) stops the sandbox and the
// receiver and closes the history file before it resolves; then VS Code disposes the subscriptions. The test then
// composes the extension again on the same context, as a reload would, so it leaves a working extension behind
// and may run in any order.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { EXTENSION_ID, extensionApi, setSetting } from './helpers';

/** The extension's own module, as VS Code loaded it: its deactivate is what VS Code calls. */
function main(): { deactivate(): Promise<void> } {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  return require(join(ext.extensionPath, 'dist', 'extension.js')) as { deactivate(): Promise<void> };
}

describe('lifecycle in a real VS Code host', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await setSetting('confirmBilledStart', false);
  });
  /** Set while the services are deactivated: whatever the test's outcome, they are composed again after it. */
  let deactivated = false;
  after(async () => {
    if (deactivated) api.recompose();
    await setSetting('confirmBilledStart', undefined);
  });

  it('deactivate() resolves only once the sandbox and the receiver stopped listening and the history is on disk', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    const sandbox = (await vscode.commands.executeCommand('wfs.startSandbox')) as {
      baseUrl: string;
      controlSecret: string;
      sessions: { staged: string };
      products: { service: string; model: string }[];
    };
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
    const receiver = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string };
    await vscode.commands.executeCommand('wfs.explorer.focus');
    const w = await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: sandbox.sessions.staged,
      product: sandbox.products[0],
      correlationId: `lifecycle-${Date.now()}`,
    });
    assert.ok(w, 'a workflow is being followed');
    assert.equal(
      (await fetch(`${sandbox.baseUrl}/sandbox`, { headers: { 'x-sandbox-secret': sandbox.controlSecret } })).status,
      200,
    );
    // A refused request: its record is written after the answer, so only a shutdown that waits has it on disk.
    const marker = `lifecycle-${Date.now()}`;
    assert.equal((await fetch(receiver.localUrl, { method: 'PUT', headers: { 'x-lifecycle': marker } })).status, 405);

    // The window holds its history file: another window sharing the global storage would keep its own in memory.
    const held = JSON.parse(readFileSync(`${api.receiver.historyFile}.lock`, 'utf8')) as { pid: number; name: string };
    assert.equal(held.pid, process.pid, 'the lock names this extension host');
    assert.equal(
      held.name,
      `a ${vscode.env.appName} window`,
      'and says what it is, for the message another process shows',
    );

    deactivated = true;
    await main().deactivate();

    await assert.rejects(fetch(`${sandbox.baseUrl}/sandbox`), 'the sandbox stopped listening');
    await assert.rejects(fetch(receiver.localUrl, { method: 'POST' }), 'the receiver stopped listening');
    assert.equal(api.receiver.info, undefined);
    assert.equal(api.sandbox.info, undefined);
    const file = api.receiver.historyFile;
    assert.ok(file, 'the history is kept on disk by default');
    assert.match(readFileSync(file, 'utf8'), new RegExp(marker), 'the refused request is in the history file');
    assert.equal(existsSync(`${file}.lock`), false, 'and the file is given up for the next window');
    // Then VS Code disposes the subscriptions: nothing is left to stop, and nothing throws.
    for (const d of [...api.subscriptions].reverse()) d.dispose();

    // A reload composes the extension again on the same context: its commands and a fresh receiver work.
    api.recompose();
    deactivated = false;
    const again = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string };
    assert.equal((await fetch(again.localUrl, { method: 'PUT' })).status, 405, 'a fresh receiver answers');
    await vscode.commands.executeCommand('wfs.stopReceiver');
  });
});
