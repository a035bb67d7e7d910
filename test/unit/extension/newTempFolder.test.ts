// Copy as cmd.exe / Copy as PowerShell's request files and Edit and Resend's fixture document are written by
// writeInNewTempFolder (#74, item 2). A plain unit test, not a host test: the folder's name is mkdtemp's, unknown
// before it exists, so no test (and no attacker) can plant a link at it beforehand through the UI. Here the link
// is planted at the very path the writer names, after the folder exists and just before the write, which is the
// most an attacker could manage: the write is refused, the link's target is neither created nor changed, and the
// folder is gone again.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeInNewTempFolder } from '../../../src/extension/newTempFolder';

describe('writeInNewTempFolder (Copy as cmd.exe / PowerShell, Edit and Resend)', () => {
  it('writes each file new, 0600, in a new 0700 folder under the temp folder', async () => {
    const base = mkdtempSync(join(tmpdir(), 'wfs-tempfolder-'));
    const { dir, value } = await writeInNewTempFolder(
      'wfs-delivery-',
      (d) => ({
        files: [
          { path: join(d, 'request.curl'), bytes: 'url = "http://127.0.0.1/"\n' },
          { path: join(d, 'body.bin'), bytes: Buffer.from([0, 1, 2]) },
        ],
        value: 'the command',
      }),
      base,
    );
    assert.equal(value, 'the command');
    assert.match(dir, /\/wfs-delivery-[^/]+$/);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(dir).sort(), ['body.bin', 'request.curl']);
    for (const f of readdirSync(dir)) assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600, f);
    assert.deepEqual([...readFileSync(join(dir, 'body.bin'))], [0, 1, 2]);
  });

  for (const kind of ['dangling', 'to a file that exists'] as const)
    it(`a symbolic link (${kind}) planted at a file's path is refused: its target is neither created nor changed, and the folder is removed`, async () => {
      const base = mkdtempSync(join(tmpdir(), 'wfs-tempfolder-'));
      const elsewhere = mkdtempSync(join(tmpdir(), 'wfs-elsewhere-'));
      const target = join(elsewhere, kind === 'dangling' ? 'planted.json' : 'victim.json');
      if (kind !== 'dangling') writeFileSync(target, 'precious');
      await assert.rejects(
        writeInNewTempFolder(
          'wfs-resend-',
          (d) => {
            const path = join(d, 'delivery-1.webhook.json');
            symlinkSync(target, path);
            return { files: [{ path, bytes: '{"attacker": "text"}' }], value: path };
          },
          base,
        ),
        /delivery-1\.webhook\.json is a symbolic link, and a file is never written through one: nothing was written/,
      );
      if (kind === 'dangling') assert.equal(existsSync(target), false);
      else assert.equal(readFileSync(target, 'utf8'), 'precious');
      assert.deepEqual(readdirSync(base), [], 'the new folder is removed');
    });
});
