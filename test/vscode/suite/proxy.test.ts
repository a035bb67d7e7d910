// VS Code's http.proxy setting in a real extension host: the extension's requests to a configured environment go
// through a recording CONNECT proxy; the environment's .test name resolves only there.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { RecordingProxy } from '../../unit/helpers/recordingProxy';
import { extensionApi, setSetting, until } from './helpers';

describe('http.proxy in a real VS Code host', () => {
  let api: ExtensionApi;
  let proxy: RecordingProxy;
  // A sandbox of the test's own that answers the .test name (the built-in one answers loopback names only).
  const sandbox = new Sandbox({ port: 0, allowedHosts: ['wfs-proxied.test'] });
  before(async () => {
    api = await extensionApi();
    proxy = new RecordingProxy();
    await proxy.start();
  });
  after(async () => {
    await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await setSetting('environments', undefined);
    await sandbox.stop();
    await proxy.stop();
  });

  it('signs in to an environment through the proxy set in http.proxy, and not at all without it', async () => {
    const info = await sandbox.start();
    const named = info.baseUrl.replace('127.0.0.1', 'wfs-proxied.test');
    await setSetting('environments', [{ name: 'Proxied', baseUrl: named }]);
    await until(api.environments.onDidChange, () => api.environments.get('Proxied')?.baseUrl === named, 'the environment');

    assert.equal(await vscode.commands.executeCommand('wfs.signIn', { environment: 'Proxied', username: 'demo', password: 'demo-password' }), false, 'no proxy: the name does not resolve');
    assert.deepEqual(proxy.connects, []);

    await vscode.workspace.getConfiguration('http').update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('wfs.signIn', { environment: 'Proxied', username: 'demo', password: 'demo-password' }), true);
    assert.deepEqual(proxy.connects, [new URL(named).host]);
    await vscode.commands.executeCommand('wfs.signOut', 'Proxied');
  });
});
