// Following a workflow as a user does (issue 69, point 12): `--give-up-after` gives up that long after the first
// failed read, not at the next scheduled read (which came up to 10 s late); `--deadline 3s` is a duration like every
// other; and the deadline's exit (4) says the command that follows the workflow further.
import assert from 'node:assert/strict';
import { startSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { startArgs } from './helpers/commandArgs';

describe('wfs status --follow: durations, giving up and the deadline', function () {
  this.timeout(60_000);

  it('--give-up-after 3: gives up 3 s after the first failed read, with several reads in between', async () => {
    const s = await startSandboxProcess(['--workflow-duration', '3600']);
    try {
      const started = new WfsProcess(startArgs(s), s.env);
      const id = (await started.event('started')).workflow.workflowId;
      const p = new WfsProcess(['status', '--workflow', id, '--follow', '--give-up-after', '3'], s.env);
      await p.event('status');
      // Killed before the first scheduled read (2 s): the old schedule read at 2, 4 and 9 s and gave up at 9 s.
      s.proc.kill('SIGKILL');
      await s.proc.exited;
      await p.line((l) => l.event === 'warning' && l.kind === 'unreachable', 'the unreachable warning');
      const warnedAt = performance.now();
      assert.equal(await p.exitCode(), 1, p.stdout + p.stderr);
      const waited = performance.now() - warnedAt;
      assert.ok(waited > 2500 && waited < 4500, `gave up ${Math.round(waited)} ms after the first failed read`);
      const err = p.lines.at(-1)!;
      assert.equal(err.kind, 'unreachable');
      assert.ok(err.failures >= 2, `read again while unreachable: ${err.failures} failed reads`);
      assert.match(err.message, new RegExp(`resume with: wfs status --follow --workflow ${id}$`));
    } finally {
      await s.stop();
    }
  });

  it('--deadline 3s is accepted; at the deadline: exit 4 and the command that follows it further', async () => {
    const s = await startSandboxProcess(['--workflow-duration', '1h']);
    try {
      const started = new WfsProcess(startArgs(s), s.env);
      const id = (await started.event('started')).workflow.workflowId;
      const p = new WfsProcess(['status', '--workflow', id, '--follow', '--deadline', '3s'], s.env);
      assert.equal(await p.exitCode(), 4, p.stdout + p.stderr);
      const err = p.lines.at(-1)!;
      assert.deepEqual([err.event, err.kind, err.workflowId, err.lastStatus], ['error', 'deadline', id, 'processing']);
      assert.equal(err.resume, `wfs status --follow --workflow ${id}`);
      assert.match(err.message, /after the 3 s deadline/);
      assert.match(err.message, new RegExp(`Follow it further with: wfs status --follow --workflow ${id}$`));
      // start --follow shares the flags: a unit there too, and a bad one named with what it takes.
      const start = new WfsProcess([...startArgs(s), '--follow', '--deadline', '2s'], s.env);
      assert.equal(await start.exitCode(), 4, start.stdout + start.stderr);
      assert.equal(start.lines.at(-1)!.kind, 'deadline');
      const bad = new WfsProcess(['status', '--workflow', id, '--follow', '--deadline', '3 weeks'], s.env);
      assert.equal(await bad.exitCode(), 2);
      assert.match(bad.lines.at(-1)!.message, /^--deadline 3 weeks: give a duration from 1 s to 7 d, with a unit/);
    } finally {
      await s.stop();
    }
  });

  it('every duration flag takes a unit: sandbox --workflow-duration 1500ms, send --timeout 2s', async () => {
    const s = await startSandboxProcess(['--workflow-duration', '1500ms', '--access-token-ttl', '2m']);
    try {
      const started = new WfsProcess([...startArgs(s), '--follow'], s.env);
      assert.equal(await started.exitCode(), 0, started.stdout + started.stderr);
      const signIn = new WfsProcess(['sign-in'], s.env);
      assert.equal(await signIn.exitCode(), 0, signIn.stderr);
      assert.equal((await signIn.event('signed-in')).accessExpiresInSeconds, 120);
      const send = new WfsProcess(['send', 'nothing-here', '--to', 'http://127.0.0.1:9/', '--timeout', '2x']);
      assert.equal(await send.exitCode(), 2);
      assert.match(send.lines.at(-1)!.message, /^--timeout 2x: give a duration from 500 ms to 2 min/);
    } finally {
      await s.stop();
    }
  });
});
