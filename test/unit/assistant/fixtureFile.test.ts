// A fixture path from the model is data: only a *.webhook.json inside the folders the user works in is read, a
// symbolic link is followed before that check, and a fixture replays to the app as written.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFixtureIn } from '../../../src/core/assistant/fixtureFile';
import { runTool } from '../../../src/core/assistant/toolRegistry';
import { RecordingServer } from '../helpers/recordingServer';
import { assistantFixture } from './assistantFixture';

const FIXTURE = JSON.stringify({
  wfsFixture: 1,
  topic: 'workflow/completed',
  subTopic: 'status:workflow/completed',
  tenant: 't',
  body: { webhookId: '{{webhookId}}', topic: 'workflow/completed', data: { runId: 'wfrun_fixture' } },
});

describe('assistant: fixtures a tool may read', () => {
  let root: string;
  let workspace: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'wfs-fixtures-'));
    workspace = join(root, 'workspace');
    mkdirSync(join(workspace, 'webhooks'), { recursive: true });
    writeFileSync(join(workspace, 'webhooks', 'done.webhook.json'), FIXTURE);
    writeFileSync(join(root, 'outside.webhook.json'), FIXTURE);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a fixture inside the workspace is read, by a relative or an absolute path', async () => {
    assert.equal((await readFixtureIn('webhooks/done.webhook.json', [workspace])).text, FIXTURE);
    assert.equal((await readFixtureIn(join(workspace, 'webhooks/done.webhook.json'), [workspace])).text, FIXTURE);
  });

  it('outside the workspace, through .. or a symbolic link, or not a fixture: refused, saying why', async () => {
    await assert.rejects(readFixtureIn('../outside.webhook.json', [workspace]), /outside/);
    symlinkSync(join(root, 'outside.webhook.json'), join(workspace, 'link.webhook.json'));
    await assert.rejects(readFixtureIn('link.webhook.json', [workspace]), /outside/);
    writeFileSync(join(workspace, 'secret.txt'), 'x');
    await assert.rejects(readFixtureIn('secret.txt', [workspace]), /not a fixture/);
    await assert.rejects(readFixtureIn('missing.webhook.json', [workspace]), /There is no file/);
    await assert.rejects(readFixtureIn('webhooks/done.webhook.json', []), /No folder is open/);
  });

  it('wfs_replay_to_app sends a fixture to the app, signed, with a fresh webhookId', async () => {
    const f = await assistantFixture();
    const app = new RecordingServer();
    try {
      f.appUrl = `${await app.start()}/hooks`;
      f.ctx.readFixture = (path) => readFixtureIn(path, [workspace]);
      const out = await runTool('wfs_replay_to_app', { fixture: 'webhooks/done.webhook.json' }, f.ctx);
      assert.ok(out.ok, JSON.stringify(out));
      const body = JSON.parse(app.requests[0]!.body.toString()) as { webhookId: string; data: { runId: string } };
      assert.equal(body.data.runId, 'wfrun_fixture');
      assert.match(body.webhookId, /^[0-9a-f-]{36}$/);
      assert.match(String(app.requests[0]!.headers.authorization), /^Bearer eyJ/);
    } finally {
      await app.stop();
      await f.stop();
    }
  });
});
