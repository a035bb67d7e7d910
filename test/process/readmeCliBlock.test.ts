// README's CLI block, run verbatim by bash in an empty folder with `wfs` on PATH (#69): the sandbox, a listener that
// registers itself, a billed start whose workflow events arrive at the listener verified, and the audit of that
// listener from the environment alone, 30 of 30.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './helpers/wfsProcess';

/** The first ```sh block under "## CLI" in README.md. */
function readmeCliBlock(): string {
  const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## CLI\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README.md has no ```sh block under '## CLI'");
  return block[1]!;
}

describe("README's CLI block, run verbatim", function () {
  this.timeout(120_000);
  /** The block's process group: stopped after the test, whatever the test's end (a timeout included), so nothing it
   * started keeps its ports. */
  let group: number | undefined;
  afterEach(() => {
    if (group === undefined) return;
    try {
      process.kill(-group, 'SIGTERM');
    } catch {
      // The group has already ended.
    }
    group = undefined;
  });

  it('shows the workflow events arriving at wfs listen, verified, and the audit of it is 30 of 30', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'wfs-readme-'));
    const bin = join(folder, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'wfs'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, 'wfs'), 0o755);
    const work = join(folder, 'empty');
    mkdirSync(work);
    // Its own process group, so whatever the block left running is stopped with it.
    const child = spawn('bash', ['-e', '-c', readmeCliBlock()], {
      cwd: work,
      detached: true,
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: folder, NO_COLOR: '1' },
    });
    group = child.pid;
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.equal(code, 0, out);
    const events = out
      .split('\n')
      .filter((l) => l.startsWith('{"event":"delivery"'))
      .map((l) => JSON.parse(l) as { topic: string; verified: boolean; status: number });
    assert.ok(
      events.some((e) => e.topic === 'workflow/completed'),
      out,
    );
    for (const e of events)
      assert.deepEqual([e.topic.startsWith('workflow/'), e.verified, e.status], [true, true, 200]);
    assert.match(out, /"event":"summary".*"passed":30,"failed":0,"total":30/, out);
  });
});
