// The delivery history: budgets in bytes (memory and disk), bodies on disk read on demand, refused requests kept
// small, the file read line by line, torn lines skipped and reported, compaction by rename, clear erasing the file.
import { english, type Said } from '../../../src/core/presentation/said';
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'node:fs/promises';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { serializeLine } from '../../../src/core/webhooks/historyLine';
import { fileModeWarning, ReadOnlyHistoryFile, remainderAfter } from '../../../src/core/webhooks/historyFile';

const MiB = 1024 * 1024;

function rec(i: number, size = 10, over: Partial<DeliveryRecord> = {}): [DeliveryRecord, Buffer] {
  const bytes = Buffer.alloc(size, 0x61 + (i % 26));
  const record: DeliveryRecord = {
    id: `r${i}`,
    receivedAt: '2026-01-15T12:00:00.000Z',
    method: 'POST',
    path: '/webhooks',
    headers: { 'x-n': String(i) },
    body: { size, sha256: 'ab'.repeat(32), kept: size, utf8: true },
    checks: [],
    verified: true,
    status: 200,
    durationMs: 1,
    duplicate: false,
    ...over,
  };
  return [record, bytes];
}

const fileIn = () => join(mkdtempSync(join(tmpdir(), 'wfs-history-')), 'deliveries.jsonl');

/** The prototype of node's FileHandle, whose methods a test replaces to fail as a full disk does. */
async function fileHandlePrototype(
  file: string,
): Promise<Record<'writev' | 'sync', (...a: unknown[]) => Promise<unknown>>> {
  const probe = await open(file, 'r');
  const proto = Object.getPrototypeOf(probe);
  await probe.close();
  return proto;
}

/** The memory a fresh history counts for the file's records. */
async function loadedAlone(file: string): Promise<number> {
  const log = new DeliveryHistory({ file });
  await log.load();
  const bytes = log.bytesInMemory;
  await log.close();
  return bytes;
}

describe('DeliveryHistory', () => {
  it("counts a record's checks by their text, the same for every record sharing one frozen list", () => {
    const log = new DeliveryHistory();
    const added = (checks: DeliveryRecord['checks'], i: number) => {
      const before = log.bytesInMemory;
      log.add(...rec(i, 10, { checks }));
      return log.bytesInMemory - before;
    };
    const check = (step: number, detail: string) => ({ step, name: `step ${step}`, ok: true, detail });
    const shared = Object.freeze([check(1, 'a'.repeat(100)), check(2, 'b'.repeat(300))]);
    const none = added([], 0);
    const first = added(shared, 1);
    // Each check's name and detail, counted twice (the estimate doubles a record's text) with 24 bytes each.
    assert.equal(first - none, 2 * (6 + 100 + 24 + 6 + 300 + 24));
    assert.equal(added(shared, 2), first, 'the same list again');
    // Another list, even of the same length, is counted by its own text.
    assert.equal(added(Object.freeze([check(1, 'c'), check(2, 'd')]), 3) - none, 2 * (6 + 1 + 24 + 6 + 1 + 24));
    assert.equal(added(shared, 4), first, 'the first list again');
    assert.equal(added([check(1, 'e'.repeat(50))], 5) - none, 2 * (6 + 50 + 24), 'a list not frozen');
  });

  it('is bounded in bytes in memory: the oldest go first, and it is queryable', async () => {
    const log = new DeliveryHistory({ memoryBudgetBytes: 200 * 1024 });
    // In memory only there is no write to wait for: nothing is returned, so the receiver answers at once.
    for (let i = 0; i < 50; i++)
      assert.equal(log.add(...rec(i, 10 * 1024, { topic: i % 2 ? 'a/odd' : 'a/even', runId: `run${i}` })), undefined);
    assert.ok(log.bytesInMemory <= 200 * 1024, `${log.bytesInMemory} bytes`);
    const ids = log.all().map((r) => r.id);
    assert.ok(ids.length >= 15 && ids.length < 20, `${ids.length} kept`);
    assert.equal(ids.at(-1), 'r49');
    assert.deepEqual(
      ids,
      ids.slice().sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
      'oldest first, newest kept',
    );
    assert.deepEqual(
      log.query({ runId: 'run49' }).map((r) => r.id),
      ['r49'],
    );
    assert.equal(log.query({ topic: 'a/odd' }).length, ids.filter((id) => Number(id.slice(1)) % 2).length);
    assert.deepEqual(await log.body('r49'), Buffer.alloc(10 * 1024, 0x61 + (49 % 26)));
    assert.equal(await log.body('r0'), undefined, 'gone with its record');
  });

  it('refused requests hold at most a quarter of the memory budget: a flood cannot push out verified deliveries', async () => {
    const log = new DeliveryHistory({ memoryBudgetBytes: 400 * 1024 });
    for (let i = 0; i < 10; i++) await log.add(...rec(i, 10 * 1024));
    for (let i = 100; i < 1100; i++) await log.add(...rec(i, 4096, { verified: false, status: 403 }));
    const kept = log.all();
    assert.equal(kept.filter((r) => r.verified).length, 10, 'every verified delivery is still there');
    const refusedBytes = kept.filter((r) => !r.verified).length * 4096;
    assert.ok(refusedBytes <= 100 * 1024, `${refusedBytes} bytes of refused bodies`);
    assert.ok(log.bytesInMemory <= 400 * 1024);
  });

  it('a long mixed stream keeps the newest within budget, and its bookkeeping holds nothing evicted', async () => {
    const log = new DeliveryHistory({ memoryBudgetBytes: 64 * 1024 });
    for (let i = 0; i < 5000; i++) await log.add(...rec(i, 512, i % 10 ? {} : { verified: false, status: 403 }));
    const kept = log.all();
    assert.ok(log.bytesInMemory <= 64 * 1024, `${log.bytesInMemory} bytes`);
    assert.equal(kept.at(-1)!.id, 'r4999');
    const n = kept.map((r) => Number(r.id.slice(1)));
    assert.deepEqual(
      n,
      n.slice().sort((a, b) => a - b),
      'oldest first',
    );
    assert.ok(n[0] > 4800, `only recent records remain (oldest r${n[0]})`);
    // Evicted records must not stay reachable through the eviction queues (a leak of every record ever seen).
    const internals = log as unknown as { entries: unknown[]; refused: unknown[] };
    assert.ok(
      internals.entries.length <= 2 * kept.length + 65,
      `${internals.entries.length} entries held for ${kept.length} kept`,
    );
    assert.ok(
      internals.refused.length <= 2 * kept.length + 65,
      `${internals.refused.length} refused entries held for ${kept.length} kept`,
    );
  });

  it('finds records by id whenever the lookup is first made: before, during and after evictions, and after clear', async () => {
    const log = new DeliveryHistory({ memoryBudgetBytes: 64 * 1024 });
    for (let i = 0; i < 20; i++) log.add(...rec(i, 512));
    assert.equal(log.size, 20);
    assert.equal(log.find('r7')?.id, 'r7', 'the first lookup sees every record added before it');
    for (let i = 20; i < 2000; i++) log.add(...rec(i, 512, i % 10 ? {} : { verified: false, status: 403 }));
    const kept = log.all().map((r) => r.id);
    assert.equal(log.size, kept.length);
    assert.equal(log.find('r7'), undefined, 'an evicted record is no longer found');
    assert.equal(await log.body('r7'), undefined);
    for (const id of kept) assert.equal(log.find(id)?.id, id, `${id} is found`);
    assert.deepEqual(await log.body('r1999'), Buffer.alloc(512, 0x61 + (1999 % 26)));
    await log.clear();
    assert.equal(log.size, 0);
    assert.equal(log.find('r1999'), undefined, 'nothing is found after clear');
    log.add(...rec(5000, 16));
    assert.equal(log.find('r5000')?.id, 'r5000', 'records added after clear are found');
    assert.equal(log.size, 1);
  });

  it('a file that repeats an id (edited by hand) loads the later line only', async () => {
    const file = fileIn();
    writeFileSync(
      file,
      Buffer.concat([rec(1), rec(2), rec(1, 10, { status: 503 })].map(([r, bytes]) => serializeLine(r, bytes))),
    );
    const b = new DeliveryHistory({ file });
    assert.deepEqual(await b.load(), { loaded: 2, skipped: 0 });
    assert.deepEqual(
      b.all().map((r) => [r.id, r.status]),
      [
        ['r2', 200],
        ['r1', 503],
      ],
    );
    assert.equal(b.find('r1')?.status, 503);
    await b.close();
  });

  it('persists as JSON lines and reloads line by line; large bodies stay on disk and are read on demand', async () => {
    const file = fileIn();
    const a = new DeliveryHistory({ file, inlineBodyBytes: 1024 });
    for (let i = 0; i < 5; i++) await a.add(...rec(i, i === 3 ? 300 * 1024 : 100));
    assert.ok(a.bytesInMemory < 20 * 1024, `the 300 KiB body is not held in memory (${a.bytesInMemory} bytes)`);
    assert.deepEqual(await a.body('r3'), Buffer.alloc(300 * 1024, 0x61 + 3), 'read back from the file');
    await a.close();
    const b = new DeliveryHistory({ file, inlineBodyBytes: 1024 });
    assert.deepEqual(await b.load(), { loaded: 5, skipped: 0 });
    assert.deepEqual(
      b.all().map((r) => r.id),
      ['r0', 'r1', 'r2', 'r3', 'r4'],
    );
    assert.ok(b.bytesInMemory < 20 * 1024);
    assert.deepEqual(await b.body('r3'), Buffer.alloc(300 * 1024, 0x61 + 3));
    assert.deepEqual(await b.body('r4'), Buffer.alloc(100, 0x61 + 4));
    await b.close();
  });

  it('holds an ASCII body given as its text: the same bytes from memory, from the file, and after a reload', async () => {
    const file = fileIn();
    const text = '{"webhookId":"w1","note":"plain ASCII"}';
    const [record] = rec(1, text.length);
    const a = new DeliveryHistory({ file, inlineBodyBytes: 100 });
    await a.add(record, Buffer.from(text), text);
    const [other, bytes] = rec(2, 64);
    // A text of another length is not taken for the bytes.
    await a.add(other, bytes, 'x');
    // Nor is one of bytes that are not all ASCII: a stray byte decodes to one U+FFFD.
    const [stray] = rec(4, 1);
    await a.add(stray, Buffer.from([0xff]), '\uFFFD');
    assert.deepEqual(await a.body('r4'), Buffer.from([0xff]));
    // Larger than what stays in memory: written from its bytes, and read back from the file.
    const [large, largeBytes] = rec(3, 200);
    await a.add(large, largeBytes, largeBytes.toString('latin1'));
    assert.deepEqual(await a.body('r2'), bytes);
    assert.deepEqual(await a.body('r3'), largeBytes);
    assert.deepEqual(await a.body('r1'), Buffer.from(text));
    assert.ok(Buffer.isBuffer(await a.body('r1')));
    await a.close();
    const b = new DeliveryHistory({ file });
    assert.deepEqual(await b.load(), { loaded: 4, skipped: 0 });
    assert.deepEqual(await b.body('r1'), Buffer.from(text));
    assert.deepEqual(await b.body('r2'), bytes);
    assert.deepEqual(await b.body('r3'), largeBytes);
    await b.close();
    const asText = new DeliveryHistory();
    asText.add(record, Buffer.from(text), text);
    assert.deepEqual(await asText.body('r1'), Buffer.from(text));
    const asBytes = new DeliveryHistory();
    asBytes.add(record, Buffer.from(text));
    assert.equal(asText.bytesInMemory, asBytes.bytesInMemory, 'its bytes are counted alike');
  });

  it('a torn last line and garbage are skipped, counted and reported once; the next record starts on a line of its own', async () => {
    const file = fileIn();
    const a = new DeliveryHistory({ file });
    for (let i = 0; i < 3; i++) await a.add(...rec(i));
    await a.close();
    appendFileSync(file, 'not json at all\n{"id":"torn","b64":"AAA'); // garbage, then a record cut off by a crash
    const b = new DeliveryHistory({ file });
    const warnings: string[] = [];
    b.on('warning', (w: Said) => warnings.push(english(w)));
    assert.deepEqual(await b.load(), { loaded: 3, skipped: 2 });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /2 unreadable lines/);
    await b.add(...rec(3));
    await b.close();
    const c = new DeliveryHistory({ file });
    assert.deepEqual(
      await c.load(),
      { loaded: 4, skipped: 0 },
      'compacted at load, and the new record was not glued onto the torn line',
    );
    assert.deepEqual(
      c.all().map((r) => r.id),
      ['r0', 'r1', 'r2', 'r3'],
    );
    await c.close();
  });

  it('a torn line is ended before the next append even when nothing compacts it (AppendFile)', async () => {
    const file = fileIn();
    writeFileSync(file, '{"torn":');
    const log = new DeliveryHistory({ file, diskBudgetBytes: MiB });
    // load() compacts away the torn line; to see the append on its own, add without loading.
    await log.add(...rec(7));
    await log.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines[0], '{"torn":');
    assert.equal(JSON.parse(lines[1]).id, 'r7');
  });

  it('a burst is written in batches (group commit): one writev for the records added while a write was under way', async () => {
    const file = fileIn();
    const log = new DeliveryHistory({ file, inlineBodyBytes: 100 });
    // FileHandle is not exported: its prototype is reached through a handle.
    const probe = await open(file, 'a');
    const proto = Object.getPrototypeOf(probe) as { writev: (...a: unknown[]) => Promise<unknown> };
    await probe.close();
    const writev = proto.writev;
    let calls = 0;
    proto.writev = function (this: unknown, ...a: unknown[]) {
      calls++;
      return writev.apply(this, a);
    };
    try {
      // 40 records added at once, bodies of mixed sizes (some read back from the file, some held in memory).
      await Promise.all(Array.from({ length: 40 }, (_, i) => log.add(...rec(i, i % 3 ? 30 : 300))));
    } finally {
      proto.writev = writev;
    }
    assert.ok(calls <= 3, `${calls} writev calls for 40 records`);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l).id),
      Array.from({ length: 40 }, (_, i) => `r${i}`),
      'in the order added',
    );
    // Each record's offset is its own: a body read back from the file is that record's.
    for (const i of [0, 3, 17, 39]) assert.deepEqual(await log.body(`r${i}`), rec(i, i % 3 ? 30 : 300)[1], `r${i}`);
    await log.close();
    const again = new DeliveryHistory({ file });
    assert.deepEqual(await again.load(), { loaded: 40, skipped: 0 });
    await again.close();
  });

  it('clear() while records wait for their write: none of them reaches the erased file, later ones do', async () => {
    const file = fileIn();
    const log = new DeliveryHistory({ file });
    await log.add(...rec(0));
    const before = [log.add(...rec(1)), log.add(...rec(2))];
    const cleared = log.clear();
    const after = log.add(...rec(3));
    await Promise.all([...before, cleared, after]);
    assert.deepEqual(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).id),
      ['r3'],
    );
    assert.equal(log.bytesOnDisk, statSync(file).size, 'the offsets it keeps are those of the file');
    assert.deepEqual(await log.body('r3'), rec(3)[1]);
    await log.close();
  });

  it('a write that fails part-way (disk full mid-line) rejects, and the next record starts on a line of its own', async () => {
    const file = fileIn();
    const log = new DeliveryHistory({ file });
    const events: string[] = [];
    log.on('error-persisting', (e: Error) => events.push(`failed: ${e.message}`));
    log.on('persisting-again', () => events.push('again'));
    await log.add(...rec(0));
    const probe = await open(file, 'a');
    const proto = Object.getPrototypeOf(probe) as { writev: (...a: unknown[]) => Promise<unknown> };
    await probe.close();
    const writev = proto.writev;
    // As a disk filling up mid-line: the first writev writes 5 bytes (a short write), the next one fails.
    let calls = 0;
    proto.writev = async function (this: unknown, bufs: unknown) {
      if (++calls === 1) return writev.call(this, [(bufs as Buffer[])[0]!.subarray(0, 5)]);
      proto.writev = writev;
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    try {
      await assert.rejects(async () => log.add(...rec(1)), /ENOSPC/);
    } finally {
      proto.writev = writev;
    }
    await log.add(...rec(2));
    await log.add(...rec(3));
    // Said once each way: the failure, and the first write after it (the extension's warning is then news again).
    assert.deepEqual(events, ['failed: ENOSPC: no space left on device, write', 'again']);
    assert.equal(log.bytesOnDisk, statSync(file).size, 'the length it keeps counts the torn bytes');
    assert.deepEqual(await log.body('r2'), rec(2)[1], 'r2 is read back at its own offset');
    await log.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines[1], lines[1]!.slice(0, 5), 'the torn fragment is a line by itself');
    assert.equal(JSON.parse(lines[2]!).id, 'r2');
    const again = new DeliveryHistory({ file });
    assert.deepEqual(await again.load(), { loaded: 3, skipped: 1 });
    await again.close();
  });

  it('a load that fails part-way (the torn last line cannot be ended: disk full) leaves nothing half-loaded, and loads whole when tried again', async () => {
    const file = fileIn();
    writeFileSync(file, [serializeLine(...rec(0)), serializeLine(...rec(1))].join('') + '{"torn');
    const log = new DeliveryHistory({ file });
    const proto = await fileHandlePrototype(file);
    const writev = proto.writev;
    proto.writev = async () => {
      proto.writev = writev;
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    try {
      await assert.rejects(() => log.load(), /ENOSPC/);
    } finally {
      proto.writev = writev;
    }
    assert.equal(log.size, 0, 'the records read before the failure are let go');
    assert.deepEqual(await log.load(), { loaded: 2, skipped: 1 });
    assert.deepEqual(
      log.all().map((r) => r.id),
      ['r0', 'r1'],
    );
    const counted = log.bytesInMemory;
    await log.close();
    assert.equal(counted, await loadedAlone(file), 'memory counted once');
  });

  it('a compaction at load that fails (disk full) is a warning, not a failed load: the history works, and the file is compacted at the next start', async () => {
    const file = fileIn();
    writeFileSync(file, [serializeLine(...rec(0)), 'garbage\n', serializeLine(...rec(1))].join(''));
    const log = new DeliveryHistory({ file });
    const warnings: string[] = [];
    log.on('warning', (w: Said) => warnings.push(english(w)));
    const proto = await fileHandlePrototype(file);
    const sync = proto.sync;
    proto.sync = async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, fsync'), { code: 'ENOSPC' });
    };
    try {
      assert.deepEqual(await log.load(), { loaded: 2, skipped: 1 });
    } finally {
      proto.sync = sync;
    }
    assert.deepEqual(warnings, [
      `1 unreadable line in ${file} (torn by a crash, or not a record) was skipped`,
      `${file} could not be compacted (ENOSPC: no space left on device, fsync); it is tried again when it next outgrows its budget, or at the next start`,
    ]);
    assert.equal(existsSync(`${file}.compacting`), false);
    await log.add(...rec(2));
    assert.deepEqual(await log.body('r1'), rec(1)[1], 'read back from the file it kept');
    await log.close();
    const again = new DeliveryHistory({ file });
    assert.deepEqual(await again.load(), { loaded: 3, skipped: 1 });
    await again.close();
    assert.equal(readFileSync(file, 'utf8').includes('garbage'), false, 'compacted at the next start');
  });

  it('a short write resumes where it stopped, across buffers', () => {
    const bufs = [Buffer.from('abc'), Buffer.from('de'), Buffer.from('fgh')];
    assert.deepEqual(remainderAfter(bufs, 0).map(String), ['abc', 'de', 'fgh']);
    assert.deepEqual(remainderAfter(bufs, 2).map(String), ['c', 'de', 'fgh']);
    assert.deepEqual(remainderAfter(bufs, 3).map(String), ['de', 'fgh']);
    assert.deepEqual(remainderAfter(bufs, 6).map(String), ['gh']);
  });

  it('on disk it stays within its budget: compaction writes a new file and renames it, keeping the newest records', async () => {
    const file = fileIn();
    const log = new DeliveryHistory({ file, diskBudgetBytes: 512 * 1024, inlineBodyBytes: 1024 });
    let compactions = 0;
    log.on('compacted', () => compactions++);
    for (let i = 0; i < 60; i++) await log.add(...rec(i, 20 * 1024));
    assert.ok(compactions >= 2, `${compactions} compactions`);
    assert.ok(statSync(file).size <= 512 * 1024, `${statSync(file).size} bytes on disk`);
    assert.equal(existsSync(`${file}.compacting`), false);
    const ids = log.all().map((r) => r.id);
    assert.equal(ids.at(-1), 'r59');
    for (const id of ids) assert.equal((await log.body(id))!.length, 20 * 1024, `${id} readable after compaction`);
    await log.close();
    const again = new DeliveryHistory({ file, inlineBodyBytes: 1024 });
    await again.load();
    // Every record kept before the restart is there again (an older one the file still held may come back too).
    assert.deepEqual(
      again
        .all()
        .map((r) => r.id)
        .slice(-ids.length),
      ids,
    );
    await again.close();
  });

  it('a file it makes is readable by its owner only, also after a compaction; one found with another mode keeps it, compacted or not', async () => {
    const modeOf = (f: string) => statSync(f).mode & 0o777;
    const file = fileIn();
    const log = new DeliveryHistory({ file, diskBudgetBytes: 256 * 1024, inlineBodyBytes: 1024 });
    await log.add(...rec(0));
    assert.equal(modeOf(file), 0o600, 'made 0600 whatever the umask');
    let compactions = 0;
    log.on('compacted', () => compactions++);
    for (let i = 1; i < 40; i++) await log.add(...rec(i, 20 * 1024));
    assert.ok(compactions > 0);
    assert.equal(modeOf(file), 0o600, 'the compacted file too');
    await log.close();

    // The mode is its owner's choice: never changed (fileModeWarning says what a wide one means).
    for (const mode of [0o644, 0o640]) {
      const older = fileIn();
      writeFileSync(older, serializeLine(...rec(1)).toString() + '\n');
      chmodSync(older, mode);
      const reopened = new DeliveryHistory({ file: older, diskBudgetBytes: 256 * 1024, inlineBodyBytes: 1024 });
      await reopened.load();
      let compacted = 0;
      reopened.on('compacted', () => compacted++);
      for (let i = 2; i < 40; i++) await reopened.add(...rec(i, 20 * 1024));
      assert.ok(compacted > 0);
      assert.equal(modeOf(older), mode, `a history found ${mode.toString(8)} keeps it, compacted too`);
      await reopened.close();
    }
    assert.equal(fileModeWarning('f', 0o600), undefined);
    assert.equal(
      fileModeWarning('f', 0o640),
      'is readable by other users (mode 0640), and deliveries may carry customer data: it is left as it is; run chmod 600 f to keep it to yourself',
    );
  });

  it('a file nobody may write (mode 0444) is refused, not written, and its mode and bytes are left as they were (as root too); its lock is given up on close', async () => {
    const file = fileIn();
    const line = serializeLine(...rec(1)).toString() + '\n';
    writeFileSync(file, line);
    chmodSync(file, 0o444);
    const log = new DeliveryHistory({ file });
    const err = await log.load().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ReadOnlyHistoryFile || (err as NodeJS.ErrnoException).code === 'EACCES', String(err));
    if (err instanceof ReadOnlyHistoryFile)
      assert.equal(
        err.message,
        `is read-only (mode 0444) and is left as it is: make it writable (chmod u+w ${file}) to keep the history in it`,
      );
    assert.equal(statSync(file).mode & 0o777, 0o444);
    assert.equal(readFileSync(file, 'utf8'), line);
    await log.close();
    assert.equal(existsSync(`${file}.lock`), false);
  });

  it('a compaction that never reached its rename leaves the old file whole; its leftover is removed at load', async () => {
    const file = fileIn();
    const a = new DeliveryHistory({ file });
    for (let i = 0; i < 4; i++) await a.add(...rec(i));
    await a.close();
    writeFileSync(`${file}.compacting`, '{"id":"half-written"'); // what a crash mid-compaction leaves
    const b = new DeliveryHistory({ file });
    assert.deepEqual(await b.load(), { loaded: 4, skipped: 0 });
    assert.equal(existsSync(`${file}.compacting`), false);
    await b.close();
  });

  it('remembers the webhookIds of acknowledged deliveries whose records its budgets dropped: across a restart and compactions, oldest first', async () => {
    const file = fileIn();
    const options = { file, memoryBudgetBytes: 200 * 1024, diskBudgetBytes: 512 * 1024, inlineBodyBytes: 1024 };
    const log = new DeliveryHistory(options);
    let compactions = 0;
    log.on('compacted', () => compactions++);
    // Every fifth is refused and every seventh answered 503: the service sends those again, so neither is remembered.
    const acknowledged: string[] = [];
    for (let i = 0; i < 60; i++) {
      const refused = i % 5 === 4;
      const status = i % 7 === 6 ? 503 : refused ? 403 : 200;
      await log.add(...rec(i, 20 * 1024, { webhookId: `wh-${i}`, verified: !refused, status }));
      if (!refused && status === 200) acknowledged.push(`wh-${i}`);
    }
    assert.ok(compactions >= 2, `${compactions} compactions`);
    assert.ok(log.all().length < 20, `${log.all().length} records kept`);
    assert.deepEqual(log.acknowledgedKeys(), acknowledged, 'in this run');
    await log.close();
    assert.ok(statSync(file).size <= options.diskBudgetBytes, `${statSync(file).size} bytes on disk`);

    const again = new DeliveryHistory(options);
    assert.equal((await again.load()).skipped, 0, 'the line of ids is not a torn record');
    assert.deepEqual(again.acknowledgedKeys(), acknowledged, 'after the restart: dropped records included');
    assert.ok(again.all().length < 20);
    await again.clear();
    assert.deepEqual(again.acknowledgedKeys(), [], 'clear forgets them too');
    await again.close();
  });

  it('the ids it keeps for dropped records take at most a quarter of the disk budget: the newest of them', async () => {
    const file = fileIn();
    const options = { file, diskBudgetBytes: 16 * 1024 };
    const log = new DeliveryHistory(options);
    for (let i = 0; i < 600; i++) await log.add(...rec(i, 10, { webhookId: `wh-${String(i).padStart(6, '0')}` }));
    await log.close();
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const ids: string[] = JSON.parse(lines[0]!).acknowledged;
    assert.ok(lines[0]!.length <= 4 * 1024, `${lines[0]!.length} bytes of ids`);
    assert.ok(ids.length > 100, `${ids.length} ids`);
    assert.ok(statSync(file).size <= options.diskBudgetBytes, `${statSync(file).size} bytes on disk`);
    const again = new DeliveryHistory(options);
    await again.load();
    const keys = again.acknowledgedKeys();
    // The newest ids, in order, with nothing missing between the oldest kept and the last record.
    const first = Number(keys[0]!.slice(3));
    assert.deepEqual(
      keys,
      Array.from({ length: 600 - first }, (_, k) => `wh-${String(first + k).padStart(6, '0')}`),
    );
    await again.close();
  });

  it('the quarter of the disk budget is counted in the bytes written: ids that escape or take several UTF-8 bytes each', async () => {
    const file = fileIn();
    const log = new DeliveryHistory({ file, diskBudgetBytes: 16 * 1024 });
    // 100 characters each, 600 bytes as JSON: counted by characters, the line would take 22 KiB, over the whole budget.
    const id = (i: number) => `${String(i).padStart(4, '0')}${'\u0001'.repeat(96)}`;
    for (let i = 0; i < 300; i++) await log.add(...rec(i, 10, { webhookId: id(i) }));
    await log.close();
    const first = readFileSync(file, 'utf8').split('\n')[0]!;
    assert.ok(Buffer.byteLength(first) <= 4 * 1024, `${Buffer.byteLength(first)} bytes of ids`);
    assert.ok(statSync(file).size <= 16 * 1024, `${statSync(file).size} bytes on disk`);
    const again = new DeliveryHistory({ file });
    await again.load();
    assert.ok(again.acknowledgedKeys().includes(id(299)));
    await again.close();
  });

  it('a hand-edited line of ids: keys no receiver could hold are passed over, and the line is not counted as torn', async () => {
    const file = fileIn();
    const long = 'x'.repeat(200);
    writeFileSync(
      file,
      `${JSON.stringify({ acknowledged: ['wh-a', 7, long, '', 'wh-b'] })}\n${serializeLine(rec(1)[0], rec(1)[1]).toString()}`,
    );
    const log = new DeliveryHistory({ file });
    assert.deepEqual(await log.load(), { loaded: 1, skipped: 0 });
    assert.deepEqual(log.acknowledgedKeys(), ['wh-a', 'wh-b']);
    await log.close();
  });

  it('clear forgets everything and erases the file', async () => {
    const file = fileIn();
    const log = new DeliveryHistory({ file });
    for (let i = 0; i < 3; i++) await log.add(...rec(i, 1000));
    await log.clear();
    assert.equal(log.size, 0);
    assert.equal(statSync(file).size, 0);
    await log.add(...rec(9));
    await log.close();
    const again = new DeliveryHistory({ file });
    assert.deepEqual(await again.load(), { loaded: 1, skipped: 0 });
    await again.close();
  });

  it("a record whose append failed is written by the next compaction from what memory holds: an ASCII body's text as its bytes", async () => {
    const file = fileIn();
    const log = new DeliveryHistory({ file, diskBudgetBytes: 8192 });
    await log.load();
    log.on('error-persisting', () => undefined);
    // Older records first, so that the budget drops them, not the one whose append fails.
    for (let i = 0; i < 10; i++) await log.add(...rec(i, 200));
    const text = '{"webhookId":"w99","note":"held as text"}';
    const [record] = rec(99, text.length);
    const proto = await fileHandlePrototype(file);
    const writev = proto.writev;
    proto.writev = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    try {
      await assert.rejects(async () => log.add(record, Buffer.from(text), text), /no space left/);
    } finally {
      proto.writev = writev;
    }
    // Appends until the file passes its budget and is compacted (it shrinks): the failed record is written then.
    let compacted = false;
    for (let i = 100; i < 140 && !compacted; i++) {
      const before = log.bytesOnDisk;
      await log.add(...rec(i, 200));
      compacted = log.bytesOnDisk < before;
    }
    assert.ok(compacted, 'the file was compacted');
    assert.ok(log.find('r99'), 'the failed record is still kept');
    await log.close();
    const reloaded = new DeliveryHistory({ file, diskBudgetBytes: 8192 });
    await reloaded.load();
    assert.deepEqual(await reloaded.body('r99'), Buffer.from(text));
    await reloaded.close();
  });

  it('a write that fails (e.g. full disk) rejects add() and is reported; the record stays in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-history-'));
    const log = new DeliveryHistory({ file: dir }); // a directory cannot be opened for appending
    const errors: Error[] = [];
    log.on('error-persisting', (e: Error) => errors.push(e));
    await assert.rejects(async () => log.add(...rec(1)), /is a folder: nothing was written/);
    assert.equal(errors.length, 1);
    assert.equal(log.all().length, 1);
  });
});
