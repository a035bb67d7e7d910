// A link among the folders above an output path (found by the independent check of #74): a cloned repository ships
// `reports -> somewhere outside` and a README saying `--junit reports/junit.xml`. Each command-line writer refuses a
// path given inside the folder it runs in that leads out of it through a link; nothing is written outside. A path
// the user gives outside that folder is their own choice, and is written.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WfsProcess } from './helpers/wfsProcess';

const EVENT = JSON.stringify({
  webhookId: '3f2b7c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f',
  topic: 'workflow/completed',
  subTopic: 'status:workflow/completed',
  tenantId: 'tenant-ci',
  data: { workflowId: 'wf_1' },
});

const posixOnly = process.platform === 'win32' ? describe.skip : describe;

posixOnly('files wfs writes: never through a folder that links out of the folder it runs in', function () {
  this.timeout(60_000);
  let repo: string;
  let outside: string;
  beforeEach(() => {
    const root = mkdtempSync(join(tmpdir(), 'wfs-folder-links-'));
    repo = join(root, 'repo');
    outside = join(root, 'outside');
    mkdirSync(repo);
    mkdirSync(outside);
    writeFileSync(join(repo, 'orders.json'), EVENT);
    symlinkSync(outside, join(repo, 'reports'));
  });

  const run = async (args: string[]) => {
    const p = new WfsProcess(args, {}, { cwd: repo });
    await p.exited;
    return p;
  };

  for (const [what, args] of [
    ['fixture new --out', ['fixture', 'new', 'orders.json', '--out', 'reports/orders.webhook.json']],
    ['keys generate --out', ['keys', 'generate', '--out', 'reports/keys']],
    ['audit --junit', ['audit', '--target', 'http://127.0.0.1:9/x', '--sandbox-port', '0', '--junit', 'reports/j.xml']],
    [
      'audit --summary-md',
      ['audit', '--target', 'http://127.0.0.1:9/x', '--sandbox-port', '0', '--summary-md', 'reports/s.md'],
    ],
    ['probe-service --markdown', ['probe-service', '--markdown', 'reports/contract.md']],
  ] as const) {
    it(`wfs ${what} reports/… (reports -> outside): exit 2, the path named, nothing written outside`, async () => {
      const p = await run([...args]);
      assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
      assert.match(p.stdout + p.stderr, /a folder on the way is a symbolic link out of the folder you run in/);
      assert.doesNotMatch(p.stdout + p.stderr, new RegExp(outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.deepEqual(readdirSync(outside), []);
    });
  }

  it('a path the user gives outside the folder it runs in is written, links and all', async () => {
    const p = await run(['fixture', 'new', 'orders.json', '--out', join(repo, '..', 'outside', 'mine.webhook.json')]);
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    assert.ok(existsSync(join(outside, 'mine.webhook.json')));
    const inside = await run(['fixture', 'new', 'orders.json']);
    assert.equal(await inside.exitCode(), 0, inside.stdout + inside.stderr);
    assert.ok(existsSync(join(repo, 'orders.webhook.json')));
  });
});
