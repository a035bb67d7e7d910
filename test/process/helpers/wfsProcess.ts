// `wfs` as a user runs it: a spawned process with real timers and real sockets, read line by line. Waiting is on
// lines and exits, never on wall-clock sleeps; mocha's timeout is only the backstop.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawRequest, type RawResponse } from '../../unit/helpers/rawHttp';

/** The bundled CLI, as `npm run build` makes it (out/test/process/helpers → the repository root); WFS_TEST_CLI runs
 * the tier against another build, e.g. an older commit's, to see a test fail there. */
export const CLI = process.env.WFS_TEST_CLI ?? join(__dirname, '../../../../dist/cli.js');

export type Line = Record<string, any>;

/** Where the spawned commands keep state (a sandbox on a fixed port keeps its key there): never the runner's home. */
export const TEST_STATE_DIR = mkdtempSync(join(tmpdir(), 'wfs-state-'));

export interface WfsOptions {
  cli?: string;
  bin?: string;
  cwd?: string;
  stdin?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Every process still running; killed after each test, so a failed assertion never leaves one behind. */
const LIVE = new Set<ChildProcess>();

/** The control secret of each sandbox started here, by baseUrl. A command given one of these addresses
 * (--trust-sandbox, --sandbox-url) gets WFS_SANDBOX_SECRET as its user would set it, unless the test sets that
 * variable itself (to '' to leave it out). */
const SANDBOX_SECRETS = new Map<string, string>();

/** The secret of a sandbox this suite started at baseUrl ('' for any other address). */
export function sandboxSecretFor(baseUrl: string): string {
  return SANDBOX_SECRETS.get(baseUrl.replace(/\/+$/, '')) ?? '';
}

const SANDBOX_ADDRESS_FLAGS = ['--trust-sandbox', '--sandbox-url'];

function withSandboxSecret(args: string[], env: Record<string, string>): Record<string, string> {
  if ('WFS_SANDBOX_SECRET' in env) return env;
  const i = args.findIndex((a) => SANDBOX_ADDRESS_FLAGS.includes(a));
  let secret = i >= 0 && args[i + 1] !== undefined ? sandboxSecretFor(args[i + 1]) : '';
  // A shell line (`bash -c 'wfs listen --trust-sandbox URL | head'`) names the address inside one argument.
  const line = args.join(' ');
  if (!secret && SANDBOX_ADDRESS_FLAGS.some((f) => line.includes(f)))
    secret = [...SANDBOX_SECRETS].find(([url]) => line.includes(url))?.[1] ?? '';
  return secret ? { ...env, WFS_SANDBOX_SECRET: secret } : env;
}

/** Mocha root hooks (test/process/.mocharc.json requires this file). */
/** @public mocha loads it through .mocharc.json (require): the root hooks of the process tier. */
export const mochaHooks = {
  afterEach(): void {
    for (const child of LIVE) child.kill('SIGKILL');
    LIVE.clear();
  },
};

export class WfsProcess {
  readonly child: ChildProcess;
  readonly lines: Line[] = [];
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private readonly waiters: (() => void)[] = [];
  private ended = false;

  /** `env` is all the child sees besides PATH and HOME: no proxy or WFS_* variable leaks in from the runner. */
  constructor(args: string[], env: Record<string, string> = {}, opts: WfsOptions = {}) {
    // `bin` runs an installed `wfs` as a shell would (its shebang and node from PATH); otherwise this node runs `cli`.
    const [file, argv] = opts.bin ? [opts.bin, args] : [process.execPath, [opts.cli ?? CLI, ...args]];
    this.child = spawn(file, argv, {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        WFS_STATE_DIR: TEST_STATE_DIR,
        ...withSandboxSecret(args, env),
      },
      cwd: opts.cwd,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    LIVE.add(this.child);
    this.child.once('exit', () => LIVE.delete(this.child));
    if (opts.stdin !== undefined) this.child.stdin!.end(opts.stdin);
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    createInterface({ input: this.child.stdout! }).on('line', (text) => {
      this.stdout += text + '\n';
      try {
        this.lines.push(JSON.parse(text));
      } catch {
        this.lines.push({ event: 'text', text });
      }
      this.wake();
    });
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        this.ended = true;
        this.wake();
        resolve({ code, signal });
      }),
    );
  }

  /** The first line (already printed or still to come) that matches; rejects if the process ends without one. */
  async line(match: (l: Line) => boolean, what = 'the expected line'): Promise<Line> {
    for (;;) {
      const found = this.lines.find(match);
      if (found) return found;
      if (this.ended) throw new Error(`wfs ended without ${what}; stdout:\n${this.stdout}stderr:\n${this.stderr}`);
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  event(name: string): Promise<Line> {
    return this.line((l) => l.event === name, `an "${name}" line`);
  }

  /** Lines with this event name, in order. */
  events(name: string): Line[] {
    return this.lines.filter((l) => l.event === name);
  }

  async exitCode(): Promise<number | null> {
    return (await this.exited).code;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.child.kill(signal);
  }

  /** Stops it as a user would, by a signal, and asserts it exits 0. A test calls it last, not in a finally: when a
   * test fails before it, the root hook kills the process and the test's own error is what is reported. */
  async stopCleanly(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    this.kill(signal);
    assert.equal(await this.exitCode(), 0, `stopped by ${signal}, it exits 0; stderr:\n${this.stderr}`);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

export interface SandboxProcess {
  proc: WfsProcess;
  info: Line;
  /** The service environment a CLI user sets for this sandbox. */
  env: Record<string, string>;
  /** Calls its control API as its owner: with its secret (and a JSON content type when there is a body). */
  control(method: string, path: string, json?: unknown): Promise<RawResponse>;
  /** Request lines the sandbox printed, as "METHOD path status". */
  requests(): string[];
  stop(): Promise<void>;
}

export async function startSandboxProcess(args: string[] = [], opts: WfsOptions = {}): Promise<SandboxProcess> {
  const proc = new WfsProcess(['sandbox', '--port', '0', ...args], {}, opts);
  // A sandbox may serve a whole suite (started in before()): it is stopped by its owner, not after each test.
  LIVE.delete(proc.child);
  const info = await proc.event('ready');
  SANDBOX_SECRETS.set(info.baseUrl, info.controlSecret);
  return {
    proc,
    info,
    env: { WFS_BASE_URL: info.baseUrl, WFS_USERNAME: info.username, WFS_PASSWORD: info.password },
    control: (method, path, json) =>
      rawRequest(`${info.baseUrl}/sandbox/${path}`, {
        method,
        json,
        headers: ownerHeaders(method, info.controlSecret),
      }),
    requests: () => proc.events('request').map((r) => `${r.method} ${r.path} ${r.status}`),
    stop: async () => {
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

/** What the sandbox's owner sends to its control API: the secret, and for a POST or PUT the JSON content type (a
 * bodyless one too, as the control API requires). */
function ownerHeaders(method: string, secret: string): Record<string, string> {
  return {
    'x-sandbox-secret': secret,
    ...(method === 'POST' || method === 'PUT' ? { 'content-type': 'application/json' } : {}),
  };
}

/** The sandbox's own request lines arrive asynchronously: wait until it has printed this many. */
export async function sandboxRequests(s: SandboxProcess, count: number): Promise<string[]> {
  await s.proc.line(() => s.proc.events('request').length >= count, `${count} request lines`);
  return s.requests();
}

/**
 * A `wfs sandbox` process for the tests of the suite it is called in: started before them (before each one with
 * `perTest`, for tests that change the sandbox's state) and stopped after. What it returns stands for the running
 * sandbox; it is read only inside those tests.
 */
export function withSandboxProcess(args: string[] = [], opts: WfsOptions & { perTest?: boolean } = {}): SandboxProcess {
  let current: SandboxProcess | undefined;
  const [setUp, tearDown] = opts.perTest ? [beforeEach, afterEach] : [before, after];
  setUp(async () => {
    current = await startSandboxProcess(args, opts);
  });
  tearDown(async () => {
    await current?.stop();
    current = undefined;
  });
  return new Proxy({} as SandboxProcess, {
    get(_target, key: keyof SandboxProcess) {
      if (!current) throw new Error(`the sandbox of withSandboxProcess() runs only during its suite's tests`);
      return current[key];
    },
  });
}
