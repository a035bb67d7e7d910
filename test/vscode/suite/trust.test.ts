// A cloned repository's settings cannot take credentials, remove the billing question or send deliveries away;
// secrets stay with the origin they were issued for. In a real VS Code host, with a real workspace settings file.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { extensionApi, setSetting, tokensKey, until, envValue } from './helpers';
import { notificationsInCenter } from './workbenchDom';

describe('trust: workspace settings and secrets in a real VS Code host', () => {
  let api: ExtensionApi;
  let recorder: RecordingServer;
  let recorderUrl: string;
  let settingsDir: string;
  before(async () => {
    api = await extensionApi();
    recorder = new RecordingServer();
    recorderUrl = await recorder.start();
    settingsDir = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode');
  });
  after(async () => {
    rmSync(join(settingsDir, 'settings.json'), { force: true });
    await setSetting('environments', undefined);
    await setSetting('receiver.forwardTo', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await recorder.stop();
  });

  it('a workspace file that redefines an environment, turns off the billing question and forwards deliveries has no effect', async () => {
    const info = (await vscode.commands.executeCommand('wfs.startSandbox')) as {
      baseUrl: string;
      controlSecret: string;
    };
    await setSetting('environments', [{ name: 'Staging', baseUrl: info.baseUrl }]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Staging')?.baseUrl === info.baseUrl,
      'the user setting',
    );
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Staging',
        username: 'demo',
        password: 'demo-password',
      }),
      true,
    );

    mkdirSync(settingsDir, { recursive: true });
    // What earlier tests left in the notification center would only crowd its (virtualised) list.
    await vscode.commands.executeCommand('notifications.clearAll');
    const hostile = {
      'wfs.environments': [{ name: 'Staging', baseUrl: recorderUrl }],
      'wfs.confirmBilledStart': false,
      'wfs.receiver.forwardTo': recorderUrl + '/steal',
      'wfs.auth.rememberPasswordForSilentSignIn': true,
      // A setting a workspace may set: once it applies, VS Code has read the file.
      'wfs.polling.deadlineMinutes': 7,
    };
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify(hostile, null, 2));
    await until(
      vscode.workspace.onDidChangeConfiguration,
      () => vscode.workspace.getConfiguration('wfs').get('polling.deadlineMinutes') === 7,
      'the workspace settings file to be read',
    );
    // The user is told, once per setting, naming the file; not about a setting the workspace may set.
    const expected = [
      'wfs.auth.rememberPasswordForSilentSignIn',
      'wfs.confirmBilledStart',
      'wfs.environments',
      'wfs.receiver.forwardTo',
    ];
    const warnings = / sets (wfs\.[\w.]+), which only your user settings can set: the workspace value is ignored\.$/;
    const warned = await notificationsInCenter(warnings, expected.length);
    assert.deepEqual(
      warned.map((m) => m.startsWith('.vscode/settings.json sets ') && warnings.exec(m)![1]).sort(),
      expected,
    );
    writeFileSync(
      join(settingsDir, 'settings.json'),
      JSON.stringify({ ...hostile, 'wfs.polling.deadlineMinutes': 8 }, null, 2),
    );
    await until(
      vscode.workspace.onDidChangeConfiguration,
      () => vscode.workspace.getConfiguration('wfs').get('polling.deadlineMinutes') === 8,
      'the changed file',
    );
    const found = await api.settingsGuard.check();
    assert.equal(
      found.filter((id) => id.endsWith('/.vscode/settings.json#wfs.environments')).length,
      1,
      `still found: ${found.join(', ')}`,
    );
    assert.deepEqual(
      await notificationsInCenter(warnings, 0),
      warned,
      'warned once per setting and file, not at every change',
    );
    await vscode.commands.executeCommand('notifications.hideList');
    const wfs = vscode.workspace.getConfiguration('wfs');
    assert.equal(api.environments.get('Staging')?.baseUrl, info.baseUrl, "the user's environment, not the workspace's");
    assert.equal(wfs.get('confirmBilledStart'), true, 'the billing question stays');
    assert.equal(wfs.get('receiver.forwardTo'), '', 'no forward target from the workspace');
    assert.equal(wfs.get('auth.rememberPasswordForSilentSignIn'), false);

    // The billing question is still asked: the host dismisses it, so nothing is started or billed.
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
    // (A test host refuses dialogs: the modal is dismissed, or its request fails; either way the start must not go.)
    const started = await Promise.resolve(
      vscode.commands.executeCommand('wfs.startWorkflow', {
        sessionId: 'sess-demo-staged',
        product: { service: 'Appraisal', model: 'Standard' },
        correlationId: 'trust-billing-question',
      }),
    ).catch(() => undefined);
    assert.equal(started, undefined, 'the billing question was asked, not skipped');
    const billed = (await (
      await fetch(`${info.baseUrl}/sandbox/billing`, { headers: { 'x-sandbox-secret': info.controlSecret } })
    ).json()) as { billed: { correlationId: string }[] };
    assert.ok(!billed.billed.some((b) => b.correlationId === 'trust-billing-question'), 'nothing billed');

    // Refresh and use the token: nothing reaches the workspace's server.
    const manager = (await api.auth.manager(envValue(api, 'Staging')))!;
    await manager.refresh();
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Staging',
        username: 'demo',
        password: 'demo-password',
      }),
      true,
    );
    assert.equal(recorder.requests.length, 0, "no token and no password went to the workspace's address");
  });

  it('an environment moved to another origin is signed out there: its token is not sent, the user is asked to sign in', async () => {
    assert.ok(await api.secrets.get(tokensKey(api, 'Staging')), 'signed in at the sandbox');
    await setSetting('environments', [{ name: 'Staging', baseUrl: recorderUrl }]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Staging')?.baseUrl === recorderUrl,
      'the moved environment',
    );
    const manager = (await api.auth.manager(envValue(api, 'Staging')))!;
    assert.equal(manager.state, 'signed-out');
    await assert.rejects(api.auth.require(envValue(api, 'Staging')), /sign in/i);
    assert.equal(recorder.requests.length, 0, 'the old token went nowhere');
  });

  it('a forward target that is not on this machine is asked about first; declined (the host dismisses the modal), nothing is forwarded', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    if (!(await api.auth.manager(envValue(api, 'Sandbox')))?.current)
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' });
    await setSetting('receiver.forwardTo', 'http://forward-target.invalid/app');
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.startReceiver');
    assert.equal(api.receiver.forwardTo, undefined, 'not confirmed, so not used');
    const received = new Promise<{ forward?: unknown; verified: boolean }>((resolve) => {
      const sub = api.receiver.onDidReceive((r) => {
        sub.dispose();
        resolve(r);
      });
    });
    await vscode.commands.executeCommand('wfs.sendTestWebhook', {
      topic: 'trust/forward',
      subTopic: 'event:trust/forward',
      tenantId: 't',
      testData: 'template',
      address: api.receiver.info!.localUrl,
    });
    const r = await received;
    assert.equal(r.verified, true);
    assert.equal(r.forward, undefined, 'nothing was forwarded');
  });
});
