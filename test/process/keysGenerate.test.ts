// `wfs keys generate` as a user runs it: on a terminal it says what it wrote and what to run next; piped, the same
// JSON line as before. A folder other users can write, or a link left at a key file's name, is refused with nothing
// written (issue #67); the text names the fix.
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WfsProcess } from './helpers/wfsProcess';
import { hasScript, onTerminal, plain } from './helpers/terminal';

async function wfs(args: string[]): Promise<WfsProcess> {
  const p = new WfsProcess(args);
  await p.exited;
  return p;
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const posixOnly = process.platform === 'win32' ? it.skip : it;

describe('wfs keys generate', () => {
  let base: string;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'wfs-keysgen-'));
  });

  it('on a terminal: what it wrote, where, and the next steps (listen --trust-keys, sign --keys); no JSON', async function () {
    if (!hasScript) this.skip();
    const dir = join(base, 'my keys');
    const t = onTerminal(['keys', 'generate', '--out', dir, '--audience', 'my-app'], { NO_COLOR: '1' });
    assert.equal(await t.exited, 0, t.out());
    const text = plain(t.out());
    assert.doesNotMatch(text, /\{"event"|files=|\["/);
    assert.match(text, new RegExp(`^✓ Wrote a test key pair to ${escaped(dir)}\\n`));
    assert.match(
      text,
      /\n {2}issuer +https:\/\/issuer\.test\.invalid\/webhooks\n {2}audience +my-app\n {2}kid +[\w-]+\n/,
    );
    assert.match(
      text,
      /\n {2}public +issuer\.json, jwks\.json\n {2}private +private-key\.jwk\.json, private-key\.pem \(readable by you alone\)\n/,
    );
    assert.match(text, /A test key: never trust it outside tests\./);
    assert.match(
      text,
      new RegExp(`\\n {4}wfs listen --trust-keys '${escaped(dir)}' +a receiver that trusts this key\\n`),
    );
    assert.match(
      text,
      new RegExp(`\\n {4}wfs sign --body event\\.json --keys '${escaped(dir)}' +the Authorization header`),
    );
    assert.deepEqual(readdirSync(dir).sort(), ['issuer.json', 'jwks.json', 'private-key.jwk.json', 'private-key.pem']);
  });

  it('piped: one JSON line with the fields it always had', async () => {
    const dir = join(base, 'piped');
    const g = await wfs(['keys', 'generate', '--out', dir]);
    assert.equal(await g.exitCode(), 0, g.stderr);
    assert.equal(g.lines.length, 1);
    assert.deepEqual(Object.keys(g.lines[0]!), ['event', 'dir', 'kid', 'issuer', 'audience', 'files']);
    assert.deepEqual(g.lines[0]!.files, [
      join(dir, 'issuer.json'),
      join(dir, 'jwks.json'),
      join(dir, 'private-key.jwk.json'),
      join(dir, 'private-key.pem'),
    ]);
  });

  posixOnly(
    'a world- or group-writable folder is refused with the command that fixes it; nothing is written',
    async () => {
      for (const [mode, who] of [
        [0o777, 'every user'],
        [0o775, 'its group'],
      ] as const) {
        const dir = join(base, `open-${mode.toString(8)}`);
        mkdirSync(dir);
        chmodSync(dir, mode);
        const g = await wfs(['keys', 'generate', '--out', dir]);
        assert.equal(await g.exitCode(), 2, g.stdout);
        assert.equal(
          g.lines.at(-1)!.message,
          `${dir} can be written by ${who} (mode 0${mode.toString(8)}): ${who === 'every user' ? 'any user' : 'any member'} could replace the keys written there, so nothing was written. Run \`chmod go-w ${dir}\`, or choose another folder (--out DIR).`,
        );
        assert.deepEqual(readdirSync(dir), []);
        chmodSync(dir, 0o755);
        const again = await wfs(['keys', 'generate', '--out', dir]);
        assert.equal(await again.exitCode(), 0, 'after chmod go-w it writes');
      }
    },
  );

  it("a dangling link at one key file's name: refused, its target not created, no other key file left behind", async () => {
    const dir = join(base, 'linked');
    mkdirSync(dir, { mode: 0o700 });
    const target = join(base, 'planted.pem');
    symlinkSync(target, join(dir, 'private-key.pem'));
    const g = await wfs(['keys', 'generate', '--out', dir]);
    assert.equal(await g.exitCode(), 2, g.stdout);
    assert.match(g.lines.at(-1)!.message, /already holds private-key\.pem: nothing was written/);
    assert.deepEqual(readdirSync(dir), ['private-key.pem']);
    assert.equal(existsSync(target), false);
  });

  it("a link at one key file's name to an existing file: refused, that file unchanged, no key file written", async () => {
    const dir = join(base, 'linked-existing');
    mkdirSync(dir, { mode: 0o700 });
    const target = join(base, 'victim.pem');
    writeFileSync(target, 'precious');
    symlinkSync(target, join(dir, 'private-key.jwk.json'));
    const g = await wfs(['keys', 'generate', '--out', dir]);
    assert.equal(await g.exitCode(), 2, g.stdout);
    assert.match(g.lines.at(-1)!.message, /already holds private-key\.jwk\.json: nothing was written/);
    assert.doesNotMatch(g.lines.at(-1)!.message, /victim/);
    assert.deepEqual(readdirSync(dir), ['private-key.jwk.json']);
    assert.equal(readFileSync(target, 'utf8'), 'precious');
  });
});
