// The spinner line of waits on a terminal: drawn while start waits, while --follow waits between polls, and as a
// countdown during a 429 backoff; erased before each line (so the text stays clean); never with --json on a terminal,
// never in a pipe (even with --human and FORCE_COLOR).
import assert from 'node:assert/strict';
import { startSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';
import { hasScript, onTerminal } from './helpers/terminal';
import { startArgs } from './helpers/commandArgs';

const ERASE = '\r\x1b[K';
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

/** What a terminal shows in the end: each erase-and-redraw replaced by the line written after it. */
const shown = (raw: string) =>
  raw
    .split('\n')
    .map((line) => line.split(ERASE).pop()!)
    .join('\n');

describe('the progress line on a terminal', function () {
  this.timeout(60_000);
  let s: SandboxProcess;
  before(async function () {
    if (!hasScript) this.skip();
    s = await startSandboxProcess(['--workflow-duration', '3']);
  });
  after(async () => {
    await s?.stop();
  });

  it('start --follow: a spinner while following, erased before the end line; NO_COLOR leaves it uncoloured', async () => {
    const t = onTerminal([...startArgs(s), '--follow', '--correlation-id', 'spin-follow'], { ...s.env, NO_COLOR: '1' });
    assert.equal(await t.exited, 0, t.out());
    const raw = t.raw();
    assert.ok(raw.includes(ERASE), 'redrawn in place');
    assert.match(raw, new RegExp(`${SPINNER.source} following wf_\\w+: processing \\d+ s`));
    assert.ok(!/\x1b\[[0-9;]*m/.test(raw), 'no colour with NO_COLOR');
    const screen = shown(raw);
    assert.doesNotMatch(screen, SPINNER, 'the spinner is gone once the command ends');
    assert.match(screen, /^✓ Started workflow wf_\w+ \(Appraisal Standard\): processing\n/);
    assert.match(screen, /\n\d\d:\d\d:\d\d {2}complete {2}/);
  });

  it('a 429 backoff: its countdown on the line, then the start goes on', async () => {
    const fault = await s.control('POST', 'faults', { fault: 'throttle', count: 1, after: 1 });
    assert.equal(fault.status, 201);
    const t = onTerminal([...startArgs(s), '--correlation-id', 'spin-backoff'], { ...s.env, NO_COLOR: '1' });
    assert.equal(await t.exited, 0, t.out());
    assert.match(
      t.raw(),
      new RegExp(`${SPINNER.source} the service is throttling \\(429\\): attempt 2 in \\d+\\.\\d s`),
    );
    assert.match(shown(t.raw()), /✓ Started workflow wf_\w+/);
  });

  it('never with --json on a terminal, nor piped with --human and FORCE_COLOR', async () => {
    const tty = onTerminal([...startArgs(s), '--follow', '--json', '--correlation-id', 'spin-json'], s.env);
    assert.equal(await tty.exited, 0, tty.out());
    assert.ok(!tty.out().includes('\x1b['), JSON.stringify(tty.out()));
    assert.doesNotMatch(tty.out(), SPINNER);
    const piped = new WfsProcess([...startArgs(s), '--follow', '--human', '--correlation-id', 'spin-pipe'], {
      ...s.env,
      FORCE_COLOR: '1',
    });
    assert.equal(await piped.exitCode(), 0, piped.stderr);
    assert.ok(!piped.stdout.includes('\x1b[K'));
    assert.doesNotMatch(piped.stdout + piped.stderr, SPINNER);
  });
});
