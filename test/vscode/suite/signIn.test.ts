// Sign-in to the sandbox inside a real VS Code host: tokens only in SecretStorage, cleared by sign-out; the
// status bar says who is signed in.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { AuthService } from '../../../src/extension/auth/authService';
import { extensionApi, passwordKey, setSetting, tokensKey, until, envValue } from './helpers';
import { notificationsInCenter, statusBarEntry } from './workbenchDom';

describe('sandbox sign-in in a real VS Code host', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
  });
  after(async () => {
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });
  // Each test sets up the sign-in it needs: none relies on the one before.
  const signIn = async () =>
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );

  it('before the sandbox starts, the status bar says so and the explorer offers to start it', async () => {
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await statusBarEntry(/^\$\(beaker\) Sandbox: not started$/);
    assert.equal(api.explorer.currentState(), 'sandbox-stopped');
    assert.deepEqual(await api.explorer.getChildren(), []);
  });

  it('a wrong password is refused and stores nothing', async () => {
    await api.auth.signOut('Sandbox');
    const ok = await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'wrong' });
    assert.equal(ok, false);
    assert.equal(await api.secrets.get(tokensKey(api, 'Sandbox')), undefined);
    assert.equal(api.explorer.currentState(), 'signed-out');
  });

  it('signs in with the demo credentials; the session lives in SecretStorage and nowhere in settings; the status bar names the user', async () => {
    const ok = await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' });
    assert.equal(ok, true);
    assert.equal((await api.auth.manager(envValue(api, 'Sandbox')))?.state, 'signed-in');
    const stored = JSON.parse((await api.secrets.get(tokensKey(api, 'Sandbox')))!);
    assert.equal(stored.username, 'demo');
    assert.ok(stored.accessToken && stored.refreshToken);
    assert.equal(
      await api.secrets.get(passwordKey(api, 'Sandbox')),
      undefined,
      'the password is not kept unless the user opts in',
    );
    const settings =
      JSON.stringify(vscode.workspace.getConfiguration().inspect('wfs') ?? {}) +
      JSON.stringify(api.state.keys().map((k) => api.state.get(k)));
    assert.ok(
      !settings.includes(stored.accessToken) && !settings.includes('demo-password'),
      'no secret in settings or globalState',
    );
    await statusBarEntry(/^\$\(account\) Sandbox: demo · token (59m|1h 00m)$/);
  });

  it('another window signing out (the secret deleted) is followed through secrets.onDidChange', async () => {
    await signIn();
    const tm = (await api.auth.manager(envValue(api, 'Sandbox')))!;
    assert.equal(tm.state, 'signed-in');
    await api.secrets.delete(tokensKey(api, 'Sandbox'));
    await until(api.auth.onDidChange, () => tm.state === 'signed-out', 'the manager to follow the deleted secret');
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
  });

  it('with silent re-sign-in opted in, the password is kept in SecretStorage only, and sign-out removes it', async () => {
    await setSetting('auth.rememberPasswordForSilentSignIn', true);
    try {
      assert.equal(
        await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
        true,
      );
      assert.deepEqual(JSON.parse((await api.secrets.get(passwordKey(api, 'Sandbox')))!), {
        username: 'demo',
        password: 'demo-password',
      });
      const settings = JSON.stringify(vscode.workspace.getConfiguration().inspect('wfs') ?? {});
      assert.ok(!settings.includes('demo-password'));
    } finally {
      await setSetting('auth.rememberPasswordForSilentSignIn', undefined);
    }
  });

  it('a sign-in about to lapse (midnight US Eastern) warns with "Sign In"; a lapsed one warns too', async () => {
    await signIn();
    const tm = (await api.auth.manager(envValue(api, 'Sandbox')))!;
    const stored = JSON.parse((await api.secrets.get(tokensKey(api, 'Sandbox')))!);
    await vscode.commands.executeCommand('notifications.clearAll');
    // As another window would write it: the same session, its refresh token lapsing in 10 minutes.
    await api.secrets.store(
      tokensKey(api, 'Sandbox'),
      JSON.stringify({ ...stored, refreshExpiresAt: Date.now() + 10 * 60_000 }),
    );
    await notificationsInCenter(
      /^Your sign-in to Sandbox lapses at .* \(midnight US Eastern\)\. Sign in again to stay signed in\.$/,
      1,
    );
    assert.equal(tm.state, 'lapsing-soon');
    await statusBarEntry(/^\$\(warning\) Sandbox: demo/);
    await api.secrets.store(
      tokensKey(api, 'Sandbox'),
      JSON.stringify({ ...stored, refreshExpiresAt: Date.now() - 1000 }),
    );
    await notificationsInCenter(
      /^Your sign-in to Sandbox has lapsed \(midnight US Eastern\)\. Sign in again to go on\.$/,
      1,
    );
    await vscode.commands.executeCommand('notifications.hideList');
    // Lapsed; the next request for a token (the explorer's poll) then deletes the useless session: signed out.
    assert.ok(['expired', 'signed-out'].includes(tm.state), tm.state);
    assert.equal(api.explorer.currentState(), 'signed-out', 'the explorer asks to sign in again');
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
  });

  it('sign-out clears SecretStorage and the status bar says signed out', async () => {
    await signIn();
    await vscode.commands.executeCommand('wfs.signOut');
    assert.equal((await api.auth.manager(envValue(api, 'Sandbox')))?.state, 'signed-out');
    assert.equal(await api.secrets.get(tokensKey(api, 'Sandbox')), undefined);
    assert.equal(await api.secrets.get(passwordKey(api, 'Sandbox')), undefined);
    await statusBarEntry(/^\$\(account\) Sandbox: signed out$/);
  });

  it('a secret storage that refuses (a locked keyring): the sign-in works for this window and says so; a sign-out it cannot finish says what is left', async () => {
    // VS Code's SecretStorage as it behaves with a locked or missing OS keyring: every call rejects.
    let failing = true;
    const refuse = <T>(real: () => Thenable<T>): Thenable<T> =>
      failing ? Promise.reject(new Error('Cannot create an item in a locked collection')) : real();
    const secrets: vscode.SecretStorage = {
      get: (key) => refuse(() => api.secrets.get(key)),
      store: (key, value) => refuse(() => api.secrets.store(key, value)),
      delete: (key) => refuse(() => api.secrets.delete(key)),
      onDidChange: api.secrets.onDidChange,
    };
    // A second AuthService over it, built as the extension builds its own: the real window, settings and sandbox.
    const auth = new AuthService(secrets, api.environments, api.sandbox, api.output, api.clock);
    try {
      await vscode.commands.executeCommand('notifications.clearAll');
      assert.equal(
        await auth.signIn({ username: 'demo', password: 'demo-password' }),
        true,
        'the sign-in itself succeeded',
      );
      const manager = (await auth.manager(envValue(api, 'Sandbox')))!;
      assert.equal(manager.state, 'signed-in');
      assert.ok(await manager.getAccessToken());
      await notificationsInCenter(
        /^VS Code's secret storage did not keep your sign-in to Sandbox: you stay signed in until this window closes, and the next window asks you to sign in again \(Cannot create an item in a locked collection\)\.$/,
        1,
      );

      await auth.signOut('Sandbox');
      assert.equal(manager.state, 'signed-out', 'signed out in this window all the same');
      await notificationsInCenter(
        /^Signed out of Sandbox: signed out in this window, but the secret storage did not remove the stored sign-in \(Cannot create an item in a locked collection\); sign out again once it works; the remembered password was not removed \(Cannot create an item in a locked collection\)\.$/,
        1,
      );
    } finally {
      failing = false;
      auth.dispose();
    }
  });
});
