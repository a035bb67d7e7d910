// The history file, its compaction's new file and its lock are written through the one helper (issue #74): a link
// planted at any of the three, dangling or to a file that exists, is never written through.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { leftoverOf } from '../../../src/core/webhooks/historyFile';
import { HistoryLock } from '../../../src/core/webhooks/historyLock';

function rec(i: number): [DeliveryRecord, Buffer] {
  const bytes = Buffer.from(`{"n":${i}}`);
  const record: DeliveryRecord = {
    id: `r${i}`,
    receivedAt: '2026-01-15T12:00:00.000Z',
    method: 'POST',
    path: '/webhooks',
    headers: {},
    body: { size: bytes.length, sha256: 'ab'.repeat(32), kept: bytes.length, utf8: true },
    checks: [],
    verified: true,
    status: 200,
    durationMs: 1,
    duplicate: false,
  };
  return [record, bytes];
}

const posixOnly = process.platform === 'win32' ? describe.skip : describe;

posixOnly('the history file: never written through a planted link', () => {
  let dir: string;
  let outside: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wfs-history-links-'));
    outside = mkdtempSync(join(tmpdir(), 'wfs-outside-'));
    file = join(dir, 'deliveries.jsonl');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const plants: [string, (path: string) => { target: string; check: () => void }][] = [
    [
      'a dangling link',
      (path) => {
        const target = join(outside, 'planted.jsonl');
        symlinkSync(target, path);
        return { target, check: () => assert.equal(existsSync(target), false) };
      },
    ],
    [
      'a link to an existing file',
      (path) => {
        const target = join(outside, 'victim.jsonl');
        writeFileSync(target, 'precious\n');
        symlinkSync(target, path);
        return { target, check: () => assert.equal(readFileSync(target, 'utf8'), 'precious\n') };
      },
    ],
  ];

  for (const [kind, plant] of plants) {
    it(`${kind} at the history file: load() is refused naming the file; the target untouched`, async () => {
      const { target, check } = plant(file);
      const log = new DeliveryHistory({ file });
      await assert.rejects(log.load(), (err: Error) => {
        assert.ok(err.message.startsWith(`${file} is a symbolic link`), err.message);
        assert.ok(!err.message.includes(target));
        return true;
      });
      await log.close().catch(() => undefined);
      check();
      assert.ok(lstatSync(file).isSymbolicLink());
    });

    it(`${kind} at the compaction's new file: removed, never followed; the history is rewritten in place`, async () => {
      const log = new DeliveryHistory({ file });
      await log.load();
      await log.add(...rec(1));
      const { check } = plant(leftoverOf(file));
      await log.clear();
      check();
      assert.equal(existsSync(leftoverOf(file)), false);
      assert.ok(lstatSync(file).isFile());
      await log.add(...rec(2));
      await log.close();
      assert.match(readFileSync(file, 'utf8'), /"r2"/);
    });

    it(`${kind} at the lock file: refused naming the lock, the target untouched`, async () => {
      const lock = HistoryLock.lockPath(file);
      const { target, check } = plant(lock);
      await assert.rejects(HistoryLock.acquire(file, 'test'), (err: Error) => {
        assert.ok(err.message.startsWith(`${lock} is a symbolic link`), err.message);
        assert.ok(!err.message.includes(target));
        return true;
      });
      check();
    });
  }
});
