// `wfs status --follow` when the service dies (its process killed): a dead service is not a deadline. It warns once,
// counts the failed reads, and after --give-up-after seconds of nothing but failed connections ends with exit 1,
// "could not reach <origin>", the last status it saw and the command to resume.
import assert from 'node:assert/strict';
import { startSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { startArgs } from './helpers/commandArgs';

describe('wfs status --follow against a service that died', function () {
  this.timeout(60_000);

  it('SIGKILLed sandbox: one warning, then exit 1 with the origin, the last status and the resume command', async () => {
    const s = await startSandboxProcess(['--workflow-duration', '3600']);
    try {
      const started = new WfsProcess(startArgs(s), s.env);
      const id = (await started.event('started')).workflow.workflowId;
      const p = new WfsProcess(['status', '--workflow', id, '--follow', '--give-up-after', '3'], s.env);
      const first = await p.event('status');
      s.proc.kill('SIGKILL');
      await s.proc.exited;
      assert.equal(await p.exitCode(), 1, p.stdout + p.stderr);
      const err = p.lines.at(-1)!;
      const origin = new URL(s.info.baseUrl).origin;
      assert.deepEqual(
        [err.event, err.kind, err.origin, err.lastStatus, err.workflowId],
        ['error', 'unreachable', origin, first.workflow.status, id],
      );
      assert.ok(err.failures >= 2, `counted the failed reads: ${err.failures}`);
      assert.match(
        err.message,
        new RegExp(
          `^could not reach ${origin.replace(/\./g, '\\.')} for \\d+ s \\(\\d+ failed reads, last: nothing is listening at ${origin.replace(/\./g, '\\.')} \\(ECONNREFUSED\\)\\)`,
        ),
      );
      assert.match(
        err.message,
        new RegExp(
          `the workflow was last seen ${first.workflow.status}\\. When the service is back, resume with: wfs status --follow --workflow ${id}$`,
        ),
      );
      assert.equal(p.events('warning').length, 1, 'said once, not at every read');
    } finally {
      await s.stop();
    }
  });

  it('--give-up-after without --follow is a usage error (exit 2)', async () => {
    const p = new WfsProcess(['status', '--workflow', 'wf_1', '--give-up-after', '5'], {
      WFS_BASE_URL: 'http://127.0.0.1:9',
      WFS_USERNAME: 'u',
      WFS_PASSWORD: 'p',
    });
    assert.equal(await p.exitCode(), 2);
    assert.match(p.lines.at(-1)!.message, /--give-up-after applies only with --follow/);
  });
});
