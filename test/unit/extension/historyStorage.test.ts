// The panel says where the history is and what it costs, in bytes a person reads.
import assert from 'node:assert/strict';
import { byteSize } from '../../../src/core/byteSize';
import { historyStorageNote } from '../../../src/extension/panel/historyStorage';

describe('the history storage note', () => {
  it('writes sizes in binary units', () => {
    assert.deepEqual([0, 1023, 1536, 10 * 1024, 64 * 1024 * 1024 - 1, 3 * 1024 ** 3].map(byteSize), [
      '0 bytes',
      '1023 bytes',
      '1.5 KiB',
      '10 KiB',
      '64 MiB',
      '3.0 GiB',
    ]);
  });

  it('on disk: names the file and both sizes, and how to keep it off the disk', () => {
    assert.equal(
      historyStorageNote('/s/deliveries.jsonl', 2048, 5 * 1024 * 1024),
      'The history is kept in /s/deliveries.jsonl (5.0 MiB on disk, 2.0 KiB in memory); Clear erases it (wfs.receiver.historyStorage: memory keeps it off the disk).',
    );
  });

  it('in memory only: the size in memory, and that it goes with VS Code', () => {
    assert.equal(
      historyStorageNote(undefined, 300, 0),
      'The history is kept in memory only (300 bytes; wfs.receiver.historyStorage) and is gone when VS Code closes.',
    );
    // Another window holds the file: this one says so, rather than blaming the setting.
    assert.equal(
      historyStorageNote(undefined, 300, 0, { file: '/s/deliveries.jsonl', holder: 'wfs listen (pid 4242)' }),
      'The history is kept in memory only in this window (300 bytes): wfs listen (pid 4242) keeps /s/deliveries.jsonl. It is gone when this window closes.',
    );
  });
});
