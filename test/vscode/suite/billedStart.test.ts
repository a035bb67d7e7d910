// A billed start goes to the environment value the user confirmed in the billing modal, and nowhere else: an edit
// of the environment's address while the modal is open sends nothing, and the user is told why. In a real VS Code
// host, with the modal answered as a user would (helpers.ts answerModals).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { answerModals, extensionApi, setSetting, tokensKey, until, type ModalQuestion, envValue } from './helpers';
import { notificationsInCenter } from './workbenchDom';

type SandboxInfo = {
  baseUrl: string;
  controlSecret: string;
  sessions: { staged: string };
  products: { service: string; model: string }[];
};

describe('a billed workflow start uses the environment value the user confirmed', () => {
  let api: ExtensionApi;
  let sandbox: SandboxInfo;
  let other: RecordingServer;
  let otherUrl: string;
  let restoreModals: (() => void) | undefined;

  const pointBillingAt = async (baseUrl: string) => {
    await setSetting('environments', [{ name: 'Billing', baseUrl }]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Billing')?.baseUrl === baseUrl,
      `Billing to point at ${baseUrl}`,
    );
  };
  const billed = async (correlationId: string) => {
    const res = await fetch(`${sandbox.baseUrl}/sandbox/billing`, {
      headers: { 'x-sandbox-secret': sandbox.controlSecret },
    });
    return ((await res.json()) as { billed: { correlationId: string }[] }).billed.some(
      (b) => b.correlationId === correlationId,
    );
  };

  before(async () => {
    api = await extensionApi();
    other = new RecordingServer();
    otherUrl = await other.start();
    await setSetting('confirmBilledStart', undefined); // the default: asked
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    sandbox = (await vscode.commands.executeCommand('wfs.startSandbox')) as SandboxInfo;
    // Billing once pointed at the other service and was signed in there: that sign-in stays with that origin.
    await pointBillingAt(otherUrl);
    const now = Date.now();
    await api.secrets.store(
      tokensKey(api, 'Billing'),
      JSON.stringify({
        username: 'demo',
        accessToken: 'token-of-the-other-service',
        refreshToken: 'refresh-of-the-other-service',
        accessExpiresAt: now + 3_600_000,
        refreshIssuedAt: now,
        refreshExpiresAt: now + 86_400_000,
      }),
    );
    await pointBillingAt(sandbox.baseUrl);
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Billing');
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', {
        environment: 'Billing',
        username: 'demo',
        password: 'demo-password',
      }),
      true,
    );
  });
  after(async () => {
    restoreModals?.();
    await setSetting('environments', undefined);
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await other.stop();
  });

  it('the address edited while the billing modal is open: nothing is sent to the new origin, and the user is told why', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    const asked: ModalQuestion[] = [];
    restoreModals = answerModals(api, async (q) => {
      asked.push(q);
      // The user (or a settings sync) points Billing elsewhere while reading the question, then confirms.
      await pointBillingAt(otherUrl);
      // ...and reads on until the window has settled there (its sign-in to that origin loaded).
      await until(
        api.auth.onDidChange,
        async () => (await api.auth.manager(envValue(api, 'Billing')))?.state === 'signed-in',
        "Billing's sign-in at the other origin",
      );
      return 'Start (Billed)';
    });
    const cid = `confirmed-origin-${Date.now()}`;
    const started = await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: sandbox.sessions.staged,
      product: sandbox.products[0],
      correlationId: cid,
    });
    restoreModals();
    restoreModals = undefined;

    assert.deepEqual(
      other.requests.map((r) => `${r.method} ${r.url}`),
      [],
      'nothing was sent to the origin the user never confirmed',
    );
    assert.equal(started, undefined, 'no workflow was started');
    assert.equal(asked.length, 1, 'the billing question was asked once');
    assert.ok(asked[0]!.detail?.includes(new URL(sandbox.baseUrl).origin), 'the modal names the origin it bills at');
    assert.equal(await billed(cid), false, 'nothing was billed where the user confirmed either');
    await notificationsInCenter(
      /^Billing changed while you confirmed the billed start .*nothing was started or billed\. .*start again/,
      1,
    );
  });
});
