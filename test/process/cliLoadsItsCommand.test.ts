// Each face loads what it needs: `wfs --help`, `wfs --version` and every other command's help read no MCP SDK, zod or
// ajv code; `wfs mcp` does (the check can fail). The files come from Node's own module loader, recorded by a load
// hook (module.register) as each is read, and are searched for text only those libraries carry. Nothing is timed
// here: bench/cliStartup.mjs measures start-up.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from './helpers/wfsProcess';

/** Text that survives minification, each in one library only. */
const MARKERS: Record<string, string> = {
  'the MCP SDK': 'notifications/initialized',
  zod: 'ZodError',
  ajv: 'strictTypes',
};

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The files of ours (not Node's built-ins) that were loaded, and which libraries' text each holds. */
  files: { file: string; holds: string[] }[];
}

function run(args: string[]): Run {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-loads-'));
  const log = join(dir, 'loaded.txt');
  writeFileSync(
    join(dir, 'record.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister('./record.mjs', import.meta.url);\n`,
  );
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', join(dir, 'register.mjs'), CLI, ...args], {
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    input: '', // wfs mcp: the client closes stdin at once, so the server stops after its ready line
    timeout: 60_000,
  });
  const urls = readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith('file:'));
  const files = urls.map((u) => {
    const text = readFileSync(fileURLToPath(u), 'utf8');
    return { file: fileURLToPath(u), holds: Object.keys(MARKERS).filter((lib) => text.includes(MARKERS[lib]!)) };
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, files };
}

const heldBy = (r: Run) => [...new Set(r.files.flatMap((f) => f.holds))].sort();

describe('wfs loads only what the command it runs needs', function () {
  this.timeout(90_000);

  for (const args of [['--help'], ['--version'], ['mcp', '--help'], ['listen', '--help']])
    it(`wfs ${args.join(' ')} loads no MCP SDK, zod or ajv code`, () => {
      const r = run(args);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.stdout.length > 0);
      assert.ok(
        r.files.some((f) => f.file === CLI),
        `the hook saw the files loaded: ${r.files.map((f) => f.file).join(', ')}`,
      );
      assert.deepEqual(heldBy(r), []);
    });

  it('wfs mcp loads them (so the check above can fail), and still reaches its ready line', () => {
    const r = run(['mcp']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /"event":"ready","transport":"stdio"/);
    assert.deepEqual(heldBy(r), Object.keys(MARKERS).sort());
  });
});
