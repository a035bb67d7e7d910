// Files the extension reads whole go through VS Code's file system only when they are regular files within a bound:
// a testData file picked by mistake, or a workspace settings file that is a link to a device.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readBoundedFile } from '../../../src/extension/boundedFile';
import { MAX_TEST_DATA_BYTES } from '../../../src/extension/commands/testWebhookCommand';

describe('files read whole, through VS Code’s file system, in a real VS Code host', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-bounded-'));

  it('a small JSON file is read', async () => {
    const file = join(dir, 'data.json');
    writeFileSync(file, '{"a":1}');
    assert.equal(
      new TextDecoder().decode(await readBoundedFile(vscode.Uri.file(file), MAX_TEST_DATA_BYTES)),
      '{"a":1}',
    );
  });

  it('a file over the bound is refused by its size, before a byte of it is read', async () => {
    const file = join(dir, 'dump.json');
    writeFileSync(file, '');
    truncateSync(file, MAX_TEST_DATA_BYTES + 1); // sparse: the size without the bytes
    await assert.rejects(() => readBoundedFile(vscode.Uri.file(file), MAX_TEST_DATA_BYTES), {
      message: `${file} is 67,108,865 bytes, over the 67,108,864 bytes (64 MiB) it may be`,
    });
  });

  it('a device or a named pipe (read, they would never end) is refused, even behind a link', async function () {
    if (process.platform !== 'linux') this.skip();
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(() => readBoundedFile(vscode.Uri.file(fifo), 1024 * 1024), {
      message: `${fifo} is not a regular file`,
    });
    const link = join(dir, 'settings.json');
    symlinkSync('/dev/zero', link);
    await assert.rejects(() => readBoundedFile(vscode.Uri.file(link), 1024 * 1024), {
      message: `${link} is not a regular file`,
    });
  });
});
