// Every file `wfs` writes, with a symbolic link planted at its path (issue #74, hole 2): a cloned repository ships
// `orders.json` and a dangling `orders.webhook.json → elsewhere`, or a link to a file that exists. Each writer
// refuses with the path named, says it is a link and that nothing was written, never names the target, and leaves
// the target as it was (not created, not changed).
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

async function wfs(args: string[], env: Record<string, string> = {}): Promise<WfsProcess> {
  const p = new WfsProcess(args, env);
  await p.exited;
  return p;
}

const posixOnly = process.platform === 'win32' ? describe.skip : describe;

posixOnly('files wfs writes: never through a link planted at the path', function () {
  this.timeout(60_000);
  let repo: string;
  let outside: string;
  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'wfs-cloned-'));
    outside = mkdtempSync(join(tmpdir(), 'wfs-elsewhere-'));
  });
  afterEach(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  /** A dangling link at `path` to a file in `outside`; returns the target. */
  function dangling(path: string): string {
    const target = join(outside, 'planted.txt');
    symlinkSync(target, path);
    return target;
  }
  /** A link at `path` to an existing file in `outside`; returns the target. */
  function toExisting(path: string): string {
    const target = join(outside, 'victim.txt');
    writeFileSync(target, 'precious');
    symlinkSync(target, path);
    return target;
  }

  function refusedAsLink(p: WfsProcess, path: string, target: string): void {
    const line = p.lines.at(-1)!;
    assert.equal(line.event, 'error', p.stdout + p.stderr);
    const message = String(line.message);
    assert.ok(message.includes(`${path} is a symbolic link`), message);
    assert.match(message, /nothing was written/);
    assert.ok(!message.includes(target) && !message.includes(outside), `the target is named: ${message}`);
    assert.ok(lstatSync(path).isSymbolicLink(), 'the link is left as it was');
  }

  for (const force of [false, true]) {
    const flags = force ? ['--force'] : [];
    it(`wfs fixture new${force ? ' --force' : ''}: a dangling orders.webhook.json → elsewhere; the target is not created`, async () => {
      writeFileSync(join(repo, 'orders.json'), EVENT);
      const out = join(repo, 'orders.webhook.json');
      const target = dangling(out);
      const p = await wfs(['fixture', 'new', join(repo, 'orders.json'), ...flags]);
      assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
      refusedAsLink(p, out, target);
      assert.equal(existsSync(target), false);
    });

    it(`wfs fixture new${force ? ' --force' : ''}: a link to an existing file; that file is not changed`, async () => {
      writeFileSync(join(repo, 'orders.json'), EVENT);
      const out = join(repo, 'orders.webhook.json');
      const target = toExisting(out);
      const p = await wfs(['fixture', 'new', join(repo, 'orders.json'), ...flags]);
      assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
      refusedAsLink(p, out, target);
      assert.equal(readFileSync(target, 'utf8'), 'precious');
    });
  }

  it('wfs fixture new --out a link from standard input: refused the same way', async () => {
    const out = join(repo, 'piped.webhook.json');
    const target = dangling(out);
    const p = new WfsProcess(['fixture', 'new', '-', '--out', out], {}, { stdin: EVENT });
    await p.exited;
    assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
    refusedAsLink(p, out, target);
    assert.equal(existsSync(target), false);
  });

  it('wfs fixture new --force still replaces a regular file (written new, renamed over it)', async () => {
    writeFileSync(join(repo, 'orders.json'), EVENT);
    const out = join(repo, 'orders.webhook.json');
    writeFileSync(out, 'old');
    const p = await wfs(['fixture', 'new', join(repo, 'orders.json'), '--force']);
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).wfsFixture, 1);
  });

  for (const [flag, name] of [
    ['--junit', 'junit.xml'],
    ['--summary-md', 'summary.md'],
  ] as const)
    for (const [kind, plant] of [
      ['a dangling link', dangling],
      ['a link to an existing file', toExisting],
    ] as const)
      it(`wfs audit ${flag} at ${kind}: refused before anything is sent, exit 2, the target untouched`, async () => {
        const path = join(repo, name);
        const target = plant(path);
        // Nothing listens at port 9: the audit never gets that far.
        const p = await wfs(['audit', '--target', 'http://127.0.0.1:9/webhooks', flag, path]);
        assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
        refusedAsLink(p, path, target);
        assert.ok(String(p.lines.at(-1)!.message).startsWith(`${flag}: `));
        if (kind === 'a dangling link') assert.equal(existsSync(target), false);
        else assert.equal(readFileSync(target, 'utf8'), 'precious');
      });

  for (const [flag, name] of [
    ['--markdown', 'probe.md'],
    ['--profile-out', 'profile.json'],
  ] as const)
    for (const [kind, plant] of [
      ['a dangling link', dangling],
      ['a link to an existing file', toExisting],
    ] as const)
      it(`wfs probe-service ${flag} at ${kind}: refused before the probe, exit 2, the target untouched`, async () => {
        const path = join(repo, name);
        const target = plant(path);
        const p = await wfs(['probe-service', flag, path], {
          WFS_BASE_URL: 'http://127.0.0.1:9',
          WFS_USERNAME: 'u',
          WFS_PASSWORD: 'p',
        });
        assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
        refusedAsLink(p, path, target);
        if (kind === 'a dangling link') assert.equal(existsSync(target), false);
        else assert.equal(readFileSync(target, 'utf8'), 'precious');
      });

  for (const [kind, plant] of [
    ['a dangling link', dangling],
    ['a link to an existing file', toExisting],
  ] as const)
    it(`wfs listen --log at ${kind}: the history file is refused, exit 2, the target untouched`, async () => {
      const keys = join(repo, 'keys');
      const g = await wfs(['keys', 'generate', '--out', keys]);
      assert.equal(await g.exitCode(), 0, g.stdout + g.stderr);
      const path = join(repo, 'deliveries.jsonl');
      const target = plant(path);
      const p = await wfs(['listen', '--trust-keys', keys, '--port', '0', '--log', path]);
      assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
      refusedAsLink(p, path, target);
      if (kind === 'a dangling link') assert.equal(existsSync(target), false);
      else assert.equal(readFileSync(target, 'utf8'), 'precious');
    });

  it('a folder at an output path is refused with the same care', async () => {
    const path = join(repo, 'junit.xml');
    mkdirSync(path);
    const p = await wfs(['audit', '--target', 'http://127.0.0.1:9/webhooks', '--junit', path]);
    assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
    assert.equal(
      p.lines.at(-1)!.message,
      `--junit: ${path} is a folder: nothing was written. Give the path of a file.`,
    );
  });
});
