// `wfs --help` and `wfs --version` load no command's code: nothing undici or jose need (Node's tls, http, http2 and
// crypto; not net, which a piped stdout loads itself) is loaded, which keeps their start-up near Node's own
// (bench/cliStartup.mjs measures it; no test here times anything). A command loads its code when it runs, or for its
// own --help.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './helpers/wfsProcess';

const HEAVY = ['tls', 'http', 'https', 'http2', 'crypto', 'zlib', 'worker_threads'];

/** The built-in modules of Node that `wfs args` loaded, recorded by a --require hook at its exit. */
function builtinsLoaded(
  args: string[],
  env: Record<string, string> = {},
): { loaded: string[]; stdout: string; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-startup-'));
  const hook = join(dir, 'hook.cjs');
  const record = join(dir, 'modules.json');
  writeFileSync(
    hook,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.moduleLoadList)));`,
  );
  const r = spawnSync(process.execPath, ['--require', hook, CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  const list = JSON.parse(readFileSync(record, 'utf8')) as string[];
  const loaded = list.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  return { loaded, stdout: r.stdout, status: r.status };
}

describe('wfs start-up: help and version load no command', () => {
  for (const args of [['--help'], ['--version']])
    it(`wfs ${args[0]} loads none of ${HEAVY.join(', ')} (so neither undici nor jose)`, () => {
      const r = builtinsLoaded(args);
      assert.equal(r.status, 0);
      assert.ok(r.stdout.length > 0);
      assert.deepEqual(
        r.loaded.filter((m) => HEAVY.includes(m)),
        [],
      );
    });

  it('wfs --help and --version to a reader that is already gone: exit 0, nothing on stderr', () => {
    // `true` exits at once, long before wfs has started: its write meets a closed pipe (EPIPE).
    for (const arg of ['--help', '--version']) {
      // Its exit code comes back on descriptor 3, apart from the pipe.
      const r = spawnSync('sh', ['-c', `{ "${process.execPath}" "${CLI}" ${arg}; echo $? >&3; } | true`], {
        env: { PATH: process.env.PATH ?? '' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      });
      assert.equal(String(r.output[3]).trim(), '0', `${arg}: ${r.stderr}`);
      assert.equal(r.stderr, '', arg);
    }
  });

  it('a command loads its code when it runs: wfs sign-in, sending, loads undici (the check above can fail)', () => {
    // Port 9 on loopback refuses at once: the sign-in is sent, so undici (and Node's http under it) is loaded.
    const r = builtinsLoaded(['sign-in'], {
      WFS_BASE_URL: 'http://127.0.0.1:9',
      WFS_USERNAME: 'someone',
      WFS_PASSWORD: 'secret',
    });
    assert.equal(r.status, 1);
    assert.ok(r.loaded.includes('tls') && r.loaded.includes('http'), r.loaded.join(' '));
  });
});
