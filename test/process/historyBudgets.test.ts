// `wfs listen --log FILE` as a user runs it, where its history meets the disk and memory: killed with SIGKILL in the
// middle of a compaction, and flooded with unsigned 1 MB requests. The unit tests drive DeliveryHistory by hand; these
// see the process, its file and its resident memory.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { request } from 'undici';
import { recordsIn, sendDelivery, signedDeliveries } from './helpers/deliveries';
import { memoryOf } from './helpers/proc';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const SENDERS = 16;
const MIB = 1024 * 1024;

/** Returns once every thread of the process is stopped: kill(2) only queues SIGSTOP, and a thread of libuv's pool
 * may be inside a system call (the rename itself) that completes first. Reads /proc, so it waits on the kernel,
 * not on a clock. */
function untilStopped(pid: number): void {
  const stopped = (task: string) => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8'));
  for (let i = 0; i < 100_000; i++) if (readdirSync(`/proc/${pid}/task`).every(stopped)) return;
  throw new Error(`process ${pid} did not stop`);
}

describe('wfs listen --log: the history on disk and in memory, as a process', function () {
  this.timeout(120_000);
  const s = withSandboxProcess();

  it('SIGKILL in the middle of a compaction: the old file stays whole with every acknowledged delivery, and the restart keeps the newest', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-compaction-')), 'deliveries.jsonl');
    const leftover = `${file}.compacting`;
    // About 3.5 KB a line: the 4 MiB file compacts after about 1,200 deliveries, copying some 600 lines one by one,
    // long enough to be caught in the act. Each signed delivery is sent three times (copies are recorded too).
    const deliveries = await signedDeliveries(s.info.baseUrl, 700, { topic: 'history/test', pad: 1500, tag: 'c' });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--log', file, '--history-disk', '4']);
    const { url } = await listen.event('ready');
    const pid = listen.child.pid!;

    // The moment the compaction's new file appears, the process is stopped (SIGSTOP) and looked at: if the rename
    // has not happened yet, it is killed right there, mid-compaction; otherwise it goes on to the next compaction.
    let caughtMidCompaction = false;
    const watcher = watch(dirname(file), (_event, name) => {
      if (caughtMidCompaction || name !== basename(leftover)) return;
      process.kill(pid, 'SIGSTOP');
      untilStopped(pid);
      if (existsSync(leftover)) {
        caughtMidCompaction = true;
        process.kill(pid, 'SIGKILL');
      } else process.kill(pid, 'SIGCONT');
    });
    const acknowledged: string[] = [];
    const queue = [0, 1, 2].flatMap(() => deliveries);
    let next = 0;
    const sender = async () => {
      while (next < queue.length && !caughtMidCompaction) {
        const d = queue[next++]!;
        try {
          const status = await sendDelivery(url, d);
          if (status >= 200 && status < 300) acknowledged.push(d.id);
        } catch {
          // cut off by the kill: never acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, sender));
    watcher.close();
    assert.ok(caughtMidCompaction, `no compaction was caught in progress in ${queue.length} deliveries`);
    assert.equal((await listen.exited).signal, 'SIGKILL');
    assert.ok(existsSync(leftover), 'the kill came before the rename');

    // The old file is whole: every line parses (appends wait while a compaction runs), nothing acknowledged is lost.
    const before = recordsIn(file);
    assert.equal(before.unreadable, 0);
    const inFile = new Set(before.records.map((r) => r.webhookId));
    const missing = [...new Set(acknowledged)].filter((id) => !inFile.has(id));
    assert.deepEqual(missing, [], `${missing.length} acknowledged deliveries are missing from the file`);

    // The restart removes the leftover, keeps the newest records the budget holds, and compacts the file to them.
    const again = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--log', file, '--history-disk', '4']);
    const history = await again.event('history');
    await again.event('ready');
    assert.equal(history.skipped, 0);
    await again.stopCleanly();
    assert.equal(existsSync(leftover), false);
    const after = recordsIn(file);
    assert.equal(after.unreadable, 0);
    assert.equal(after.records.length, history.loaded);
    // Compacted to half the budget for the records, and at most a quarter for the line naming the dropped ones.
    const idsLine = after.acknowledged.length
      ? Buffer.byteLength(JSON.stringify({ acknowledged: after.acknowledged })) + 1
      : 0;
    assert.ok(idsLine <= MIB, `${idsLine} bytes of ids`);
    assert.ok(
      statSync(file).size - idsLine <= 2 * MIB,
      `${statSync(file).size - idsLine} bytes of records: compacted to half the budget`,
    );
    // Deliveries may carry customer data: the file, compacted or not, is its owner's alone, whatever the umask.
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(after.records.length >= 300, `${after.records.length} records kept`);
    assert.deepEqual(
      after.records.map((r) => r.id),
      before.records.slice(-after.records.length).map((r) => r.id),
      'the newest records, in order',
    );
    assert.ok(
      new Set(after.records.map((r) => r.webhookId)).has(acknowledged.at(-1)),
      'the last acknowledged delivery is kept',
    );
    // What the budget dropped is still known acknowledged: a copy the service sends again is a duplicate.
    const known = new Set([...after.records.map((r) => r.webhookId), ...after.acknowledged]);
    assert.ok(after.acknowledged.length > 0, 'the compacted file names the dropped deliveries');
    assert.deepEqual(
      [...new Set(acknowledged)].filter((id) => !known.has(id)),
      [],
      'every acknowledged delivery is a record or named as dropped',
    );
  });

  it('large verified deliveries: resident memory and the file stay within budget, and a restart reads them back', async function () {
    if (process.platform !== 'linux') this.skip(); // resident memory is read from /proc
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-large-')), 'deliveries.jsonl');
    const args = [
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--log',
      file,
      '--history-memory',
      '16',
      '--history-disk',
      '32',
    ];
    // 300 deliveries of 700 KB (the most the sandbox signs in one request): 210 MB of bodies, 280 MB as base64.
    const deliveries = await signedDeliveries(s.info.baseUrl, 300, { topic: 'history/test', pad: 700_000, tag: 'l' });
    const listen = new WfsProcess(args);
    const { url } = await listen.event('ready');
    const start = memoryOf(listen.child.pid!);
    let next = 0;
    const statuses: number[] = [];
    const sender = async () => {
      while (next < deliveries.length) statuses.push(await sendDelivery(url, deliveries[next++]!));
    };
    await Promise.all(Array.from({ length: 4 }, sender));
    assert.deepEqual(new Set(statuses), new Set([200]));
    const end = memoryOf(listen.child.pid!);
    // Kept in memory, the bodies alone would be 210 MB; a body over 64 KiB stays only in the file once written.
    assert.ok(
      end.peak - start.rss < 150 * MIB,
      `peak RSS ${Math.round(end.peak / MIB)} MiB from ${Math.round(start.rss / MIB)} MiB`,
    );
    await listen.stopCleanly();
    assert.ok(statSync(file).size <= 32 * MIB, `the file: ${statSync(file).size} bytes`);
    const { records, unreadable } = recordsIn(file);
    assert.equal(unreadable, 0);
    assert.ok(records.length >= 10, `${records.length} records kept`);
    // The newest deliveries: with 4 in flight, neighbours may be written in either order.
    const newest = new Set(deliveries.slice(-(records.length + 4)).map((d) => d.id));
    assert.deepEqual(
      records.filter((r) => !newest.has(r.webhookId!)),
      [],
      'only the newest deliveries are kept',
    );
    assert.ok(
      records.some((r) => r.webhookId === deliveries.at(-1)!.id),
      'the last delivery is kept',
    );

    // The file may still hold records the history had let go (until its next compaction); the restart keeps, like
    // the history before it, the newest that fit half the disk budget.
    const again = new WfsProcess(args);
    const history = await again.event('history');
    assert.equal(history.skipped, 0);
    assert.ok(
      history.loaded >= 10 && history.loaded <= records.length && history.loaded * 700_000 <= 16 * MIB,
      `${history.loaded} of ${records.length} loaded`,
    );
    await again.event('ready');
    await again.stopCleanly();
  });

  it('a flood of unsigned 1 MB requests: resident memory and the file stay within budget, and the receiver restarts on its history', async function () {
    if (process.platform !== 'linux') this.skip(); // resident memory is read from /proc
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-flood-')), 'deliveries.jsonl');
    const args = [
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--log',
      file,
      '--history-memory',
      '16',
      '--history-disk',
      '32',
    ];
    const [genuine] = await signedDeliveries(s.info.baseUrl, 1, { topic: 'history/test', pad: 100, tag: 'f' });
    const listen = new WfsProcess(args);
    const { url } = await listen.event('ready');
    assert.equal(await sendDelivery(url, genuine!), 200);
    const start = memoryOf(listen.child.pid!);

    // 600 MB from 16 senders at once, no token at all: each is read, refused, and keeps a 4 KiB prefix.
    const junk = Buffer.alloc(1_000_000, 0x7a);
    const statuses = new Map<number, number>();
    let sent = 0;
    const flooder = async () => {
      while (sent < 600) {
        sent++;
        const res = await request(url, { method: 'POST', body: junk, headers: { 'content-type': 'application/json' } });
        await res.body.dump();
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, flooder));
    assert.deepEqual([...statuses], [[403, 600]]);
    const end = memoryOf(listen.child.pid!);
    // Kept whole, the bodies alone would be 600 MB (a build keeping them rose by 1.9 GB). Bounded, what rises is the
    // requests in flight and garbage not yet collected: 130–160 MB in five runs here.
    assert.ok(
      end.peak - start.rss < 300 * MIB,
      `peak RSS ${Math.round(end.peak / MIB)} MiB from ${Math.round(start.rss / MIB)} MiB`,
    );

    await listen.stopCleanly();
    assert.ok(statSync(file).size <= 32 * MIB, `the file: ${statSync(file).size} bytes`);
    const { records, unreadable } = recordsIn(file);
    assert.equal(unreadable, 0);
    assert.ok(
      records.some((r) => r.verified && r.webhookId === genuine!.id),
      'the verified delivery outlived the flood',
    );

    const again = new WfsProcess(args);
    const history = await again.event('history');
    assert.equal(history.skipped, 0);
    assert.ok(history.loaded > 0 && history.loaded <= records.length, `${history.loaded} of ${records.length} loaded`);
    assert.equal(await sendDelivery((await again.event('ready')).url, genuine!), 200);
    assert.equal((await again.event('delivery')).verified, true);
    await again.stopCleanly();
  });
});
