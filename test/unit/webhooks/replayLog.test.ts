// Replays count (#79): an app's 2xx to a replay acknowledges the webhookId it was sent under, as a forward's does, so
// the next replay under it is said to be a possible duplicate. The answers are bounded in bytes, and a history
// counts them in its memory budget.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import { appAcknowledged } from '../../../src/core/webhooks/replayAnswer';
import { answerBytes, ReplayLog, type ReplayAnswer } from '../../../src/core/webhooks/replayLog';
import { APP_URL, forwardedRecord } from '../helpers/forwardedRecord';

const APP = APP_URL;

const forwarded = (webhookId: string, status: number) => forwardedRecord(webhookId, [status]);

const answer = (webhookId: string | undefined, status: number | undefined, extra: Partial<ReplayAnswer> = {}) => ({
  at: '2026-11-28T10:01:00.000Z',
  target: APP,
  ...(webhookId === undefined ? {} : { webhookId }),
  ...(status === undefined ? {} : { status }),
  ...extra,
});

describe('replays count for appAcknowledged', () => {
  it('forward 500, then a replay answered 200: the webhookId is acknowledged', () => {
    const history = new DeliveryHistory();
    const record = forwarded('w-1', 500);
    history.add(record, Buffer.from('{}'));
    assert.equal(appAcknowledged(history.all(), 'w-1', history.replayAnswers()), false, 'a 500 is not an ack');
    history.replayAnswered(answer('w-1', 500, { deliveryId: record.id }));
    assert.equal(appAcknowledged(history.all(), 'w-1', history.replayAnswers()), false, 'nor a replay answered 500');
    history.replayAnswered(answer('w-1', 200, { deliveryId: record.id }));
    assert.equal(appAcknowledged(history.all(), 'w-1', history.replayAnswers()), true, 'the replay answered 200');
    assert.equal(appAcknowledged(history.all(), 'w-1'), false, 'the forwards alone do not say it');
  });

  it('a replay under a fresh webhookId acknowledges the new id only', () => {
    const log = new ReplayLog();
    log.record(answer('w-fresh', 204, { deliveryId: 'd-w-1' }));
    const records = [forwarded('w-1', 500)];
    assert.equal(appAcknowledged(records, 'w-fresh', log.all()), true);
    assert.equal(appAcknowledged(records, 'w-1', log.all()), false, 'the delivery it was made from: not acknowledged');
  });

  it('no answer, a 3xx or 4xx acknowledges nothing; a long webhookId matches itself (held hashed)', () => {
    const log = new ReplayLog();
    log.record(answer('w-a', undefined, { error: 'connect ECONNREFUSED' }));
    log.record(answer('w-b', 302));
    log.record(answer('w-c', 409));
    for (const id of ['w-a', 'w-b', 'w-c']) assert.equal(appAcknowledged([], id, log.all()), false, id);
    const long = 'x'.repeat(5000);
    log.record(answer(long, 200));
    assert.equal(appAcknowledged([], long, log.all()), true);
    assert.equal(appAcknowledged([], `${long}y`, log.all()), false);
    assert.ok(
      log.all().every((a) => (a.webhookId?.length ?? 0) <= 128),
      'a long id is held as its hash',
    );
  });

  it('Clear forgets the replays with the deliveries', async () => {
    const history = new DeliveryHistory();
    history.replayAnswered(answer('w-1', 200));
    await history.clear();
    assert.deepEqual(history.replayAnswers(), []);
    assert.equal(history.bytesInMemory, 0);
  });
});

describe('the replay log is bounded in bytes', () => {
  const answers = fc.array(
    fc.record({
      webhookId: fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
      status: fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
      target: fc.string({ maxLength: 3000 }),
      error: fc.option(fc.string({ maxLength: 3000 }), { nil: undefined }),
    }),
    { maxLength: 300 },
  );

  it('however many replays, it holds at most its bound, counted as held, and keeps the newest', () => {
    fc.assert(
      fc.property(answers, fc.integer({ min: 1, max: 20_000 }), (list, bound) => {
        const log = new ReplayLog(bound);
        for (const a of list)
          log.record({ at: '2026-11-28T10:01:00.000Z', ...a, target: a.target || APP } as ReplayAnswer);
        const kept = log.all();
        assert.ok(log.bytes <= bound, `${log.bytes} > ${bound}`);
        assert.equal(
          log.bytes,
          kept.reduce((n, a) => n + answerBytes(a), 0),
          'the count is what is held',
        );
        // The newest is always kept, when it fits the bound on its own.
        const last = list.at(-1);
        if (!last) return;
        const alone = new ReplayLog(bound);
        alone.record({ at: '2026-11-28T10:01:00.000Z', ...last, target: last.target || APP } as ReplayAnswer);
        if (alone.all().length) assert.deepEqual(kept.at(-1), alone.all()[0]);
      }),
      { numRuns: 200, seed: 1 },
    );
  });

  it("a history's memory budget counts the replays: many replays never take it past its budget", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 20_000, max: 200_000 }), (replays, budget) => {
        const history = new DeliveryHistory({ memoryBudgetBytes: budget });
        for (let i = 0; i < 30; i++) history.add(forwarded(`w-${i}`, 500), Buffer.from('{"x":1}'));
        for (let i = 0; i < replays; i++)
          history.replayAnswered(answer(`w-${i % 30}-${'r'.repeat(i % 50)}`, 200, { target: `${APP}?${i}` }));
        assert.ok(history.bytesInMemory <= budget || history.size === 1, `${history.bytesInMemory} > ${budget}`);
        assert.ok(history.replayAnswers().length > 0, 'the newest replay is held');
        const held = history.replayAnswers().reduce((n, a) => n + answerBytes(a), 0);
        assert.ok(held <= budget / 16, `the replays keep to their share: ${held}`);
      }),
      { numRuns: 100, seed: 1 },
    );
  });
});

describe('the replays are kept in the history file', () => {
  const fileIn = () => join(mkdtempSync(join(tmpdir(), 'wfs-replays-')), 'deliveries.jsonl');

  it('a restart remembers that a replay was answered 200, and a file of records only (as written before) loads as it did', async () => {
    const file = fileIn();
    const before = new DeliveryHistory({ file });
    await before.load();
    const record = forwarded('w-1', 500);
    await before.add(record, Buffer.from('{}'));
    await before.close();
    const recordsOnly = readFileSync(file);
    assert.doesNotMatch(recordsOnly.toString('utf8'), /replayed/);

    const old = new DeliveryHistory({ file });
    const warnings: unknown[] = [];
    old.on('warning', (w) => warnings.push(w));
    assert.deepEqual(await old.load(), { loaded: 1, skipped: 0 }, 'a file written before replays were kept');
    assert.deepEqual(warnings, []);
    assert.deepEqual(old.all(), [record]);
    assert.deepEqual(await old.body(record.id), Buffer.from('{}'));
    old.replayAnswered(answer('w-1', 200, { deliveryId: record.id }));
    await old.close();

    const after = new DeliveryHistory({ file });
    assert.deepEqual(await after.load(), { loaded: 1, skipped: 0 }, 'the replay line is not a record, nor unreadable');
    assert.deepEqual(after.replayAnswers(), [answer('w-1', 200, { deliveryId: record.id })]);
    assert.equal(appAcknowledged(after.all(), 'w-1', after.replayAnswers()), true);
    await after.close();
  });

  it('compaction keeps the newest answers within its share of the disk budget; Clear erases them', async () => {
    const file = fileIn();
    const diskBudgetBytes = 64 * 1024;
    const history = new DeliveryHistory({ file, diskBudgetBytes });
    await history.load();
    let compactions = 0;
    history.on('compacted', () => compactions++);
    for (let i = 0; i < 400; i++) {
      history.replayAnswered(answer(`w-${i}`, 200, { target: `${APP}?${'p'.repeat(100)}` }));
      await history.add(forwarded(`w-${i}`, 500), Buffer.from('x'.repeat(200)));
    }
    await history.flush();
    assert.ok(compactions > 0, 'the file outgrew its budget');
    assert.ok(history.bytesOnDisk <= diskBudgetBytes, `${history.bytesOnDisk}`);
    const kept = history.replayAnswers();
    await history.close();
    const again = new DeliveryHistory({ file, diskBudgetBytes });
    await again.load();
    const reloaded = again.replayAnswers();
    assert.ok(reloaded.length > 0 && reloaded.length <= kept.length, `${reloaded.length} of ${kept.length}`);
    assert.deepEqual(reloaded.at(-1), answer('w-399', 200, { target: `${APP}?${'p'.repeat(100)}` }), 'the newest');
    const inFile = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"replayed":'));
    assert.ok(inFile.join('\n').length <= diskBudgetBytes / 8, 'within an eighth of the budget');
    await again.clear();
    assert.deepEqual(again.replayAnswers(), []);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /replayed/);
    await again.close();
  });
});
