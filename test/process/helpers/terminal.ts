// `wfs` on a pseudo-terminal (util-linux's `script`), as a person runs it: stdout is a TTY, so it speaks text.
import { execFileSync, spawn } from 'node:child_process';
import { CLI, sandboxSecretFor } from './wfsProcess';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Escape codes of colour (SGR) removed. */
export const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');

export interface TerminalRun {
  /** What the terminal shows so far (stdout and stderr both), "\r\n" as "\n", redrawn lines resolved. */
  out(): string;
  /** Every byte written so far ("\r\n" as "\n"), the redraws included. */
  raw(): string;
  /** Resolves once the output matches. */
  waitFor(re: RegExp): Promise<string>;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
}

/** Starts `wfs args` on a pseudo-terminal; a --sandbox-url or --trust-sandbox address started by this suite gets its
 * secret as WFS_SANDBOX_SECRET. */
export function onTerminal(args: string[], env: Record<string, string> = {}): TerminalRun {
  const i = args.findIndex((a) => a === '--sandbox-url' || a === '--trust-sandbox');
  const secret = i >= 0 && !('WFS_SANDBOX_SECRET' in env) ? sandboxSecretFor(args[i + 1] ?? '') : '';
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...env,
      ...(secret ? { WFS_SANDBOX_SECRET: secret } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: (() => void)[] = [];
  const add = (d: Buffer) => {
    out += d.toString('utf8');
    for (const w of waiters.splice(0)) w();
  };
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  const exited = new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const w of waiters.splice(0)) w();
  });
  // What the screen shows: a spinner line erased and redrawn in place ("\r\x1b[K") leaves only what was written last.
  const text = () =>
    out
      .replace(/\r\n/g, '\n')
      .split('\n')
      .map((line) => line.split('\r\x1b[K').pop()!)
      .join('\n');
  return {
    out: text,
    raw: () => out.replace(/\r\n/g, '\n'),
    exited,
    kill: (signal = 'SIGTERM') => {
      // `script` passes the terminal's signals on to its child; kill the child's group through script itself.
      child.kill(signal);
    },
    async waitFor(re) {
      for (;;) {
        if (re.test(plain(text()))) return plain(text());
        if (ended) throw new Error(`ended without ${re}; output:\n${text()}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}
