// Keeping the history in memory must not leave the deliveries kept before on disk with nothing to erase them.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eraseHistoryFile } from '../../../src/core/webhooks/eraseHistory';
import { HistoryLock } from '../../../src/core/webhooks/historyLock';
import { leftoverOf } from '../../../src/core/webhooks/historyFile';

const fileIn = () => join(mkdtempSync(join(tmpdir(), 'wfs-erase-')), 'deliveries.jsonl');

describe('erasing the history file kept before (historyStorage: memory)', () => {
  it("erases the file and a compaction's leftover, says how many bytes, and leaves no lock", async () => {
    const file = fileIn();
    writeFileSync(file, 'a'.repeat(3000));
    writeFileSync(leftoverOf(file), 'b'.repeat(10));
    assert.deepEqual(await eraseHistoryFile(file, 'a VS Code window'), { erased: 3000 });
    assert.deepEqual(
      [existsSync(file), existsSync(leftoverOf(file)), existsSync(HistoryLock.lockPath(file))],
      [false, false, false],
    );
  });

  it('no file: nothing to erase, and no lock is made (its folder need not exist)', async () => {
    const file = join(fileIn(), 'missing-folder', 'deliveries.jsonl');
    assert.deepEqual(await eraseHistoryFile(file), { erased: 0 });
    assert.equal(existsSync(HistoryLock.lockPath(file)), false);
  });

  it('a file another live process keeps is left alone, and that process is named', async () => {
    const file = fileIn();
    writeFileSync(file, 'kept\n');
    writeFileSync(
      HistoryLock.lockPath(file),
      JSON.stringify({ pid: process.ppid, host: hostname(), name: 'wfs listen', token: 'theirs' }),
    );
    const outcome = await eraseHistoryFile(file);
    assert.ok('heldBy' in outcome);
    assert.equal(outcome.heldBy.holder?.pid, process.ppid);
    assert.equal(existsSync(file), true);
  });
});
