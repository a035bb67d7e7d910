// The start / status / test-webhook commands, run in-process with injected I/O against the sandbox.
import assert from 'node:assert/strict';
import { main } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/output';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { RecordingServer } from '../helpers/recordingServer';
import { untilTrue } from '../helpers/eventLoop';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testWebhookArgs } from '../../process/helpers/commandArgs';

describe('wfs start / status / test-webhook', () => {
  let f: SandboxFixture;
  let lines: Record<string, any>[];
  let stopListeners: (() => void)[];
  const io = (extraEnv: Record<string, string> = {}, stdin = ''): CliIO => ({
    emit: (l) => lines.push(l),
    env: { WFS_BASE_URL: f.info.baseUrl, WFS_USERNAME: f.info.username, WFS_PASSWORD: f.info.password, ...extraEnv },
    clock: f.clock,
    print: () => undefined,
    printError: () => undefined,
    readStdin: () => stdin,
    onStop: (l) => {
      stopListeners.push(l);
      return () => undefined;
    },
  });
  const run = (args: string[], env?: Record<string, string>, stdin?: string) => main(args, io(env, stdin));

  beforeEach(async () => {
    f = await startSandbox({ workflowDurationSeconds: 30 });
    lines = [];
    stopListeners = [];
  });
  afterEach(() => f.stop());

  it('start: exit 0 and the service JSON on 202', async () => {
    const code = await run([
      'start',
      '--session',
      f.info.sessions.staged,
      '--service',
      'Appraisal',
      '--model',
      'Standard',
      '--correlation-id',
      'c-1',
    ]);
    assert.equal(code, 0);
    assert.equal(lines[0].event, 'started');
    assert.equal(lines[0].correlationId, 'c-1');
    assert.equal(lines[0].workflow.status, 'processing');
    assert.equal(lines[0].messages[0].code, 'ACCEPTED');
  });

  it('start on an empty session: exit 1 and one error line with status, code and advice', async () => {
    const code = await run([
      'start',
      '--session',
      f.info.sessions.empty,
      '--service',
      'Appraisal',
      '--model',
      'Standard',
    ]);
    assert.equal(code, 1);
    assert.equal(lines.length, 1);
    assert.deepEqual([lines[0].event, lines[0].status, lines[0].code], ['error', 409, 'SESSION_EMPTY']);
    assert.match(lines[0].correlationId, /^wfs-/);
    assert.match(lines[0].message, /[Ss]tage a loan/);
  });

  it('start answered 500: exit 3, message says a billed workflow may exist and names the correlationId', async () => {
    await f.control('POST', 'faults', { fault: 'start-500' });
    const code = await run([
      'start',
      '--session',
      f.info.sessions.staged,
      '--service',
      'Appraisal',
      '--model',
      'Standard',
      '--correlation-id',
      'c-500',
    ]);
    assert.equal(code, 3);
    assert.match(lines[0].message, /outcome unknown.*billed.*run `wfs find --correlation-id c-500`/i);
  });

  it('start with a 256-character correlationId: exit 2 before anything is sent', async () => {
    const code = await run([
      'start',
      '--session',
      f.info.sessions.staged,
      '--service',
      'A',
      '--model',
      'B',
      '--correlation-id',
      'x'.repeat(256),
    ]);
    assert.equal(code, 2);
    assert.equal((await f.control('GET', 'billing')).json().billed.length, 0);
  });

  it('usage errors: missing flag or env → exit 2', async () => {
    assert.equal(await run(['start', '--session', 's']), 2);
    assert.match(lines[0].message, /^--service S and --model M are required \(run `wfs start --help` for its flags\)$/);
    assert.equal(await main(['start', '--session', 's', '--service', 'a', '--model', 'b'], { ...io(), env: {} }), 2);
    assert.match(lines[1].message, /WFS_BASE_URL/);
  });

  it('wrong password: exit 1 with a sign-in error', async () => {
    const code = await run(['status', '--workflow', 'wf_x'], { WFS_PASSWORD: 'nope' });
    assert.equal(code, 1);
    assert.equal(lines[0].status, 401);
  });

  it('status: reads once by id', async () => {
    await run(['start', '--session', f.info.sessions.staged, '--service', 'Appraisal', '--model', 'Standard']);
    const id = lines[0].workflow.workflowId;
    assert.equal(await run(['status', '--workflow', id]), 0);
    assert.equal(lines[1].event, 'status');
    assert.equal(lines[1].workflow.workflowId, id);
  });

  it('status --follow: one line per status change until terminal, on the poll schedule', async () => {
    await run(['start', '--session', f.info.sessions.staged, '--service', 'Flood', '--model', 'Certification']);
    const self = lines[0].links.self.href;
    lines = [];
    const p = run(['status', '--workflow', self, '--follow']);
    await untilLine(() => lines.length > 0); // the first read is done: only now may the clock move
    await drive(f, p, 60_000);
    assert.equal(await p, 0);
    assert.deepEqual(
      lines.map((l) => l.workflow?.status),
      ['processing', 'complete'],
    );
  });

  it('status --follow: exit 4 at the deadline while still processing', async () => {
    f.sandbox.context.workflows.workflowDurationMs = 86_400_000; // this workflow cannot finish within the deadline
    await run(['start', '--session', f.info.sessions.staged, '--service', 'Flood', '--model', 'Certification']);
    const id = lines[0].workflow.workflowId;
    lines = [];
    const p = run(['status', '--workflow', id, '--follow', '--deadline', '10']);
    await untilLine(() => lines.length > 0);
    await drive(f, p, 20_000);
    assert.equal(await p, 4);
    assert.equal(lines.at(-1)?.event, 'error');
    assert.equal(lines.at(-1)?.kind, 'deadline');
  });

  it('status of an unknown workflow: exit 1, 404 not found', async () => {
    assert.equal(await run(['status', '--workflow', 'wf_nope']), 1);
    assert.equal(lines[0].status, 404);
  });

  describe('test-webhook', () => {
    let receiver: RecordingServer;
    let address: string;
    beforeEach(async () => {
      receiver = new RecordingServer();
      address = (await receiver.start()) + '/hook';
    });
    afterEach(() => receiver.stop());

    it('sends testData from a file and reports the receiver answer', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'wfs-')), 'data.json');
      writeFileSync(file, '{"hello":"world"}');
      const code = await run([...testWebhookArgs(address), '--data', file]);
      assert.equal(code, 0);
      assert.equal(lines[0].event, 'sent');
      assert.equal(lines[0].response.receiverStatus, 200);
      assert.equal(receiver.requests[0].body.toString(), '{"hello":"world"}');
      assert.equal(receiver.requests[0].headers['x-svc-webhook-id'], lines[0].webhookId);
    });

    it('reads testData from standard input with --data -', async () => {
      await run(
        [
          'test-webhook',
          '--address',
          address,
          '--topic',
          't/x',
          '--sub-topic',
          'k:t/x',
          '--tenant-id',
          't1',
          '--data',
          '-',
        ],
        undefined,
        '[1,2,3]',
      );
      assert.equal(receiver.requests[0].body.toString(), '[1,2,3]');
    });

    it('malformed --data JSON: exit 2, nothing sent', async () => {
      const code = await run(
        [
          'test-webhook',
          '--address',
          address,
          '--topic',
          't/x',
          '--sub-topic',
          'k:t/x',
          '--tenant-id',
          't1',
          '--data',
          '-',
        ],
        undefined,
        '{oops',
      );
      assert.equal(code, 2);
      assert.match(lines[0].message, /not valid JSON/);
      assert.equal(receiver.requests.length, 0);
    });

    it('refuses an http address when the test endpoint is not a local sandbox', async () => {
      const code = await run(
        ['test-webhook', '--address', address, '--topic', 't/x', '--sub-topic', 'k:t/x', '--tenant-id', 't1'],
        {
          WFS_TEST_WEBHOOK_URL: 'https://webhooks.example.invalid',
        },
      );
      assert.equal(code, 2);
      assert.match(lines[0].message, /https/);
    });
  });
});

/**
 * Moves the shared virtual clock in 1 s steps until the command settles. The command signs in and reads over real
 * HTTP first, so the follower may start after the clock has moved: the bound is generous simulated time, never wall
 * time.
 */
async function drive(f: SandboxFixture, p: Promise<number>, expectedMs: number): Promise<void> {
  let settled = false;
  void p.finally(() => (settled = true));
  for (let t = 0; t < expectedMs * 10 && !settled; t += 1000) {
    await f.clock.advanceAsync(1000);
    for (let i = 0; i < 50 && !settled; i++) await new Promise((r) => setImmediate(r));
  }
}

const untilLine = (cond: () => boolean) => untilTrue(cond, () => 'the command printed nothing');
