// Forward settings a workspace proposes, in a trusted window: its rules (in .vscode/settings.json, or a wfs task of
// its own) are used only once the user agreed, asked once per workspace even for loopback targets, and again when
// they change; a "no" keeps the user's own forwardTo, for the receiver and for Send to App alike. And Save as
// Fixture refuses a fixtures folder that is a symbolic link out of the workspace. In a real VS Code host.
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { FixtureSendResult } from '../../../src/extension/fixtures/fixtureSend';
import { receiverTaskTerminal } from '../../../src/extension/tasks/receiverTask';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { answerModals, extensionApi, setSetting, signInToSandbox, until, type ModalQuestion } from './helpers';
import { notificationsInCenter } from './workbenchDom';

const AGREE = 'Use Workspace Settings';

describe('forward settings a trusted workspace proposes', function () {
  let api: ExtensionApi;
  let repo: RecordingServer;
  let app: RecordingServer;
  let repoUrl: string;
  let appUrl: string;
  let folder: string;
  let fixture: vscode.Uri;
  const questions: ModalQuestion[] = [];
  let answer: string | undefined;
  let stopAnswering: () => void;

  const workspaceRules = async (path: string) => {
    writeFileSync(
      join(folder, '.vscode', 'settings.json'),
      JSON.stringify({ 'wfs.receiver.forward': [{ topic: '**', url: `${repoUrl}${path}` }] }),
    );
    await until(
      vscode.workspace.onDidChangeConfiguration,
      () =>
        (vscode.workspace.getConfiguration('wfs').inspect<{ url: string }[]>('receiver.forward')?.workspaceValue ??
          [])[0]?.url === `${repoUrl}${path}`,
      'the workspace settings file to be read',
    );
  };
  const restartReceiver = async () => {
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.startReceiver');
    return api.receiver.info!;
  };
  const forwardQuestions = () => questions.filter((q) => q.message === "Use this workspace's forward settings?");

  before(async function () {
    if (process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    api = await extensionApi();
    [repo, app] = [new RecordingServer(), new RecordingServer()];
    repoUrl = await repo.start();
    appUrl = (await app.start()) + '/hooks';
    await setSetting('receiver.forwardTo', appUrl);
    await signInToSandbox();
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    mkdirSync(join(folder, 'webhooks'), { recursive: true });
    fixture = vscode.Uri.file(join(folder, 'webhooks', 'proposed.webhook.json'));
    writeFileSync(
      fixture.fsPath,
      JSON.stringify({ wfsFixture: 1, topic: 'a/b', subTopic: 's:a/b', tenant: 't', body: { n: '{{webhookId}}' } }),
    );
    stopAnswering = answerModals(api, (q) => {
      questions.push(q);
      return answer;
    });
  });
  after(async () => {
    if (process.env.WFS_EXPECT_UNTRUSTED) return;
    stopAnswering();
    rmSync(join(folder, '.vscode', 'settings.json'), { force: true });
    rmSync(fixture.fsPath, { force: true });
    await setSetting('receiver.forwardTo', undefined);
    await setSetting('fixtures.folder', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await Promise.all([repo.stop(), app.stop()]);
  });

  it("asks once per workspace before its rules are first used, loopback included; a no keeps the user's forwardTo", async function () {
    this.timeout(60_000);
    await workspaceRules('/first');
    answer = undefined;
    let info = await restartReceiver();
    assert.equal(forwardQuestions().length, 1, 'asked, although the target is on this machine');
    const q = forwardQuestions()[0]!;
    assert.ok(q.detail!.includes(`${repoUrl}/first`), q.detail);
    assert.ok(q.detail!.includes(`take the place of your own wfs.receiver.forwardTo (${appUrl})`), q.detail);
    assert.deepEqual(q.items, [AGREE]);
    assert.equal(info.forwardRules, 1);
    assert.equal(api.receiver.forwardTo, appUrl, "declined: the user's own target");
    // Send to App sends where the user chose: the question again (a no is not remembered), and the user's app.
    const toApp = (await vscode.commands.executeCommand('wfs.sendFixtureToApp', fixture)) as FixtureSendResult;
    assert.equal(toApp.target, appUrl);
    assert.equal(forwardQuestions().length, 2);
    assert.equal(repo.requests.length, 0);

    answer = AGREE;
    info = await restartReceiver();
    assert.equal(forwardQuestions().length, 3);
    assert.equal(api.receiver.forwardTo, `${repoUrl}/first`);
    const delivered = (await vscode.commands.executeCommand('wfs.sendFixtureToReceiver', fixture)) as FixtureSendResult;
    assert.deepEqual(
      delivered.delivery?.forwards?.map((f) => f.target),
      [`${repoUrl}/first`],
    );
    // Agreed: not asked again, for the receiver nor for Send to App.
    answer = undefined;
    await restartReceiver();
    const again = (await vscode.commands.executeCommand('wfs.sendFixtureToApp', fixture)) as FixtureSendResult;
    assert.equal(again.target, `${repoUrl}/first`);
    assert.equal(forwardQuestions().length, 3, 'asked once for this workspace and these rules');

    // Changed rules are asked about again.
    await workspaceRules('/second');
    await restartReceiver();
    assert.equal(forwardQuestions().length, 4);
    assert.ok(forwardQuestions()[3]!.detail!.includes(`${repoUrl}/second`));
    assert.equal(api.receiver.forwardTo, appUrl);
    rmSync(join(folder, '.vscode', 'settings.json'), { force: true });
    await until(
      vscode.workspace.onDidChangeConfiguration,
      () => vscode.workspace.getConfiguration('wfs').inspect('receiver.forward')?.workspaceValue === undefined,
      'the workspace settings file to be gone',
    );
  });

  it("a workspace's wfs task asks before its rules are used; the user's own tasks.json does not", async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    const run = async (scope: vscode.TaskScope) => {
      const terminal = receiverTaskTerminal(
        api.receiver,
        { type: 'wfs', task: 'receiver', forward: [{ url: `${repoUrl}/task` }] },
        scope,
      );
      let output = '';
      const ready = new Promise<void>((resolve) =>
        terminal.onDidWrite((text) => {
          output += text;
          if (output.includes('wfs: receiver ready at')) resolve();
        }),
      );
      terminal.open(undefined);
      await ready;
      const target = api.receiver.forwardTo;
      terminal.close();
      await until(api.receiver.onDidChange, () => api.receiver.info === undefined, 'the task to stop its receiver');
      return target;
    };
    answer = undefined;
    const before = forwardQuestions().length;
    assert.equal(await run(vscode.TaskScope.Workspace), appUrl, "declined: the user's own target");
    assert.equal(forwardQuestions().length, before + 1);
    assert.match(forwardQuestions().at(-1)!.detail!, /^This workspace's wfs task \(tasks\.json\) would forward/);
    assert.equal(await run(vscode.TaskScope.Global), `${repoUrl}/task`, "the user's own task's rules");
    assert.equal(forwardQuestions().length, before + 1, 'not asked about the user’s own task');
  });

  it('Save as Fixture refuses a fixtures folder that is a symbolic link out of the workspace', async function () {
    this.timeout(30_000);
    const outside = mkdtempSync(join(tmpdir(), 'wfs-outside-'));
    symlinkSync(outside, join(folder, 'linked-out'));
    try {
      await setSetting('fixtures.folder', 'linked-out');
      await vscode.commands.executeCommand('wfs.startReceiver');
      const sent = (await vscode.commands.executeCommand('wfs.sendFixtureToReceiver', fixture)) as FixtureSendResult;
      assert.equal(sent.delivery?.verified, true);
      await vscode.commands.executeCommand('notifications.clearAll');
      assert.equal(await vscode.commands.executeCommand('wfs.saveAsFixture', sent.delivery!.id, 'escaped'), undefined);
      assert.deepEqual(readdirSync(outside), [], 'nothing written outside the workspace');
      await notificationsInCenter(
        /^Save as Fixture: linked-out resolves outside the workspace folder: linked-out is a symbolic link that leads outside .*Nothing was saved/,
        1,
      );
      await vscode.commands.executeCommand('notifications.hideList');
    } finally {
      unlinkSync(join(folder, 'linked-out'));
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("Save as Fixture with a link planted at the fixture's name (dangling, or to an existing file): refused, the target untouched (#74)", async function () {
    this.timeout(30_000);
    const outside = mkdtempSync(join(tmpdir(), 'wfs-outside-'));
    const planted = join(outside, 'planted.json');
    const victim = join(outside, 'victim.json');
    writeFileSync(victim, 'precious');
    const dir = join(folder, 'webhooks', 'linked-name');
    mkdirSync(dir, { recursive: true });
    symlinkSync(planted, join(dir, 'dangling.webhook.json'));
    symlinkSync(victim, join(dir, 'existing.webhook.json'));
    // A link to a file inside the workspace is not written through either.
    writeFileSync(join(dir, 'real.txt'), 'kept');
    symlinkSync(join(dir, 'real.txt'), join(dir, 'inside.webhook.json'));
    try {
      await setSetting('fixtures.folder', 'webhooks/linked-name');
      await vscode.commands.executeCommand('wfs.startReceiver');
      const sent = (await vscode.commands.executeCommand('wfs.sendFixtureToReceiver', fixture)) as FixtureSendResult;
      assert.equal(sent.delivery?.verified, true);
      await vscode.commands.executeCommand('notifications.clearAll');
      // "dangling" looks new (nothing is asked); the others exist, and the Replace question is answered Replace.
      const restore = answerModals(api, () => 'Replace');
      try {
        for (const name of ['dangling', 'existing', 'inside'])
          assert.equal(await vscode.commands.executeCommand('wfs.saveAsFixture', sent.delivery!.id, name), undefined);
      } finally {
        restore();
      }
      assert.equal(existsSync(planted), false);
      assert.equal(readFileSync(victim, 'utf8'), 'precious');
      assert.equal(readFileSync(join(dir, 'real.txt'), 'utf8'), 'kept');
      for (const name of ['dangling', 'existing', 'inside'])
        assert.ok(lstatSync(join(dir, `${name}.webhook.json`)).isSymbolicLink());
      // Out of the workspace: refused by the inside check, in the same words for the dangling link and the other.
      const said = await notificationsInCenter(/^Save as Fixture: /, 3);
      assert.ok(
        said.every((t) => !t.includes(outside)),
        said.join('\n'),
      );
      const outWords = (name: string) =>
        said
          .find((t) => t.includes(`${name}.webhook.json is a symbolic link that leads outside`))
          ?.replaceAll(name, 'X');
      assert.ok(outWords('dangling'), said.join('\n'));
      assert.equal(outWords('dangling'), outWords('existing'));
      // Inside the workspace: the write itself refuses the link.
      assert.ok(
        said.some((t) =>
          t.includes(
            'inside.webhook.json is a symbolic link, and a file is never written through one: nothing was written',
          ),
        ),
        said.join('\n'),
      );
      await vscode.commands.executeCommand('notifications.hideList');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
