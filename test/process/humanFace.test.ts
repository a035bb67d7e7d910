// The two faces of wfs: on a terminal (a pseudo-terminal from util-linux's `script`) text for people, coloured unless
// NO_COLOR; piped, or with --json, the JSON lines scripts rely on, unchanged. Waiting is on the process's exit.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { CLI, withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { startArgs, testWebhookArgs } from './helpers/commandArgs';

const ESC = '\x1b[';
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let hasScript = true;
try {
  execFileSync('script', ['--version'], { stdio: 'ignore' });
} catch {
  hasScript = false;
}

/** `wfs args` on a pseudo-terminal: everything it wrote there (stdout and stderr both), and its exit code. */
async function onTerminal(args: string[], env: Record<string, string>): Promise<{ out: string; code: number | null }> {
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  // What the screen shows: a spinner line erased and redrawn in place ("\r\x1b[K") leaves only what was written last.
  const shown = out
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.split('\r\x1b[K').pop()!)
    .join('\n');
  return { out: shown, code };
}

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('wfs on a terminal and in a pipe', function () {
  this.timeout(60_000);
  // Registered before the sandbox's hooks: without `script` no sandbox is started.
  before(function () {
    if (!hasScript) this.skip();
  });
  const s = withSandboxProcess(['--workflow-duration', '1']);
  /** A workflow started (piped) and followed to complete, for find to show. */
  const completed = async (cid: string) =>
    assert.equal(await new WfsProcess([...startArgs(s), '--follow', '--correlation-id', cid], s.env).exitCode(), 0);

  it('start --follow on a terminal: text with colour (no JSON), the workflow id, its correlationId and the end status; exit 0', async () => {
    const { out, code } = await onTerminal([...startArgs(s), '--follow', '--correlation-id', 'tty-follow'], s.env);
    assert.equal(code, 0, out);
    assert.ok(out.includes(ESC), 'coloured');
    assert.doesNotMatch(out, /\{"event"/);
    const text = plain(out);
    assert.match(
      text,
      /^✓ Started workflow wf_\w+ \(Appraisal Standard\): processing\n {2}correlationId +tty-follow\n/,
    );
    assert.match(text, /\n\d\d:\d\d:\d\d {2}complete {2}.*wf_\w+ {2}run wfrun_\w+\n$/);
  });

  it('NO_COLOR on a terminal: the same text without a single escape code', async () => {
    await completed('tty-find');
    const { out, code } = await onTerminal(['find', '--correlation-id', 'tty-find'], { ...s.env, NO_COLOR: '1' });
    assert.equal(code, 0, out);
    assert.ok(!out.includes(ESC), JSON.stringify(out));
    assert.match(out, /^✓ 1 workflow with correlationId tty-find:\n {2}wf_\w+ +complete/);
  });

  it("an error on a terminal: a ✗ line that says what to do, and the command's own exit code (7 for a failed delivery)", async () => {
    const { out, code } = await onTerminal(testWebhookArgs('http://127.0.0.1:9/webhooks'), { ...s.env, NO_COLOR: '1' });
    assert.equal(code, 7, out);
    assert.match(
      out,
      /^✗ Test webhook [\w-]+ sent to http:\/\/127\.0\.0\.1:9\/webhooks: not delivered: the service could not reach the address: cannot reach .*ECONNREFUSED/m,
    );
    assert.match(
      out,
      /^✗ not delivered: the service could not reach the address: .* Check that your receiver is running/m,
    );
  });

  it('--json on a terminal, and any pipe: JSON lines with the same fields as before', async () => {
    const tty = await onTerminal([...startArgs(s), '--json', '--correlation-id', 'tty-json'], s.env);
    assert.equal(tty.code, 0, tty.out);
    const line = JSON.parse(tty.out.trim());
    assert.deepEqual(Object.keys(line), ['event', 'correlationId', 'workflow', 'links', 'messages']);
    const piped = new WfsProcess([...startArgs(s), '--follow', '--correlation-id', 'piped'], {
      ...s.env,
      FORCE_COLOR: '1',
    });
    assert.equal(await piped.exitCode(), 0, piped.stdout + piped.stderr);
    assert.ok(!piped.stdout.includes(ESC), 'FORCE_COLOR colours text, never JSON');
    assert.deepEqual(
      piped.lines.map((l) => l.event),
      ['started', 'status'],
    );
    assert.deepEqual(Object.keys(piped.lines[0]!), ['event', 'correlationId', 'workflow', 'links', 'messages']);
    assert.deepEqual(Object.keys(piped.lines[1]!), ['event', 'at', 'workflow', 'links']);
    assert.equal(piped.lines[1]!.workflow.status, 'complete');
  });

  it('--human in a pipe with FORCE_COLOR (a CI log): text, coloured', async () => {
    await completed('ci-log');
    const p = new WfsProcess(['find', '--correlation-id', 'ci-log', '--human'], { ...s.env, FORCE_COLOR: '1' });
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    assert.ok(p.stdout.includes(ESC));
    assert.match(plain(p.stdout), /^✓ 1 workflow with correlationId ci-log:/);
  });
});
