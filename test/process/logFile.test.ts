// `wfs listen --log FILE` and the file it is given, as a process: a file's mode is its owner's (never changed; a
// read-only one refused, also as root, which permission bits do not stop), a start that cannot open the file leaves
// no lock behind, and a lock whose holder was killed but never reaped (a zombie) is taken over.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { serializeLine } from '../../src/core/webhooks/historyLine';
import { procState, spawnUnreaped } from '../unit/helpers/unreapedChild';
import { CLI, WfsProcess, type Line } from './helpers/wfsProcess';

// Trust given by flags: nothing is fetched until a delivery comes, so no sandbox is needed.
const TRUST = [
  '--issuer',
  'https://issuer.test',
  '--audience',
  'aud',
  '--jwks-url',
  'http://127.0.0.1:9/jwks.json',
  '--no-tunnel',
];
const BODY = Buffer.from('{"id":"r1"}');
const RECORD =
  serializeLine(
    {
      id: 'r1',
      receivedAt: '2026-01-15T12:00:00.000Z',
      method: 'POST',
      path: '/webhooks',
      headers: {},
      body: { size: BODY.length, sha256: 'ab'.repeat(32), kept: BODY.length, utf8: true },
      checks: [],
      verified: true,
      status: 200,
      durationMs: 1,
      duplicate: false,
    },
    BODY,
  ).toString() + '\n';
const fileIn = () => join(mkdtempSync(join(tmpdir(), 'wfs-logfile-')), 'deliveries.jsonl');
const modeOf = (f: string) => statSync(f).mode & 0o7777;
/** The first line that says how the start went: an error, or the history loaded. */
const outcome = (p: WfsProcess) =>
  p.line((l) => l.event === 'error' || l.event === 'history' || l.event === 'ready', 'an error or the history line');

describe('wfs listen --log and its file, as a process', function () {
  this.timeout(60_000);

  it('a read-only file (mode 0444): exit 2 saying so, its mode and bytes as they were, no lock (as root too)', async () => {
    const file = fileIn();
    writeFileSync(file, RECORD);
    chmodSync(file, 0o444);
    const p = new WfsProcess(['listen', ...TRUST, '--log', file]);
    const first = await outcome(p);
    assert.equal(first.event, 'error', `it started on a read-only file: ${JSON.stringify(first)}`);
    assert.equal(
      first.message,
      `--log ${file}: is read-only (mode 0444) and is left as it is: make it writable (chmod u+w ${file}), or give another file`,
    );
    assert.equal(await p.exitCode(), 2);
    assert.equal(modeOf(file), 0o444, 'its mode is unchanged');
    assert.equal(readFileSync(file, 'utf8'), RECORD, 'its bytes too');
    assert.equal(existsSync(`${file}.lock`), false);
  });

  it('a file of another mode (0644) keeps it: a warning says what it means, and the mode is as it was after the run', async () => {
    const file = fileIn();
    writeFileSync(file, RECORD);
    chmodSync(file, 0o644);
    const p = new WfsProcess(['listen', ...TRUST, '--log', file]);
    assert.equal((await p.event('history')).loaded, 1);
    await p.event('ready');
    assert.deepEqual(
      p.events('warning').map((w) => w.message),
      [
        `--log ${file}: is readable by other users (mode 0644), and deliveries may carry customer data: it is left as it is; run chmod 600 ${file} to keep it to yourself`,
      ],
    );
    await p.stopCleanly();
    assert.equal(modeOf(file), 0o644);
    // A file it makes is its owner's alone.
    const made = fileIn();
    const q = new WfsProcess(['listen', ...TRUST, '--log', made]);
    await q.event('ready');
    await q.stopCleanly();
    assert.equal(modeOf(made), 0o600);
    assert.equal(q.events('warning').length, 0);
  });

  it('a file that cannot be opened (immutable as root, unreadable otherwise): exit 2 naming the error, no lock left, and the next start once it can takes the file', async function () {
    const file = fileIn();
    writeFileSync(file, RECORD);
    const root = process.getuid?.() === 0;
    // Root is stopped by neither mode bits nor ownership; an immutable file (chattr +i) refuses even root.
    const [block, unblock] = root
      ? [
          () => execFileSync('chattr', ['+i', file], { stdio: 'pipe' }),
          () => execFileSync('chattr', ['-i', file], { stdio: 'pipe' }),
        ]
      : [() => chmodSync(file, 0o200), () => chmodSync(file, 0o600)];
    try {
      block();
    } catch (err) {
      console.log(
        `    (skipped: chattr +i is not available here: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`,
      );
      this.skip();
    }
    try {
      const p = new WfsProcess(['listen', ...TRUST, '--log', file]);
      const first = await outcome(p);
      assert.equal(first.event, 'error', JSON.stringify(first));
      assert.match(
        first.message,
        new RegExp(`^--log ${file}: (EPERM: operation not permitted|EACCES: permission denied), open '${file}'$`),
      );
      assert.equal(await p.exitCode(), 2);
      assert.equal(existsSync(`${file}.lock`), false, 'no lock left behind');
    } finally {
      unblock();
    }
    const again = new WfsProcess(['listen', ...TRUST, '--log', file]);
    assert.equal((await outcome(again)).event, 'history', again.stdout);
    await again.event('ready');
    await again.stopCleanly();
  });

  it('a holder killed but never reaped (a zombie, /proc/PID/stat state Z) holds nothing: the next wfs listen takes the file over', async function () {
    if (process.platform !== 'linux') this.skip();
    const file = fileIn();
    const holder = await spawnUnreaped([process.execPath, CLI, 'listen', ...TRUST, '--log', file], {
      PATH: process.env.PATH ?? '',
    });
    try {
      const lines: Line[] = [];
      const ready = new Promise<void>((resolve, reject) => {
        createInterface({ input: holder.output }).on('line', (text) => {
          lines.push(JSON.parse(text) as Line);
          if (lines.at(-1)!.event === 'ready') resolve();
        });
        holder.output.once('end', () =>
          reject(new Error(`the first wfs listen ended before its ready line: ${JSON.stringify(lines)}`)),
        );
      });
      await ready;
      assert.equal(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid, holder.pid, 'the first one holds the file');
      await holder.killToZombie();
      assert.equal(procState(holder.pid), 'Z', 'it really is a zombie');
      assert.equal(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid, holder.pid, 'and its lock is still there');

      const next = new WfsProcess(['listen', ...TRUST, '--log', file]);
      const first = await outcome(next);
      assert.equal(first.event, 'history', `refused: ${JSON.stringify(first)}`);
      await next.event('ready');
      assert.equal(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid, next.child.pid, 'taken over');
      await next.stopCleanly();
    } finally {
      holder.stop();
    }
  });
});
