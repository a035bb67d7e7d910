// Restricted Mode, as a cloned repository meets it: its .vscode/settings.json names forward rules (and pass-through)
// pointing at a recording server, it holds a fixture and defines a wfs task, and the user is signed in to a real
// environment whose address is a second recording server. Every action a user can take on them (each CodeLens, each
// command, the task) runs; the repository's target receives nothing, and the environment receives no request: the
// token is never used. The user's own forward target (a third server) is what the receiver and Send to App use.
// runOffline.mjs's untrusted window runs the suites named "Restricted Mode"; the trusted run skips this one.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { FixtureSendResult } from '../../../src/extension/fixtures/fixtureSend';
import { receiverTaskTerminal, type WfsTaskDefinition } from '../../../src/extension/tasks/receiverTask';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { envValue, extensionApi, setSetting, signInToSandbox, tokensKey, until } from './helpers';

describe("Restricted Mode: a repository's settings, fixtures and task send nothing and use no sign-in", function () {
  let api: ExtensionApi;
  /** Where the repository's forward rules point. */
  let repoTarget: RecordingServer;
  /** The real environment's address: any request here would carry the user's token. */
  let service: RecordingServer;
  /** The user's own app (wfs.receiver.forwardTo in user settings). */
  let app: RecordingServer;
  let repoUrl: string;
  let appUrl: string;
  let folder: string;
  let fixture: vscode.Uri;

  const nothingSent = () => {
    assert.deepEqual(
      repoTarget.requests.map((r) => `${r.method} ${r.url}`),
      [],
      "nothing reached the repository's forward target",
    );
    assert.deepEqual(
      service.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization ?? ''}`),
      [],
      'no request reached the environment: the sign-in was not used',
    );
  };

  before(async function () {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    assert.equal(vscode.workspace.isTrusted, false, 'this window must open the folder untrusted');
    api = await extensionApi();
    [repoTarget, service, app] = [new RecordingServer(), new RecordingServer(), new RecordingServer()];
    repoUrl = await repoTarget.start();
    const serviceUrl = await service.start();
    appUrl = (await app.start()) + '/hooks';
    await setSetting('environments', [{ name: 'Staging', baseUrl: serviceUrl }]);
    await setSetting('receiver.forwardTo', appUrl);
    await until(api.environments.onDidChange, () => !!api.environments.get('Staging'), 'the user setting');
    // Signed in earlier (in a trusted window): a session is stored for Staging's origins.
    const now = Date.now();
    await api.secrets.store(
      tokensKey(api, 'Staging'),
      JSON.stringify({
        username: 'demo',
        accessToken: 'restricted-mode-access-token',
        refreshToken: 'restricted-mode-refresh-token',
        accessExpiresAt: now + 3_600_000,
        refreshIssuedAt: now,
        refreshExpiresAt: now + 20 * 3_600_000,
      }),
    );
    const manager = (await api.auth.manager(envValue(api, 'Staging')))!;
    await manager.load();
    assert.notEqual(manager.state, 'signed-out', 'the stored sign-in is there to be misused');

    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    writeFileSync(
      join(folder, '.vscode', 'settings.json'),
      JSON.stringify({
        'wfs.receiver.forward': [{ topic: '**', url: `${repoUrl}/v1.43/containers/create` }],
        'wfs.receiver.forwardPassThrough': true,
        // A setting a workspace may set: once it applies, VS Code has read the file.
        'wfs.polling.deadlineMinutes': 6,
      }),
    );
    await until(
      vscode.workspace.onDidChangeConfiguration,
      () => vscode.workspace.getConfiguration('wfs').get('polling.deadlineMinutes') === 6,
      'the workspace settings file to be read',
    );
    mkdirSync(join(folder, 'webhooks'), { recursive: true });
    fixture = vscode.Uri.file(join(folder, 'webhooks', 'evil.webhook.json'));
    writeFileSync(
      fixture.fsPath,
      JSON.stringify({
        wfsFixture: 1,
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenant: 'tenant-demo',
        headers: { 'x-repository': 'chosen by the repository' },
        body: { webhookId: '{{webhookId}}', note: "the repository's content" },
      }),
    );
    await vscode.commands.executeCommand('wfs.stopReceiver');
  });

  after(async () => {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return;
    rmSync(join(folder, '.vscode', 'settings.json'), { force: true });
    rmSync(join(folder, 'webhooks', 'evil.webhook.json'), { force: true });
    await api.secrets.delete(tokensKey(api, 'Staging'));
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await setSetting('environments', undefined);
    await setSetting('receiver.forwardTo', undefined);
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await Promise.all([repoTarget.stop(), service.stop(), app.stop()]);
  });

  it("VS Code leaves the workspace's forward settings out, and the user is told they are ignored", async () => {
    const cfg = vscode.workspace.getConfiguration('wfs');
    assert.equal(cfg.inspect('receiver.forward')?.workspaceValue, undefined);
    assert.equal(cfg.inspect('receiver.forwardPassThrough')?.workspaceValue, undefined);
    assert.deepEqual(cfg.get('receiver.forward'), []);
    assert.equal(cfg.get('receiver.forwardPassThrough'), false);
    const found = await api.settingsGuard.check();
    for (const key of ['wfs.receiver.forward', 'wfs.receiver.forwardPassThrough'])
      assert.ok(
        found.some((id) => id.endsWith(`/.vscode/settings.json#${key}`)),
        `${key} reported: ${found.join(', ')}`,
      );
  });

  it("the fixture's CodeLenses on the Sandbox: the receiver and the user's own app get it, the repository's target nothing", async function () {
    this.timeout(60_000);
    // Signed in to the Sandbox, so Send as Test Webhook goes the whole way there (the sandbox is on this machine).
    await signInToSandbox();
    await vscode.window.showTextDocument(fixture);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fixture);
    const commands = lenses.map((l) => l.command!.command);
    for (const c of ['wfs.sendFixtureToReceiver', 'wfs.sendFixtureToApp', 'wfs.sendFixtureAsTestWebhook'])
      assert.ok(commands.includes(c), `${c} among ${commands.join(', ')}`);
    const results: Record<string, FixtureSendResult | undefined> = {};
    // "Send…" asks where (a quick pick) and "Send with Changes…" what to change (an input box); the targets are run
    // one by one below.
    const asking = ['wfs.sendFixture', 'wfs.sendFixtureWithChanges'];
    for (const lens of lenses.filter((l) => !asking.includes(l.command!.command)))
      results[lens.command!.command] = await vscode.commands.executeCommand(
        lens.command!.command,
        ...(lens.command!.arguments ?? []),
      );
    const info = api.receiver.info!;
    assert.equal(info.forwardRules, 1, "forwarded by the user's forwardTo only");
    assert.ok(!info.passThrough, "the workspace's pass-through is not on");
    const received = results['wfs.sendFixtureToReceiver']!;
    assert.equal(received.delivery?.verified, true);
    assert.deepEqual(
      received.delivery?.forwards?.map((f) => f.target),
      [appUrl],
      "forwarded to the user's app only",
    );
    assert.equal(results['wfs.sendFixtureToApp']?.target, appUrl, "Send to App: the user's own target");
    assert.equal(results['wfs.sendFixtureToApp']?.sent?.answer.status, 200);
    nothingSent();
  });

  it('on a real environment: Send as Test Webhook, Send Test Webhook, Find, Refresh and Reconfirm wait; no token leaves', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Staging');
    const env = envValue(api, 'Staging');
    const lens = (await vscode.commands.executeCommand('wfs.sendFixtureAsTestWebhook', fixture)) as FixtureSendResult;
    assert.equal(lens.notSent, 'waits-for-trust');
    const picked = (await vscode.commands.executeCommand('wfs.sendFixture', fixture, {
      target: { kind: 'test-webhook' },
    })) as FixtureSendResult;
    assert.equal(picked.notSent, 'waits-for-trust');
    const command = await vscode.commands.executeCommand('wfs.sendTestWebhook', {
      topic: 'workflow/completed',
      subTopic: 'event:workflow/completed',
      tenantId: 'tenant-demo',
      testData: 'template',
      address: 'http://127.0.0.1:9/webhooks',
    });
    assert.equal(command, undefined);
    assert.equal(
      await vscode.commands.executeCommand('wfs.findWorkflows', {
        correlationId: 'wfs-restricted',
        environment: 'Staging',
      }),
      undefined,
    );
    api.workflows.store.upsertFromEnvelope(
      env,
      {
        workflow: {
          workflowId: 'wf-restricted',
          runId: 'run-restricted',
          status: 'completed',
          sessionId: 'sess-1',
          product: { service: 'Appraisal', model: 'Standard' },
          productType: 'Appraisal',
          productName: 'Standard',
          reconfirmAvailable: true,
        },
      },
      { now: Date.now() },
    );
    const node = { kind: 'workflow', env, workflowId: 'wf-restricted' };
    assert.equal(await vscode.commands.executeCommand('wfs.refreshWorkflow', node), undefined);
    await vscode.commands.executeCommand('wfs.refresh');
    assert.equal(await vscode.commands.executeCommand('wfs.reconfirmWorkflow', node), undefined);
    api.workflows.remove(env, 'wf-restricted');
    nothingSent();
  });

  it('Send to a URL off this machine, Test Public Address and the receiver task wait: nothing is started or sent', async () => {
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    const remote = (await vscode.commands.executeCommand('wfs.sendFixture', fixture, {
      target: { kind: 'url', url: 'http://192.0.2.1:9/hook' },
      confirmedRemote: true,
    })) as FixtureSendResult;
    assert.equal(remote.notSent, 'waits-for-trust');
    assert.equal(await vscode.commands.executeCommand('wfs.testPublicAddress', { timeoutMs: 500 }), undefined);
    // The audit of a receiver off this machine, even confirmed by its caller: nothing is signed or sent (.invalid
    // never resolves, so a regression fails on a refused name, not on traffic leaving the machine).
    const audit = await vscode.commands.executeCommand('wfs.auditReceiver', {
      target: 'http://wfs-audit-target.invalid:9/webhooks',
      confirmedRemote: true,
    });
    assert.equal(audit, undefined, 'the audit waits for trust');

    await vscode.commands.executeCommand('wfs.stopReceiver');
    const definition: WfsTaskDefinition = {
      type: 'wfs',
      task: 'receiver',
      forward: [{ topic: '**', url: `${repoUrl}/from-the-task` }],
      passThrough: true,
    };
    const terminal = receiverTaskTerminal(api.receiver, definition, vscode.TaskScope.Workspace);
    let output = '';
    terminal.onDidWrite((text) => (output += text));
    const closed = new Promise<number | void>((resolve) => terminal.onDidClose!((code) => resolve(code)));
    terminal.open(undefined);
    assert.equal(await closed, 1);
    assert.match(output, /The receiver task waits until you trust this workspace \(Restricted Mode\)/);
    assert.equal(api.receiver.info, undefined, 'the task started no receiver');
    nothingSent();
  });
});
