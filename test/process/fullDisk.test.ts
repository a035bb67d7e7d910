// `wfs listen --log FILE` on a disk that is really full: a small tmpfs mounted for the test, filled with a file, then
// emptied. Unit tests inject ENOSPC into DeliveryHistory; this is the process, its file, its lock and its answers as
// a user meets them when the disk fills up under it.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fillDisk, tmpfsOrSkip } from '../unit/helpers/tmpfs';
import { recordsIn, sendDelivery, signedDeliveries } from './helpers/deliveries';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const KIB = 1024;

describe('wfs listen --log on a full disk, as a process', function () {
  this.timeout(60_000);
  let dir: string;
  let unmount: (() => void) | undefined;
  // Registered before the sandbox's hooks: a skip here skips starting it too.
  before(function () {
    ({ dir, unmount } = tmpfsOrSkip(this, 2048 * KIB));
  });
  after(() => unmount?.());
  const s = withSandboxProcess();
  afterEach(() => {
    for (const name of ['deliveries.jsonl', 'deliveries.jsonl.lock', 'filler'])
      rmSync(join(dir, name), { force: true });
  });

  it('starting on a full disk: the error names it, no lock is left behind, and the start once space is freed takes the file', async () => {
    const file = join(dir, 'deliveries.jsonl');
    fillDisk(join(dir, 'filler'));
    const args = ['listen', '--trust-sandbox', s.info.baseUrl, '--log', file];
    const full = new WfsProcess(args);
    const error = await full.event('error');
    assert.equal(await full.exitCode(), 2);
    assert.match(error.message, /^--log .*deliveries\.jsonl: .*no space left on device/);
    // An empty lock reads as "another process is taking it now" for ten seconds, to this user's next try too.
    assert.equal(existsSync(`${file}.lock`), false, 'the lock that could not be written is removed');

    rmSync(join(dir, 'filler'));
    const again = new WfsProcess(args);
    assert.deepEqual((await again.event('history')).loaded, 0);
    await again.event('ready');
    await again.stopCleanly();
  });

  it('the disk fills while it runs: nothing is acknowledged unwritten, 503 until space is freed, then 200 again, and a restart reads back every acknowledged delivery', async () => {
    const file = join(dir, 'deliveries.jsonl');
    // About 80 KB a line (the body and its record): two fit in what the filler leaves, the third tears.
    const deliveries = await signedDeliveries(s.info.baseUrl, 8, { topic: 'disk/full', pad: 60_000, tag: 'd' });
    const args = ['listen', '--trust-sandbox', s.info.baseUrl, '--log', file];
    const listen = new WfsProcess(args);
    const { url } = await listen.event('ready');
    fillDisk(join(dir, 'filler'), 200 * KIB);

    const acknowledged: string[] = [];
    const refused: string[] = [];
    for (const d of deliveries.slice(0, 5)) {
      const status = await sendDelivery(url, d);
      assert.ok(status === 200 || status === 503, `answered ${status}`);
      (status === 200 ? acknowledged : refused).push(d.id);
    }
    assert.ok(
      acknowledged.length >= 1 && refused.length >= 1,
      `acknowledged ${acknowledged.length}, refused ${refused.length}`,
    );
    const warning = await listen.line(
      (l) => l.event === 'warning' && /could not be written/.test(l.message),
      'the warning',
    );
    assert.match(warning.message, /no space left on device.*answered 503 until it can/);
    // Verification failed nowhere: every 503 says the history could not be written. (A line is printed after its
    // answer leaves: wait for them.)
    const answered503 = () => listen.events('delivery').filter((l) => l.status === 503);
    await listen.line(() => answered503().length === refused.length, 'a delivery line for each 503');
    assert.ok(answered503().every((l) => l.verified === true));

    // Space freed: the same receiver takes deliveries again, without a restart; the service's retries of the
    // refused ones are accepted.
    rmSync(join(dir, 'filler'));
    for (const d of [...deliveries.filter((x) => refused.includes(x.id)), ...deliveries.slice(5)]) {
      assert.equal(await sendDelivery(url, d), 200, `delivery ${d.id} once space is freed`);
      acknowledged.push(d.id);
    }
    await listen.stopCleanly();

    // A write cut short by the full disk leaves at most one torn line, and never glues the next record onto it.
    const { records, unreadable } = recordsIn(file);
    assert.ok(unreadable <= 1, `${unreadable} unreadable lines`);
    const inFile = new Set(records.map((r) => r.webhookId));
    assert.deepEqual(
      acknowledged.filter((id) => !inFile.has(id)),
      [],
      'every acknowledged delivery is in the file',
    );

    const again = new WfsProcess(args);
    const history = await again.event('history');
    assert.equal(history.skipped, unreadable);
    assert.equal(history.loaded, records.length);
    await again.event('ready');
    await again.stopCleanly();
  });
});
