// One writer per history file: two VS Code windows share the global storage, so the second to load the file keeps
// its history in memory instead of appending to (and compacting) the first one's file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import {
  HistoryInUse,
  HistoryLock,
  historyHolder,
  processState,
  stateFromStat,
} from '../../../src/core/webhooks/historyLock';
import { procState, spawnUnreaped } from '../helpers/unreapedChild';

function rec(id: string): [DeliveryRecord, Buffer] {
  const body = Buffer.from(`{"id":"${id}"}`);
  return [
    {
      id,
      receivedAt: '2026-01-15T12:00:00.000Z',
      method: 'POST',
      path: '/webhooks',
      headers: {},
      body: { size: body.length, sha256: 'ab'.repeat(32), kept: body.length, utf8: true },
      checks: [],
      verified: true,
      status: 200,
      durationMs: 1,
      duplicate: false,
    },
    body,
  ];
}

const fileIn = () => join(mkdtempSync(join(tmpdir(), 'wfs-lock-')), 'deliveries.jsonl');
const holderOf = (file: string) =>
  JSON.parse(readFileSync(HistoryLock.lockPath(file), 'utf8')) as { pid: number; host: string };
/** The pid of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe('the history file has one writer', () => {
  it("a second history on the same file keeps its records in memory and leaves the first one's file alone", async () => {
    const file = fileIn();
    const first = new DeliveryHistory({ file });
    await first.load();
    await first.add(...rec('a1'));
    assert.deepEqual([holderOf(file).pid, holderOf(file).host], [process.pid, hostname()]);
    const bytes = statSync(file).size;

    const second = new DeliveryHistory({ file });
    const err = await second.load().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof HistoryInUse, String(err));
    assert.equal(err.holder?.pid, process.pid);
    assert.match(
      err.message,
      new RegExp(
        `^in use by another process \\(pid ${process.pid}\\), which keeps this history: stop it, or give another file`,
      ),
    );
    assert.equal(second.file, undefined, 'in memory only from now on');
    assert.equal(second.fileInUse, err);
    assert.equal(second.add(...rec('b1')), undefined, 'nothing to wait for: memory');
    assert.deepEqual(
      second.all().map((r) => r.id),
      ['b1'],
    );
    await second.clear();
    await second.close();
    assert.equal(statSync(file).size, bytes, "the first one's file is untouched, even by Clear");
    assert.ok(existsSync(HistoryLock.lockPath(file)), 'and its lock is still held');

    await first.close();
    assert.equal(existsSync(HistoryLock.lockPath(file)), false, 'closing gives the lock up');
    const third = new DeliveryHistory({ file });
    assert.deepEqual(await third.load(), { loaded: 1, skipped: 0 });
    assert.deepEqual(
      third.all().map((r) => r.id),
      ['a1'],
    );
    await third.close();
  });

  it('a lock left by a process that is gone (a crash, a kill -9) is taken over', async () => {
    const file = fileIn();
    writeFileSync(HistoryLock.lockPath(file), JSON.stringify({ pid: deadPid(), host: hostname(), token: 'old' }));
    const log = new DeliveryHistory({ file });
    await log.load();
    assert.equal(holderOf(file).pid, process.pid);
    await log.close();
  });

  it('a lock held by another live process, or by a process on another machine, is respected', async () => {
    for (const holder of [
      { pid: process.ppid, host: hostname() },
      { pid: deadPid(), host: `not-${hostname()}` },
    ]) {
      const file = fileIn();
      writeFileSync(HistoryLock.lockPath(file), JSON.stringify({ ...holder, token: 'theirs' }));
      const err = await HistoryLock.acquire(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof HistoryInUse, JSON.stringify(holder));
      assert.deepEqual([err.holder?.pid, err.holder?.host], [holder.pid, holder.host]);
      if (holder.host !== hostname())
        assert.match(err.message, new RegExp(`^in use by another process \\(pid ${holder.pid}\\) on not-`));
      assert.match(err.message, /if no such process runs, delete .*deliveries\.jsonl\.lock\)$/);
    }
  });

  it('the holder says what it is, and a name written by hand is shown only when it is one short line', async () => {
    const file = fileIn();
    const first = new DeliveryHistory({ file, holderName: 'wfs listen' });
    await first.load();
    const err = await new DeliveryHistory({ file, holderName: 'a VS Code window' }).load().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof HistoryInUse);
    assert.equal(historyHolder(err), `wfs listen (pid ${process.pid})`);
    assert.match(err.message, new RegExp(`^in use by wfs listen \\(pid ${process.pid}\\), which keeps this history`));
    await first.close();

    for (const name of ['x'.repeat(81), 'wfs\nlisten', '', 42]) {
      const other = fileIn();
      writeFileSync(
        HistoryLock.lockPath(other),
        JSON.stringify({ pid: process.ppid, host: hostname(), name, token: 'theirs' }),
      );
      const refused = await HistoryLock.acquire(other).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(refused instanceof HistoryInUse);
      assert.equal(historyHolder(refused), `another process (pid ${process.ppid})`, JSON.stringify(name));
    }
  });

  it('an empty lock is being taken right now (held); one left empty for long by a crash is taken over', async () => {
    const file = fileIn();
    writeFileSync(HistoryLock.lockPath(file), '');
    assert.ok(
      (await HistoryLock.acquire(file).then(
        () => undefined,
        (e: unknown) => e,
      )) instanceof HistoryInUse,
    );
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(HistoryLock.lockPath(file), minuteAgo, minuteAgo);
    const lock = await HistoryLock.acquire(file);
    assert.equal(holderOf(file).pid, process.pid);
    await lock.release();
  });

  it('release gives up only its own lock, never one another process has taken over since', async () => {
    const file = fileIn();
    const lock = await HistoryLock.acquire(file);
    writeFileSync(HistoryLock.lockPath(file), JSON.stringify({ pid: process.ppid, host: hostname(), token: 'theirs' }));
    await lock.release();
    assert.equal(holderOf(file).pid, process.ppid);
  });
});

describe('a lock whose holder is a zombie', () => {
  it('reads the state from /proc/PID/stat, after a command name that may hold spaces and parentheses', () => {
    assert.equal(stateFromStat('4242 (wfs) Z 1 4242 4242 0 -1'), 'Z');
    assert.equal(stateFromStat('4242 (node) S 1 4242'), 'S');
    assert.equal(stateFromStat('4242 (a) Z (b) R 1 4242'), 'R', 'the name is "a) Z (b": its state is R');
    assert.equal(stateFromStat(''), undefined);
    assert.equal(stateFromStat('4242 (x'), undefined);
  });

  it('a holder killed but never reaped (a zombie) holds nothing: its lock is taken over', async function () {
    if (process.platform !== 'linux') this.skip();
    const child = await spawnUnreaped(['sleep', '600']);
    try {
      await child.killToZombie();
      assert.equal(procState(child.pid), 'Z', 'a real zombie');
      assert.equal(await processState(child.pid), 'Z');
      const file = fileIn();
      writeFileSync(
        HistoryLock.lockPath(file),
        JSON.stringify({ pid: child.pid, host: hostname(), name: 'wfs listen', token: 'zombie' }),
      );
      const lock = await HistoryLock.acquire(file);
      assert.equal(holderOf(file).pid, process.pid);
      await lock.release();
    } finally {
      child.stop();
    }
  });
});
