// Reading another process's history file: what it appends is seen, a compaction (a new file renamed over the old)
// is read anew, a line still being written waits for its newline, and the file, its mode and its lock are left
// exactly as they were.
import assert from 'node:assert/strict';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryFileReader } from '../../../src/core/assistant/historyFileReader';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { serializeLine } from '../../../src/core/webhooks/historyLine';
import { ManualClock } from '../helpers/manualClock';

let n = 0;
function record(topic: string, bytes: number, verified = true): DeliveryRecord {
  n++;
  return {
    id: `r-${n}`,
    receivedAt: new Date(Date.UTC(2026, 0, 15, 12, 0, n)).toISOString(),
    method: 'POST',
    path: '/webhooks',
    headers: { authorization: 'Bearer <redacted, 800 characters>' },
    body: { size: bytes, sha256: 'x', kept: bytes, utf8: true },
    checks: [],
    verified,
    status: verified ? 200 : 403,
    durationMs: 1,
    duplicate: false,
    topic,
  };
}

describe('assistant: a history file read by another process', function () {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wfs-reader-'));
    file = join(dir, 'deliveries.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads what the writer appended, while the writer holds its lock, and changes nothing of the file', async () => {
    const writer = new DeliveryHistory({ file, holderName: 'wfs listen' });
    await writer.load();
    await writer.add(record('workflow/completed', 5), Buffer.from('hello'));
    await writer.flush();
    const lock = readFileSync(`${file}.lock`, 'utf8');
    const before = { bytes: readFileSync(file), stat: statSync(file) };
    const reader = new HistoryFileReader({ file, clock: new ManualClock() });
    const first = await reader.records();
    assert.deepEqual(
      first.map((r) => r.topic),
      ['workflow/completed'],
    );
    assert.equal((await reader.body(first[0]!.id))!.toString(), 'hello');
    await writer.add(record('workflow/failed', 3), Buffer.from('abc'));
    await writer.flush();
    assert.deepEqual(
      (await reader.records()).map((r) => r.topic),
      ['workflow/completed', 'workflow/failed'],
    );
    await writer.close();
    // The reader took no lock and touched nothing: the writer's lock was its own, the file only grew by its write.
    assert.equal(lock.length > 0, true);
    assert.ok(readFileSync(file).subarray(0, before.bytes.length).equals(before.bytes));
    assert.equal(statSync(file).mode, before.stat.mode);
    assert.equal(existsSync(`${file}.lock`), false, 'the writer released its lock; the reader never made one');
  });

  it("the writer's replays are read with its records, read again after a compaction; this process's own are kept apart", async () => {
    const writer = new DeliveryHistory({ file, diskBudgetBytes: 16 * 1024 });
    await writer.load();
    await writer.add(record('workflow/completed', 5), Buffer.from('hello'));
    const answer = { at: '2026-11-28T10:00:00.000Z', target: 'http://127.0.0.1:3000/webhooks', status: 200 };
    writer.replayAnswered({ ...answer, webhookId: 'w-panel' });
    await writer.flush();
    const reader = new HistoryFileReader({ file, clock: new ManualClock() });
    await reader.records();
    reader.replayed({ ...answer, webhookId: 'w-mine' });
    assert.deepEqual(
      reader.replays().map((a) => a.webhookId),
      ['w-panel', 'w-mine'],
    );
    let compacted = false;
    writer.on('compacted', () => (compacted = true));
    for (let i = 0; !compacted && i < 100; i++) await writer.add(record('workflow/started', 500), Buffer.alloc(500));
    await writer.flush();
    assert.ok(compacted);
    await reader.records();
    assert.deepEqual(
      reader.replays().map((a) => a.webhookId),
      ['w-panel', 'w-mine'],
      'read once from the new file, not twice',
    );
    await writer.close();
  });

  it('a compaction (a new file renamed over the old one) is read from the start', async () => {
    writeFileSync(
      file,
      Buffer.concat([
        serializeLine(record('a/one', 1), Buffer.from('1')),
        serializeLine(record('a/two', 1), Buffer.from('2')),
      ]),
    );
    const reader = new HistoryFileReader({ file, clock: new ManualClock() });
    assert.equal((await reader.records()).length, 2);
    const next = join(dir, 'new.jsonl');
    writeFileSync(next, serializeLine(record('a/three', 1), Buffer.from('3')));
    renameSync(next, file);
    assert.deepEqual(
      (await reader.records()).map((r) => r.topic),
      ['a/three'],
    );
  });

  it('a line still being written is read once its newline arrives; a torn or foreign line is skipped', async () => {
    const line = serializeLine(record('b/one', 4), Buffer.from('abcd'));
    writeFileSync(file, Buffer.concat([Buffer.from('not a record\n'), line.subarray(0, 20)]));
    const reader = new HistoryFileReader({ file, clock: new ManualClock() });
    assert.equal((await reader.records()).length, 0);
    appendFileSync(file, line.subarray(20));
    assert.deepEqual(
      (await reader.records()).map((r) => r.topic),
      ['b/one'],
    );
  });

  it('a body too large to hold is read from the file when asked for', async () => {
    const big = Buffer.alloc(200 * 1024, 'z');
    writeFileSync(file, serializeLine(record('c/big', big.length), big));
    const reader = new HistoryFileReader({ file, clock: new ManualClock(), inlineBodyBytes: 1024 });
    const [r] = await reader.records();
    assert.ok((await reader.body(r!.id))!.equals(big));
  });

  it('holds at most its memory budget: the oldest records go first', async () => {
    const lines = [];
    for (let i = 0; i < 50; i++) lines.push(serializeLine(record(`d/${i}`, 1000), Buffer.alloc(1000, 'q')));
    writeFileSync(file, Buffer.concat(lines));
    const reader = new HistoryFileReader({ file, clock: new ManualClock(), memoryBudgetBytes: 20_000 });
    const kept = await reader.records();
    assert.ok(kept.length < 50 && kept.length > 0);
    assert.equal(kept.at(-1)!.topic, 'd/49');
  });

  it('a file not written yet reads as empty and says what writes it; a listener hears when it appears', async () => {
    const clock = new ManualClock();
    const reader = new HistoryFileReader({ file, clock, pollMs: 100 });
    assert.equal((await reader.records()).length, 0);
    assert.match(reader.description, /wfs listen --log/);
    let heard = 0;
    const off = reader.onChange(() => heard++);
    writeFileSync(file, serializeLine(record('e/one', 1), Buffer.from('1')));
    for (let i = 0; i < 50 && heard === 0; i++) {
      clock.advance(100);
      await new Promise<void>((r) => setTimeout(r, 5));
    }
    off();
    assert.ok(heard > 0);
    assert.equal((await reader.records()).length, 1);
  });
});
