// A billed start cancelled after its request was sent is an unknown outcome, like a lost answer: the user is told
// that a workflow may have been started and billed, with its correlationId and Find Workflows; what the service
// holds under that correlationId is added to the explorer. In a real VS Code host, the progress cancelled by its
// Cancel button, in front of a sandbox whose answer to the start is held.
import assert from 'node:assert/strict';
import type { Server, ServerResponse } from 'node:http';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { TrackedWorkflow } from '../../../src/core/workflows/WorkflowStore';
import { envValue, extensionApi, setSetting, signInThrough, startSandboxRelay } from './helpers';
import { clickNotificationButton, notificationButtons, notificationsInCenter } from './workbenchDom';

type SandboxInfo = {
  baseUrl: string;
  controlSecret: string;
  username: string;
  password: string;
  sessions: { staged: string };
  products: { service: string; model: string }[];
};

describe('a billed workflow start cancelled in the extension', () => {
  let api: ExtensionApi;
  let sandbox: SandboxInfo;
  const held: ServerResponse[] = [];
  let startsTaken = 0;
  let onStartTaken = () => {};
  let relay: Server | undefined;

  before(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    sandbox = (await vscode.commands.executeCommand('wfs.startSandbox')) as SandboxInfo;
    // Everything passes, but the answer to a start is held once the sandbox took (and billed) it.
    const started = await startSandboxRelay(sandbox.baseUrl, (req, res) => {
      if (req.method !== 'POST' || !/\/sessions\/[^/]+\/workflows$/.test(req.url!)) return false;
      held.push(res);
      startsTaken++;
      onStartTaken();
      return true;
    });
    relay = started.server;
    await signInThrough(api, 'Held', started.url, sandbox);
    await setSetting('confirmBilledStart', false);
  });
  after(async () => {
    for (const r of held) r.destroy();
    relay?.closeAllConnections();
    await new Promise<void>((r) => (relay ? relay.close(() => r()) : r()));
    await setSetting('confirmBilledStart', undefined);
    await setSetting('environments', undefined);
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('cancelled while its answer is held: "may have been started and billed" with the correlationId and Find Workflows, and the billed workflow is in the explorer', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    const cid = `cancelled-start-${Date.now()}`;
    const taken = new Promise<void>((r) => (onStartTaken = r));
    const result = Promise.resolve(
      vscode.commands.executeCommand('wfs.startWorkflow', {
        sessionId: sandbox.sessions.staged,
        product: sandbox.products[0],
        correlationId: cid,
      }),
    );
    await taken;
    assert.equal(startsTaken, 1);
    await clickNotificationButton(/^Starting /, 'Cancel');
    const found = (await result) as TrackedWorkflow | undefined;

    const billed = (await (
      await fetch(`${sandbox.baseUrl}/sandbox/billing`, { headers: { 'x-sandbox-secret': sandbox.controlSecret } })
    ).json()) as { billed: { correlationId: string }[] };
    assert.ok(
      billed.billed.some((b) => b.correlationId === cid),
      'the sandbox did bill it',
    );
    assert.equal(found?.correlationId, cid, 'the command returns what the service holds');
    const recorded = api.workflows.store.workflows(envValue(api, 'Held')).find((w) => w.correlationId === cid);
    assert.ok(recorded, 'recorded in the explorer, to follow and reconfirm there');
    assert.equal(recorded.workflowId, found.workflowId);
    const said = new RegExp(
      `^The start of .+ was cancelled after its request was sent: a workflow may have been started and billed \\(correlationId ${cid}\\)\\. Held holds one \\(workflowId ${found.workflowId}\\) with that correlationId: it is in the explorer`,
    );
    await notificationsInCenter(said, 1);
    assert.deepEqual(await notificationButtons(said), ['Find Workflows', 'Copy correlationId']);
    assert.equal(startsTaken, 1, 'nothing was sent again');
  });
});
