// An environment is one resolved value (name + origins + trust): a restarted sandbox is a new origin, so nothing of
// the old run is used for the new one. What follows a change runs in one order (environmentSync.ts): by the time
// views hear of it, sign-ins, pollers, the store and the receiver's trust have followed.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { secretKeyFor } from '../../../src/core/auth/TokenManager';
import { extensionApi, setSetting, until, envValue } from './helpers';

type SandboxInfo = { baseUrl: string; sessions: { staged: string }; products: { service: string; model: string }[] };

describe('an environment is a value: a restarted sandbox is a new origin', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await setSetting('confirmBilledStart', false);
    await setSetting('sandbox.workflowDurationSeconds', 1);
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });
  after(async () => {
    await setSetting('confirmBilledStart', undefined);
    await setSetting('sandbox.workflowDurationSeconds', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('stopping and restarting the sandbox: its old sign-in is deleted, its workflows forgotten, its sessions kept, the receiver trusts the new run', async () => {
    const first = (await vscode.commands.executeCommand('wfs.startSandbox')) as SandboxInfo;
    const before = api.environments.get('Sandbox')!;
    assert.equal(before.baseUrl, first.baseUrl);
    assert.equal(api.environments.get('Sandbox'), before, 'the same value while nothing changed');
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
    const started = (await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: first.sessions.staged,
      product: first.products[0],
      correlationId: 'env-value-1',
    })) as { workflowId: string };
    assert.ok(started?.workflowId);
    assert.ok(api.workflows.store.workflow(envValue(api, 'Sandbox'), started.workflowId));
    assert.ok(await api.secrets.get(secretKeyFor(before.key)));
    await vscode.commands.executeCommand('wfs.startReceiver');

    // The first change views hear of is already followed by everything else.
    const seenAtStop = new Promise<{ token?: string; resolves: boolean }>((resolve) => {
      const sub = api.environments.onDidChange(async () => {
        sub.dispose();
        resolve({
          token: await api.secrets.get(secretKeyFor(before.key)),
          resolves: !!api.environments.get('Sandbox'),
        });
      });
    });
    await vscode.commands.executeCommand('wfs.stopSandbox');
    const atStop = await seenAtStop;
    assert.equal(atStop.resolves, false, 'a stopped sandbox does not resolve');
    assert.equal(atStop.token, undefined, "the stopped run's tokens were deleted before views heard of it");

    const second = (await vscode.commands.executeCommand('wfs.startSandbox')) as SandboxInfo;
    assert.notEqual(second.baseUrl, first.baseUrl, 'a new run listens on a new port');
    await until(
      api.environments.onDidChange,
      () => api.workflows.store.workflow(envValue(api, 'Sandbox'), started.workflowId) === undefined,
      "the old run's workflows to be forgotten",
    );
    const after = api.environments.get('Sandbox')!;
    assert.notEqual(after.key, before.key);
    assert.equal(
      (await api.auth.manager(envValue(api, 'Sandbox')))?.state,
      'signed-out',
      'the new run asks to sign in',
    );
    assert.ok(
      api.workflows.store.sessions(envValue(api, 'Sandbox')).includes(first.sessions.staged),
      "the user's sessions stay",
    );

    // The receiver trusts the new run's issuer and is registered with it: a workflow event arrives verified.
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
    const seen: DeliveryRecord[] = [];
    const sub = api.receiver.onDidReceive((r) => seen.push(r));
    try {
      const next = (await vscode.commands.executeCommand('wfs.startWorkflow', {
        sessionId: second.sessions.staged,
        product: second.products[0],
        correlationId: 'env-value-2',
      })) as { workflowId: string };
      assert.ok(next?.workflowId);
      await until(
        api.receiver.onDidReceive,
        () => seen.some((r) => r.verified),
        'a verified delivery from the new run',
      );
      assert.ok(
        seen.every((r) => r.verified),
        JSON.stringify(seen.map((r) => r.checks.filter((c) => !c.ok))),
      );
    } finally {
      sub.dispose();
    }
  });
});
