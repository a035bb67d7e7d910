// A fixture path from the model is data: only a *.webhook.json inside the folders the user works in is read, a
// symbolic link is followed before that check, and a fixture replays to the app as written.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
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

  describe('a path outside the workspace: one answer, whatever is there (#74, hole 11)', () => {
    /** wfs_replay_to_app's whole answer for `fixture`, as the model reads it. */
    async function answer(fixture: string): Promise<string> {
      const f = await assistantFixture();
      try {
        f.appUrl = 'http://127.0.0.1:9/hooks';
        f.ctx.readFixture = (path) => readFixtureIn(path, [workspace]);
        return JSON.stringify(await runTool('wfs_replay_to_app', { fixture }, f.ctx));
      } finally {
        await f.stop();
      }
    }

    it('by "..": an outside folder that exists (holding the file) and one that does not get byte-identical answers', async () => {
      const asked = '../elsewhere/orders.webhook.json';
      const missing = await answer(asked);
      mkdirSync(join(root, 'elsewhere'));
      writeFileSync(join(root, 'elsewhere', 'orders.webhook.json'), FIXTURE);
      const existing = await answer(asked);
      assert.equal(existing, missing);
      assert.match(existing, /is outside .*only fixtures inside the folders you work in are read/);
      assert.doesNotMatch(existing, /There is no file/);
    });

    it('an absolute path outside: the same answer for an existing folder and a missing one', async () => {
      const asked = join(root, 'abs', 'deep', 'x.webhook.json');
      const missing = await answer(asked);
      mkdirSync(join(root, 'abs', 'deep'), { recursive: true });
      assert.equal(await answer(asked), missing);
      writeFileSync(asked, FIXTURE);
      assert.equal(await answer(asked), missing);
    });

    it('through a link in the workspace: to an outside file that exists or not, the same answer', async () => {
      symlinkSync(join(root, 'target-folder'), join(workspace, 'linked'));
      const asked = 'linked/orders.webhook.json';
      const missing = await answer(asked);
      mkdirSync(join(root, 'target-folder'));
      const folderOnly = await answer(asked);
      writeFileSync(join(root, 'target-folder', 'orders.webhook.json'), FIXTURE);
      const existing = await answer(asked);
      assert.equal(folderOnly, missing);
      assert.equal(existing, missing);
      assert.match(existing, /is outside /);
    });

    it('property: for any outside path, whether its folders exist never changes the words', async () => {
      const part = fc.stringMatching(/^[a-z]{1,6}$/);
      await fc.assert(
        fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 3 }), fc.boolean(), async (parts, viaLink) => {
          const base = mkdtempSync(join(root, 'p-'));
          const asked = viaLink
            ? `via-${parts.join('-')}/${parts.join('/')}.webhook.json`
            : `../${base.slice(root.length + 1)}/${parts.join('/')}.webhook.json`;
          if (viaLink) symlinkSync(base, join(workspace, `via-${parts.join('-')}`));
          const say = () =>
            readFixtureIn(asked, [workspace]).then(
              () => 'read',
              (err: Error) => err.message,
            );
          const before = await say();
          mkdirSync(join(base, ...parts.slice(0, -1)), { recursive: true });
          writeFileSync(join(base, ...parts) + '.webhook.json', FIXTURE);
          const after = await say();
          if (viaLink) rmSync(join(workspace, `via-${parts.join('-')}`));
          return before === after && / is outside /.test(after);
        }),
        { numRuns: 100, seed: 74 },
      );
    });
  });
});
