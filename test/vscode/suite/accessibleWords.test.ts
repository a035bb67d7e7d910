// Words, not only icons: each tree row and status bar item says its result in words to a screen reader
// (accessibilityInformation), read here as VS Code rendered it: the aria-label in the workbench's DOM.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { TrackedWorkflow } from '../../../src/core/workflows/WorkflowStore';
import { deliveredBy, extensionApi, setSetting, signInToSandbox } from './helpers';
import { ourStatusBarItems, treeRows } from './workbenchDom';

describe('Words, not only icons: what a screen reader hears', function () {
  let api: ExtensionApi;

  before(async function () {
    if (process.env.WFS_EXPECT_PSEUDO_LOCALE || process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    api = await extensionApi();
    await signInToSandbox();
    await setSetting('confirmBilledStart', false);
    await vscode.commands.executeCommand('wfs.startReceiver');
  });

  after(async () => {
    if (process.env.WFS_EXPECT_PSEUDO_LOCALE || process.env.WFS_EXPECT_UNTRUSTED) return;
    await setSetting('confirmBilledStart', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('the status bar items name the environment, the sign-in and the receiver', async () => {
    const items = await ourStatusBarItems(2);
    const labels = items.map((i) => i.ariaLabel);
    assert.ok(
      labels.some((l) => /^Workflow Service: Sandbox, signed in as demo, token valid for /.test(l)),
      JSON.stringify(labels),
    );
    assert.ok(
      labels.some((l) => /^Webhook receiver running at http/.test(l)),
      JSON.stringify(labels),
    );
  });

  it('a delivery row says verified, or refused at which step and why', async () => {
    const localUrl = api.receiver.info!.localUrl;
    await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 'tenant-words',
        testData: 'template',
        address: localUrl,
      }),
    );
    const refused = await deliveredBy(api, () =>
      fetch(localUrl, { method: 'POST', body: '{}' }).then((r) => r.arrayBuffer()),
    );
    const failed = refused.checks.find((c) => !c.ok)!;
    const rows = (await treeRows('wfs.receiver', /refused at step/)).map((r) => r.ariaLabel);
    assert.ok(
      rows.some((l) => /^Webhook workflow\/completed, verified, answered 200/.test(l)),
      JSON.stringify(rows),
    );
    assert.ok(
      rows.some((l) => l.includes(`, refused at step ${failed.step}: ${failed.name}, answered ${refused.status}`)),
      JSON.stringify(rows),
    );
    assert.ok(
      rows.some((l) => /^Local address http:\/\/127\.0\.0\.1:\d+\/webhooks, running$/.test(l)),
      JSON.stringify(rows),
    );
  });

  it('a workflow row says its status in words', async () => {
    const info = api.sandbox.info!;
    await vscode.commands.executeCommand('wfs.addSession', info.sessions.staged);
    const w = (await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: info.sessions.staged,
      product: info.products[0],
      correlationId: `host-words-${Date.now()}`,
    })) as TrackedWorkflow;
    const rows = (await treeRows('wfs.explorer', new RegExp(`workflow ${w.workflowId}$`))).map((r) => r.ariaLabel);
    assert.ok(
      rows.some((l) => new RegExp(`, (processing|complete), workflow ${w.workflowId}$`).test(l)),
      JSON.stringify(rows),
    );
    assert.ok(
      rows.some((l) => /^Environment Sandbox, signed in as demo, at http/.test(l)),
      JSON.stringify(rows),
    );
    await vscode.commands.executeCommand('wfs.removeWorkflow', {
      kind: 'workflow',
      env: api.environments.get('Sandbox'),
      workflowId: w.workflowId,
    });
    await vscode.commands.executeCommand('wfs.removeSession', {
      kind: 'session',
      env: api.environments.get('Sandbox'),
      sessionId: info.sessions.staged,
    });
  });
});
