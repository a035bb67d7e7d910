// Whom the extension's receiver trusts, in a real VS Code host (issue #51): the sandbox's issuer only while the
// Sandbox is the environment in use (anything on this machine may have the sandbox sign) or for Test Public
// Address's own probe; trustedIssuers edited in settings take effect on the running receiver, and it says so.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { SignJWT } from 'jose';
import type { ExtensionApi } from '../hostExtension/extension';
import type { PublicAddressTestResult } from '../../../src/core/tunnel/publicAddressTest';
import { freePort } from '../../unit/helpers/freePort';
import { KeySetServer, newRsaKey, type TestKey } from '../../unit/helpers/keySetServer';
import { extensionApi, setSetting, until } from './helpers';
import { notificationsInCenter } from './workbenchDom';

const STAGING_ISSUER = 'https://staging.example.test/webhooks';
const STAGING_AUDIENCE = 'staging-receiver';

describe("receiver trust: the sandbox's issuer only while the Sandbox is in use; trustedIssuers from settings at once", () => {
  let api: ExtensionApi;
  let keySet: KeySetServer;
  let stagingKey: TestKey;
  let n = 0;

  /** A fresh event body: each delivery its own webhookId. */
  const event = () =>
    Buffer.from(
      JSON.stringify({
        webhookId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
        topic: 'workflow/completed',
        data: { runId: `wfrun_trust_${n}` },
      }),
    );
  async function post(body: Buffer, token: string): Promise<number> {
    const res = await fetch(api.receiver.info!.localUrl, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    return res.status;
  }
  const sandboxSigned = async (body: Buffer) => (await api.sandbox.signWebhookBody(body))!;
  const stagingSigned = (body: Buffer) =>
    new SignJWT({
      iss: STAGING_ISSUER,
      aud: STAGING_AUDIENCE,
      exp: Math.floor(Date.now() / 1000) + 300,
      body_sha256: createHash('sha256').update(body).digest('hex'),
    })
      .setProtectedHeader({ alg: 'RS256', kid: stagingKey.kid })
      .sign(stagingKey.privateKey);
  const lastRecord = () => api.receiver.deliveries.all().at(-1)!;

  before(async () => {
    api = await extensionApi();
    stagingKey = await newRsaKey('staging-1');
    keySet = new KeySetServer();
    await keySet.start();
    keySet.keys = [stagingKey.jwk];
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.startSandbox');
    const port = await freePort();
    await setSetting('receiver.port', port);
    await setSetting('receiver.publicAddress', 'url');
    await setSetting('receiver.publicUrl', `http://localhost:${port}/webhooks`);
    await setSetting('environments', [{ name: 'Staging', baseUrl: 'http://127.0.0.1:9/' }]);
    await until(api.environments.onDidChange, () => !!api.environments.get('Staging'), 'Staging');
  });
  after(async () => {
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    for (const k of ['environments', 'receiver.port', 'receiver.publicAddress', 'receiver.publicUrl'])
      await setSetting(k, undefined);
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await keySet.stop();
  });

  it('a real environment in use: a sandbox-signed delivery is refused at step 2, Test Public Address still passes; the Sandbox in use: it is verified', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
    assert.ok(await vscode.commands.executeCommand('wfs.startReceiver'));
    const forged = event();
    assert.equal(
      await post(forged, await sandboxSigned(forged)),
      403,
      'any local process may have the sandbox sign: not trusted for Staging',
    );
    const refused = lastRecord();
    assert.equal(refused.verified, false);
    assert.deepEqual(
      refused.checks.filter((c) => !c.ok && c.step < 7).map((c) => c.step),
      [2],
    );
    assert.match(refused.checks.find((c) => c.step === 2)!.detail, /is not trusted/);

    const probe = (await vscode.commands.executeCommand('wfs.testPublicAddress', {
      timeoutMs: 10_000,
    })) as PublicAddressTestResult;
    assert.equal(probe.ok, true, probe.detail);
    const again = event();
    assert.equal(
      await post(again, await sandboxSigned(again)),
      403,
      'the probe was trusted by its own token, and only while it ran',
    );

    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    const genuine = event();
    assert.equal(await post(genuine, await sandboxSigned(genuine)), 200);
    assert.equal(lastRecord().verified, true);
  });

  it('trustedIssuers added in settings while the receiver runs: the next delivery of that issuer is verified, and a notification names the issuers now trusted', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    if (!api.receiver.info) assert.ok(await vscode.commands.executeCommand('wfs.startReceiver'));
    const before = event();
    assert.equal(await post(before, await stagingSigned(before)), 403, 'not trusted yet');
    await setSetting('environments', [
      {
        name: 'Staging',
        baseUrl: 'http://127.0.0.1:9/',
        trustedIssuers: [{ issuer: STAGING_ISSUER, jwksUrl: keySet.url, audience: STAGING_AUDIENCE }],
      },
    ]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Staging')?.trustedIssuers.length === 1,
      "Staging's trusted issuer",
    );
    const after = event();
    assert.equal(await post(after, await stagingSigned(after)), 200);
    assert.equal(lastRecord().verified, true);
    const notice = new RegExp(
      `^The webhook receiver now trusts: Staging \\(${STAGING_ISSUER.replace(/[.]/g, '\\.')}, key set ${keySet.url.replace(/[.]/g, '\\.')}, audience ${STAGING_AUDIENCE}\\)\\.$`,
    );
    await notificationsInCenter(notice, 1);
    await vscode.commands.executeCommand('notifications.hideList');
  });
});
