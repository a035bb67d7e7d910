// The one file writer: a link at the path (dangling, or to a file that exists) is never written through, whether the
// file is created, replaced or appended to; the refusal names the path, not the link's target.
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendFileSafely,
  openForAppend,
  replaceFileAtomically,
  UnsafeFilePath,
  writeFileSafely,
} from '../../../src/core/files';

const posixOnly = process.platform === 'win32' ? it.skip : it;

describe('writeFileSafely and its kin: never through a link', () => {
  let dir: string;
  let outside: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wfs-safe-'));
    outside = mkdtempSync(join(tmpdir(), 'wfs-outside-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  /** The refusal of a link at `path`: names it, says it is a link and that nothing was written, never the target. */
  function isLinkRefusal(path: string, target: string) {
    return (err: unknown) => {
      assert.ok(err instanceof UnsafeFilePath, String(err));
      assert.equal(err.reason, 'link');
      assert.equal(err.code, 'ELINK');
      assert.equal(err.path, path);
      assert.ok(err.message.startsWith(`${path} is a symbolic link`), err.message);
      assert.match(err.message, /nothing was written/);
      assert.ok(!err.message.includes(target), `the message names the target: ${err.message}`);
      return true;
    };
  }

  const writers: [string, (path: string) => Promise<void>][] = [
    ['create', (p) => writeFileSafely(p, 'attacker text')],
    ['replace', (p) => writeFileSafely(p, 'attacker text', { existing: 'replace' })],
    ['append', (p) => appendFileSafely(p, 'attacker text')],
    ['replace by parts', (p) => replaceFileAtomically(p, (h) => h.writeFile('attacker text'))],
  ];

  for (const [name, write] of writers) {
    it(`${name}: a dangling link at the path is refused, and its target is not created`, async () => {
      const target = join(outside, 'planted.json');
      const path = join(dir, 'out.json');
      symlinkSync(target, path);
      await assert.rejects(write(path), isLinkRefusal(path, target));
      assert.equal(existsSync(target), false);
      assert.ok(lstatSync(path).isSymbolicLink(), 'the link is left as it was');
      assert.deepEqual(readdirSync(dir), ['out.json'], 'no temporary file is left behind');
    });

    it(`${name}: a link to an existing file is refused, and that file is not changed`, async () => {
      const target = join(outside, 'victim.json');
      writeFileSync(target, 'precious');
      const path = join(dir, 'out.json');
      symlinkSync(target, path);
      await assert.rejects(write(path), isLinkRefusal(path, target));
      assert.equal(readFileSync(target, 'utf8'), 'precious');
      assert.deepEqual(readdirSync(dir), ['out.json']);
    });

    it(`${name}: a folder at the path is refused, saying so`, async () => {
      const path = join(dir, 'out.json');
      mkdirSync(path);
      await assert.rejects(write(path), (err: unknown) => {
        assert.ok(err instanceof UnsafeFilePath, String(err));
        assert.equal(err.reason, 'folder');
        assert.equal(err.message, `${path} is a folder: nothing was written. Give the path of a file.`);
        return true;
      });
      assert.deepEqual(readdirSync(dir), ['out.json']);
    });
  }

  it('create: a new file is written; an existing regular file is refused and kept as it was', async () => {
    const path = join(dir, 'new.json');
    await writeFileSafely(path, 'first');
    assert.equal(readFileSync(path, 'utf8'), 'first');
    await assert.rejects(writeFileSafely(path, 'second'), (err: unknown) => {
      assert.ok(err instanceof UnsafeFilePath);
      assert.equal(err.code, 'EEXIST');
      assert.equal(err.message, `${path} exists: nothing was written. Choose another path, or remove that file first.`);
      return true;
    });
    assert.equal(readFileSync(path, 'utf8'), 'first');
  });

  it('replace: an existing regular file is replaced whole, and a missing one created; no temporary file stays', async () => {
    const path = join(dir, 'report.xml');
    writeFileSync(path, 'a much longer old content than the new one');
    await writeFileSafely(path, 'new', { existing: 'replace' });
    assert.equal(readFileSync(path, 'utf8'), 'new');
    const fresh = join(dir, 'fresh.xml');
    await writeFileSafely(fresh, Buffer.from('bytes'), { existing: 'replace' });
    assert.equal(readFileSync(fresh, 'utf8'), 'bytes');
    assert.deepEqual(readdirSync(dir).sort(), ['fresh.xml', 'report.xml']);
  });

  it('replace: a failure while filling leaves the old file and no temporary file', async () => {
    const path = join(dir, 'export.jsonl');
    writeFileSync(path, 'old');
    await assert.rejects(
      replaceFileAtomically(path, async (h) => {
        await h.writeFile('half');
        throw new Error('disk full');
      }),
      /disk full/,
    );
    assert.equal(readFileSync(path, 'utf8'), 'old');
    assert.deepEqual(readdirSync(dir), ['export.jsonl']);
  });

  it('replace with a fixed temporary name: a link planted at that name is removed, never written through', async () => {
    const path = join(dir, 'deliveries.jsonl');
    const temp = `${path}.compacting`;
    const target = join(outside, 'through-temp.jsonl');
    writeFileSync(target, 'precious');
    symlinkSync(target, temp);
    await replaceFileAtomically(path, (h) => h.writeFile('lines\n'), { temp, sync: true });
    assert.equal(readFileSync(path, 'utf8'), 'lines\n');
    assert.equal(readFileSync(target, 'utf8'), 'precious');
    assert.equal(existsSync(temp), false);
  });

  posixOnly('mode 0600: a file that holds secrets is readable by its owner alone, created or replaced', async () => {
    const previous = process.umask(0o022);
    try {
      const path = join(dir, 'private-key.pem');
      await writeFileSafely(path, 'secret', { mode: 0o600 });
      assert.equal(statSync(path).mode & 0o777, 0o600);
      const replaced = join(dir, 'replaced.pem');
      writeFileSync(replaced, 'old', { mode: 0o644 });
      await writeFileSafely(replaced, 'secret', { mode: 0o600, existing: 'replace' });
      assert.equal(statSync(replaced).mode & 0o777, 0o600);
      const appended = join(dir, 'appended.jsonl');
      await appendFileSafely(appended, 'line\n', { mode: 0o600 });
      assert.equal(statSync(appended).mode & 0o777, 0o600);
    } finally {
      process.umask(previous);
    }
  });

  it('append: creates the file, then adds to its end', async () => {
    const path = join(dir, 'summary.md');
    await appendFileSafely(path, 'one\n');
    await appendFileSafely(path, 'two\n');
    assert.equal(readFileSync(path, 'utf8'), 'one\ntwo\n');
    const { handle, created } = await openForAppend(path, { read: true });
    try {
      assert.equal(created, false);
      const buf = Buffer.alloc(3);
      await handle.read(buf, 0, 3, 0);
      assert.equal(buf.toString(), 'one');
    } finally {
      await handle.close();
    }
  });

  posixOnly('append: a FIFO at the path is refused at once, not waited on', async function () {
    const path = join(dir, 'pipe.md');
    const { spawnSync } = await import('node:child_process');
    if (spawnSync('mkfifo', [path]).status !== 0) this.skip();
    await assert.rejects(appendFileSafely(path, 'x'), (err: unknown) => {
      assert.ok(err instanceof UnsafeFilePath, String(err));
      assert.equal(err.reason, 'not-a-file');
      return true;
    });
  });
});
