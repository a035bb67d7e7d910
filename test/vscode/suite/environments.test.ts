// Environments from settings in a real VS Code host: listed after the Sandbox, switched to, per-environment sign-in.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { extensionApi, setSetting, tokensKey, until } from './helpers';
import { statusBarEntry } from './workbenchDom';

describe('environments in a real VS Code host', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
  });
  after(async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await setSetting('environments', undefined);
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('a configured environment appears after the Sandbox; a bad entry is skipped', async () => {
    await setSetting('environments', [
      { name: 'Staging', baseUrl: 'http://127.0.0.1:9/', products: [{ service: 'Appraisal', model: 'Standard' }] },
      { name: 'Broken' },
    ]);
    await until(
      api.environments.onDidChange,
      () => api.environments.names().includes('Staging'),
      'the setting to be read',
    );
    assert.deepEqual(api.environments.names(), ['Sandbox', 'Staging']);
    assert.equal(api.environments.get('Staging')?.baseUrl, 'http://127.0.0.1:9');
  });

  it('switching makes it current; it has its own (signed-out) sign-in and the explorer asks to sign in', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
    assert.equal(api.environments.currentName, 'Staging');
    await statusBarEntry(/^\$\(account\) Staging: signed out$/);
    assert.equal(api.explorer.currentState(), 'signed-out');
  });

  it('the sandbox environment serves a real environment: sign in to a configured environment that is a sandbox', async () => {
    const info = (await vscode.commands.executeCommand('wfs.startSandbox')) as { baseUrl: string };
    await setSetting('environments', [{ name: 'Staging', baseUrl: info.baseUrl }]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Staging')?.baseUrl === info.baseUrl,
      'the new address',
    );
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Staging',
        username: 'demo',
        password: 'demo-password',
      }),
      true,
    );
    assert.ok(await api.secrets.get(tokensKey(api, 'Staging')), 'tokens stored under the environment and its origins');
    assert.equal(await api.secrets.get(tokensKey(api, 'Sandbox')), undefined, 'other environments untouched');
    await vscode.commands.executeCommand('wfs.signOut', 'Staging');
    assert.equal(await api.secrets.get(tokensKey(api, 'Staging')), undefined);
  });
});
