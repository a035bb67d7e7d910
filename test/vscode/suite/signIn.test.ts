// Sign-in to the sandbox inside a real VS Code host: tokens only in SecretStorage, cleared by sign-out.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension/extension';

describe('sandbox sign-in in a real VS Code host', () => {
  let api: ExtensionApi;
  before(async () => {
    const ext = vscode.extensions.getExtension<ExtensionApi>('workflow-service-toolkit.workflow-service-toolkit')!;
    api = await ext.activate();
  });
  after(async () => {
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('a wrong password is refused and stores nothing', async () => {
    const ok = await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'wrong' });
    assert.equal(ok, false);
    assert.equal(await api.secrets.get('wfs.tokens.Sandbox'), undefined);
  });

  it('signs in with the demo credentials; the session lives in SecretStorage and nowhere in settings', async () => {
    const ok = await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' });
    assert.equal(ok, true);
    assert.equal(api.auth.manager?.state, 'signed-in');
    const stored = JSON.parse((await api.secrets.get('wfs.tokens.Sandbox'))!);
    assert.equal(stored.username, 'demo');
    assert.ok(stored.accessToken && stored.refreshToken);
    const settings = JSON.stringify(vscode.workspace.getConfiguration().inspect('wfs') ?? {});
    assert.ok(!settings.includes(stored.accessToken));
  });

  it('sign-out clears SecretStorage', async () => {
    await vscode.commands.executeCommand('wfs.signOut');
    assert.equal(api.auth.manager?.state, 'signed-out');
    assert.equal(await api.secrets.get('wfs.tokens.Sandbox'), undefined);
  });
});
