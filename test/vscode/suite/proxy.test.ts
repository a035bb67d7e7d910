// VS Code's http.proxy setting in a real extension host: the extension's requests to a configured environment go
// through a recording CONNECT proxy; the environment's .test name resolves only there. The environment is https (a
// TLS front on the test's sandbox, whose certificate this host is given): a password never goes in clear, and an
// environment that would send one in clear is refused, naming the setting, with nothing sent.
import assert from 'node:assert/strict';
import * as tls from 'node:tls';
import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import type { ExtensionApi } from '../hostExtension/extension';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { RecordingProxy } from '../../unit/helpers/recordingProxy';
import { TEST_NAMES_CERT, TlsFront } from '../../unit/helpers/tlsFront';
import { extensionApi, setSetting, until } from './helpers';
import { notificationButtons, notificationsInCenter } from './workbenchDom';

/** Node 24's process-wide default CA list (not yet in this @types/node). */
const caApi = tls as unknown as {
  getCACertificates(type?: 'default'): string[];
  setDefaultCACertificates(certs: string[]): void;
};

describe('http.proxy in a real VS Code host', () => {
  let api: ExtensionApi;
  let proxy: RecordingProxy;
  let front: TlsFront;
  let defaultCAs: string[];
  // A sandbox of the test's own that answers the .test name (the built-in one answers loopback names only).
  const sandbox = new Sandbox({ port: 0, allowedHosts: ['wfs-proxied.test'] });
  before(async () => {
    api = await extensionApi();
    proxy = new RecordingProxy();
    await proxy.start();
    const info = await sandbox.start();
    front = new TlsFront(Number(new URL(info.baseUrl).port));
    await front.start();
    // The extension host is this process: trust the test certificate here, as NODE_EXTRA_CA_CERTS would.
    defaultCAs = caApi.getCACertificates('default');
    caApi.setDefaultCACertificates([...defaultCAs, readFileSync(TEST_NAMES_CERT, 'utf8')]);
  });
  after(async () => {
    caApi.setDefaultCACertificates(defaultCAs);
    await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await setSetting('environments', undefined);
    await front.stop();
    await sandbox.stop();
    await proxy.stop();
  });
  beforeEach(() => {
    proxy.connects.length = 0;
    proxy.forwarded.length = 0;
  });

  it('signs in to an environment through the proxy set in http.proxy, and not at all without it', async () => {
    const named = `https://wfs-proxied.test:${front.port}`;
    await setSetting('environments', [{ name: 'Proxied', baseUrl: named }]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Proxied')?.baseUrl === named,
      'the environment',
    );

    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Proxied',
        username: 'demo',
        password: 'demo-password',
      }),
      false,
      'no proxy: the name does not resolve',
    );
    assert.deepEqual(proxy.connects, []);

    await vscode.workspace.getConfiguration('http').update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Proxied',
        username: 'demo',
        password: 'demo-password',
      }),
      true,
    );
    assert.deepEqual(proxy.connects, [new URL(named).host]);
    await vscode.commands.executeCommand('wfs.signOut', 'Proxied');
  });

  it('an environment whose baseUrl is plain http to another host: refused, the notification names the setting, and sign-in sends nothing', async () => {
    await vscode.workspace.getConfiguration('http').update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('notifications.clearAll');
    const clear = sandbox.info().baseUrl.replace('127.0.0.1', 'wfs-proxied.test');
    // A second, valid entry says when the setting has been read.
    await setSetting('environments', [
      { name: 'Clear', baseUrl: clear },
      { name: 'Marker', baseUrl: `https://wfs-proxied.test:${front.port}` },
    ]);
    await until(
      api.environments.onDidChange,
      () => api.environments.names().includes('Marker'),
      'the setting to be read',
    );
    assert.equal(api.environments.get('Clear'), undefined, 'the entry was refused');
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Clear',
        username: 'demo',
        password: 'demo-password',
      }),
      false,
    );
    assert.deepEqual(proxy.connects, [], 'nothing went through the proxy');
    assert.deepEqual(proxy.forwarded, []);
    const said = new RegExp(
      `^Some Workflow Service environments were skipped: wfs\\.environments\\[0\\] \\("Clear"\\): "baseUrl" is plain http to wfs-proxied\\.test:${new URL(clear).port}, which is not this machine: a password or token sent there would cross the network unencrypted, so none is sent\\. Use the service's https:// address, or a loopback address \\(127\\.0\\.0\\.1, localhost\\) for a local sandbox\\.$`,
    );
    await notificationsInCenter(said, 1);
    assert.deepEqual(await notificationButtons(said), ['Open Settings']);
  });
});
