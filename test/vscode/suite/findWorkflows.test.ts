// After a 500 on a billed start, "Find Workflows" finds what the service holds and adds it to the explorer.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { TrackedWorkflow } from '../../../src/core/workflows/WorkflowStore';
import { extensionApi, setSetting, envValue } from './helpers';
import { notificationsInCenter } from './workbenchDom';

describe('Find Workflows in a real VS Code host', () => {
  let api: ExtensionApi;
  let baseUrl: string;
  let controlSecret: string;
  before(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    ({ baseUrl, controlSecret } = (await vscode.commands.executeCommand('wfs.startSandbox')) as {
      baseUrl: string;
      controlSecret: string;
    });
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
    await setSetting('confirmBilledStart', false);
  });
  after(async () => {
    await setSetting('confirmBilledStart', undefined);
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  const control = (path: string, json: unknown) =>
    fetch(`${baseUrl}/sandbox/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-secret': controlSecret },
      body: JSON.stringify(json),
    });

  it('a start answered 500 after billing is not in the explorer; Find Workflows by its correlationId adds it under its session', async () => {
    await control('faults', { fault: 'start-500-billed' });
    const cid = `find-after-500-${Date.now()}`;
    // The outcome-unknown modal is dismissed by the test host: the start returns nothing.
    const started = await Promise.resolve(
      vscode.commands.executeCommand('wfs.startWorkflow', {
        sessionId: 'sess-demo-staged',
        product: { service: 'Appraisal', model: 'Standard' },
        correlationId: cid,
      }),
    ).catch(() => undefined);
    assert.equal(started, undefined);
    assert.ok(
      !api.workflows.store.workflows(envValue(api, 'Sandbox')).some((w) => w.correlationId === cid),
      'not known before the search',
    );

    const found = (await vscode.commands.executeCommand('wfs.findWorkflows', {
      correlationId: cid,
    })) as TrackedWorkflow[];
    assert.equal(found.length, 1);
    assert.equal(found[0]!.correlationId, cid);
    const inTree = api.workflows.store
      .workflows(envValue(api, 'Sandbox'), 'sess-demo-staged')
      .find((w) => w.correlationId === cid);
    assert.ok(inTree, 'added to the explorer under its session');
  });

  it('a correlationId pasted with the quotes of the JSON it came from still finds the billed workflow, and the message says how', async () => {
    await control('faults', { fault: 'start-500-billed' });
    const cid = `find-quoted-${Date.now()}`;
    await Promise.resolve(
      vscode.commands.executeCommand('wfs.startWorkflow', {
        sessionId: 'sess-demo-staged',
        product: { service: 'Appraisal', model: 'Standard' },
        correlationId: cid,
      }),
    ).catch(() => undefined);
    await vscode.commands.executeCommand('notifications.clearAll');
    const found = (await vscode.commands.executeCommand('wfs.findWorkflows', {
      correlationId: `"${cid}"`,
    })) as TrackedWorkflow[];
    assert.deepEqual(
      found.map((w) => w.correlationId),
      [cid],
    );
    const said = new RegExp(
      `^No workflow carries the correlationId as typed \\("\\\\"${cid}\\\\""\\), but without the quotes or spaces copying added, Sandbox holds one workflow with correlationId ${cid}: Appraisal / Standard in sess-demo-staged`,
    );
    await notificationsInCenter(said, 1);
  });

  it('a correlationId the service does not hold finds nothing and adds nothing', async () => {
    const before = api.workflows.store.workflows(envValue(api, 'Sandbox')).length;
    const found = (await vscode.commands.executeCommand('wfs.findWorkflows', {
      correlationId: 'never-started',
    })) as TrackedWorkflow[];
    assert.deepEqual(found, []);
    assert.equal(api.workflows.store.workflows(envValue(api, 'Sandbox')).length, before);
  });
});
