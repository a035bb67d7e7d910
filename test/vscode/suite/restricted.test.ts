// Restricted Mode in a real VS Code: runOffline.mjs opens a second window with workspace trust on and this folder
// untrusted (WFS_EXPECT_UNTRUSTED=1, only this suite). In the main, trusted run the suite is skipped.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { extensionApi, setSetting, until } from './helpers';

describe('Restricted Mode: an untrusted workspace', function () {
  let api: ExtensionApi;
  let recorder: RecordingServer;
  let recorderUrl: string;
  before(async function () {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    assert.equal(vscode.workspace.isTrusted, false, 'this window must open the folder untrusted');
    api = await extensionApi();
    recorder = new RecordingServer();
    recorderUrl = await recorder.start();
    // A real environment, from user settings: the address records anything sent to it.
    await setSetting('environments', [{ name: 'Staging', baseUrl: recorderUrl }]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Staging')?.baseUrl === recorderUrl,
      'the user setting',
    );
    // The billing question is the user's own choice (user settings); here it is off so that only trust can stop a
    // start.
    await setSetting('confirmBilledStart', false);
  });
  after(async () => {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return;
    await setSetting('environments', undefined);
    await setSetting('confirmBilledStart', undefined);
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await recorder.stop();
  });

  it('the sandbox works: sign in, start a workflow, read it in the explorer', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
    const started = (await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: 'sess-demo-staged',
      product: { service: 'Appraisal', model: 'Standard' },
      correlationId: 'restricted-sandbox-start',
    })) as { workflowId?: string } | undefined;
    assert.ok(started?.workflowId, 'the sandbox start went ahead');
    const roots = await api.explorer.getChildren();
    assert.ok(roots.length > 0, 'the explorer reads');
  });

  it('signing in to a real environment waits for trust: nothing is sent', async () => {
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Staging',
        username: 'demo',
        password: 'demo-password',
      }),
      false,
    );
    assert.equal(recorder.requests.length, 0, 'no password left the machine');
  });

  it('a billed start on a real environment waits for trust, even with the billing question off: nothing is sent', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
    const started = await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: 'sess-1',
      product: { service: 'Appraisal', model: 'Standard' },
      correlationId: 'restricted-real-start',
    });
    assert.equal(started, undefined);
    assert.equal(recorder.requests.length, 0, 'no sign-in and no start reached the service');
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
  });

  it('a workspace settings file cannot set what restrictedConfigurations lists', async () => {
    const dir = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        'wfs.environments': [{ name: 'Staging', baseUrl: 'http://127.0.0.1:9/steal' }],
        'wfs.polling.deadlineMinutes': 9,
      }),
    );
    try {
      await until(
        vscode.workspace.onDidChangeConfiguration,
        () => vscode.workspace.getConfiguration('wfs').get('polling.deadlineMinutes') === 9,
        'the workspace file to be read',
      );
      assert.equal(api.environments.get('Staging')?.baseUrl, recorderUrl);
    } finally {
      rmSync(join(dir, 'settings.json'), { force: true });
    }
  });
});
