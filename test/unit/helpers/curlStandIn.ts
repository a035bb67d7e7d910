// A `curl` that records what it was given, put first on PATH: each run appends one JSON line with its argv and its
// standard input (base64, so every byte survives), and sends nothing. A test then sees exactly what curl would have
// received, on any machine, curl installed or not. `realCurl` says whether the real one is there as well.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface CurlRun {
  argv: Buffer[];
  stdin: Buffer;
}

const SCRIPT = `#!/bin/sh
# curl stand-in (test/unit/helpers/curlStandIn.ts): records argv and standard input, sends nothing.
{
  printf '{"argv":['
  sep=
  for a in "$@"; do
    printf '%s"' "$sep"; printf '%s' "$a" | base64 | tr -d '\\n'; printf '"'; sep=,
  done
  printf '],"stdin":"'
  base64 | tr -d '\\n'
  printf '"}\\n'
} >> "$CURL_STAND_IN_RECORD"
`;

export class CurlStandIn {
  readonly dir = mkdtempSync(join(tmpdir(), 'wfs-curl-stand-in-'));
  private readonly record = join(this.dir, 'runs.jsonl');
  private readonly home = mkdtempSync(join(tmpdir(), 'wfs-home-'));

  constructor() {
    writeFileSync(join(this.dir, 'curl'), SCRIPT);
    chmodSync(join(this.dir, 'curl'), 0o755);
  }

  /** An environment in which `curl` is the stand-in; HOME is an empty folder, so no ~/.curlrc or ~/.bashrc is read. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: `${this.dir}${delimiter}${process.env.PATH ?? ''}`,
      HOME: this.home,
      HISTFILE: '/dev/null',
      LC_ALL: 'C',
      CURL_STAND_IN_RECORD: this.record,
      ...extra,
    };
  }

  /** Every run so far, oldest first. */
  runs(): CurlRun[] {
    if (!existsSync(this.record)) return [];
    return readFileSync(this.record, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const j = JSON.parse(l) as { argv: string[]; stdin: string };
        return { argv: j.argv.map((a) => Buffer.from(a, 'base64')), stdin: Buffer.from(j.stdin, 'base64') };
      });
  }
}

/** Runs `command` as bash would from a paste: `-c`, or (interactive) read from standard input by `bash -i`, where
 * history expansion (`!x`) is on as in a terminal. Resolves with the exit code and what bash said. */
export function runBash(
  command: string,
  env: Record<string, string>,
  opts: { interactive?: boolean; cwd?: string } = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const args = opts.interactive ? ['--norc', '--noprofile', '-i'] : ['--norc', '--noprofile', '-c', command];
  const child = spawn('bash', args, { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(opts.interactive ? `${command}\nexit\n` : undefined);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, stdout }));
  });
}

/** Whether the real curl is on this machine's PATH. */
export function realCurl(): boolean {
  return spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;
}
