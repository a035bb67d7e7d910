// docs/ci-workflow.yml's job, run as a runner would run it: each `run:` step in order through `bash -e`, with
// $GITHUB_ENV carried from step to step and a step after a failure run only when it asks (`if: failure()`). The
// install step is the locally built `wfs` on PATH; the app's tests are a stand-in that starts a workflow and waits
// for its delivery at the app's port; the ports are moved to free ones. So the example cannot rot.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../unit/helpers/freePort';
import { workflowSteps, type WorkflowStep } from '../unit/helpers/ciWorkflowExample';
import { CLI } from './helpers/wfsProcess';

/** The app's tests: an app on APP_PORT, a workflow started on the sandbox, and its first delivery awaited; then
 * exit APP_TEST_EXIT (a failing suite leaves the history for the upload step). */
const STAND_IN_APP_TEST = `
const http = require('node:http');
const { spawn } = require('node:child_process');
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    res.end();
    if (req.method !== 'POST' || req.url !== '/webhooks') return;
    console.log('the app got ' + JSON.parse(body).topic + ' with ' + (req.headers.authorization ? 'a token' : 'no token'));
    server.close();
    process.exitCode = Number(process.env.APP_TEST_EXIT);
  });
});
server.listen(Number(process.env.APP_PORT), '127.0.0.1', () => {
  const start = spawn('wfs', ['start', '--session', 'sess-demo-staged', '--service', 'Appraisal', '--model', 'Standard'], { stdio: 'inherit' });
  start.on('exit', (code) => { if (code !== 0) { console.log('wfs start exited ' + code); process.exit(1); } });
});
`;

interface StepResult {
  step: string;
  code: number | null;
  output: string;
}

/** The runner's environment file, read as Actions reads it: NAME=value lines. */
function githubEnv(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

class Runner {
  readonly dir = mkdtempSync(join(tmpdir(), 'wfs-ci-'));
  readonly workspace = join(this.dir, 'workspace');
  private readonly envFile = join(this.dir, 'github_env');
  private readonly bin = join(this.dir, 'bin');
  /** Each step's process group: what a step left running in the background is ended with it at the job's end. */
  private readonly groups: number[] = [];

  constructor(private readonly ports: Map<string, string>) {
    mkdirSync(this.workspace);
    mkdirSync(this.bin);
    writeFileSync(this.envFile, '');
    // The install step's result: `wfs` on PATH, the build under test.
    writeFileSync(join(this.bin, 'wfs'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(this.bin, 'wfs'), 0o755);
    writeFileSync(join(this.dir, 'app-test.cjs'), STAND_IN_APP_TEST);
  }

  /** The script as written, its ports moved. */
  private script(run: string): string {
    return run.replace(/\b(4010|4011|3000)\b/g, (p) => this.ports.get(p)!);
  }

  /** Runs one step's script with bash -e in the workspace, as the runner does; resolves with its exit code. */
  run(step: WorkflowStep, extraEnv: Record<string, string>): Promise<StepResult> {
    const file = join(this.dir, `step-${this.groups.length}.sh`);
    writeFileSync(file, this.script(step.run!));
    const child = spawn('bash', ['-e', file], {
      cwd: this.workspace,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: `${this.bin}:${process.env.PATH}`,
        HOME: process.env.HOME ?? '',
        WFS_STATE_DIR: join(this.dir, 'state'),
        GITHUB_ENV: this.envFile,
        CI: 'true',
        ...githubEnv(this.envFile),
        ...extraEnv,
      },
    });
    this.groups.push(child.pid!);
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString('utf8')));
    return new Promise((resolve) =>
      child.once('close', (code) => resolve({ step: step.name ?? step.run!, code, output })),
    );
  }

  /** The job is over: what its steps left running (the sandbox, the receiver) is stopped. */
  end(): void {
    for (const pgid of this.groups)
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // that group has already ended
      }
  }

  env(): Record<string, string> {
    return githubEnv(this.envFile);
  }
}

/** Runs the job: skips `uses:` steps (the upload one is returned for the test to check), replaces the install and
 * the app's tests; a step after a failure runs only with `if: failure()`. */
async function runJob(appTestExit: number): Promise<{ runner: Runner; results: StepResult[]; upload?: WorkflowStep }> {
  const steps = workflowSteps();
  const ports = new Map<string, string>();
  for (const p of ['4010', '4011', '3000']) ports.set(p, String(await freePort()));
  const runner = new Runner(ports);
  const results: StepResult[] = [];
  let failed = false;
  let upload: WorkflowStep | undefined;
  for (const step of steps) {
    if (failed !== (step.if === 'failure()')) continue;
    if (step.uses) {
      if (step.uses.startsWith('actions/upload-artifact@')) upload = step;
      continue;
    }
    let replaced = step;
    if (/^npm install --global \.\/vendor\/workflow-service-cli-[\d.]+\.tgz$/.test(step.run!.trim())) continue;
    if (step.run!.trim() === 'npm test') replaced = { ...step, run: `node ../app-test.cjs` };
    const result = await runner.run(replaced, { APP_PORT: ports.get('3000')!, APP_TEST_EXIT: String(appTestExit) });
    results.push(result);
    if (result.code !== 0) failed = true;
  }
  return { runner, results, upload };
}

describe('docs/ci-workflow.yml, its run: steps through bash', function () {
  this.timeout(90_000);

  it("starts the sandbox and the receiver, waits on /healthz, and the app's tests get a verified delivery", async () => {
    const { runner, results, upload } = await runJob(0);
    try {
      assert.deepEqual(
        results.map((r) => [r.step, r.code]),
        [
          ['Start the sandbox and the receiver', 0],
          ["Run your app's tests", 0],
        ],
        results.map((r) => r.output).join('\n'),
      );
      assert.match(results[1]!.output, /the app got workflow\/\S+ with a token/);
      assert.equal(upload, undefined, 'nothing is uploaded when the job passes');
      const env = runner.env();
      assert.match(env.WFS_SANDBOX_SECRET!, /^[0-9a-f]{64}$/, 'the secret goes on to the later steps');
      const listen = readFileSync(join(runner.workspace, 'wfs-logs/listen.jsonl'), 'utf8').split('\n').filter(Boolean);
      const delivery = listen.map((l) => JSON.parse(l)).find((l) => l.event === 'delivery');
      assert.equal(delivery?.verified, true, listen.join('\n'));
      assert.equal(delivery?.forward?.status, 200);
    } finally {
      runner.end();
    }
  });

  it('a failing run leaves the delivery history where the upload step looks', async () => {
    const { runner, results, upload } = await runJob(1);
    try {
      assert.deepEqual(
        results.map((r) => r.code),
        [0, 1],
        results.map((r) => r.output).join('\n'),
      );
      assert.ok(upload, 'the upload step runs when the job fails');
      const dir = join(runner.workspace, upload.with.path!);
      assert.ok(existsSync(join(dir, 'deliveries.jsonl')));
      const history = readFileSync(join(dir, 'deliveries.jsonl'), 'utf8');
      assert.match(history, /"verified":true/, 'the history holds the verified delivery');
    } finally {
      runner.end();
    }
  });
});
