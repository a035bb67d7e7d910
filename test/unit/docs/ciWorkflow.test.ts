// The CI job of docs/ci.md says what the CLI does, so it cannot drift: the page holds docs/ci-workflow.yml as it is,
// the job installs the tarball `npm run pack:cli` writes on the Node major the CLI needs, waits on /healthz of each
// server it starts, hands the sandbox's demo user on, and uploads the receiver's history when the job fails.
// test/process/ciWorkflow.test.ts runs its steps.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../../src/cli/commandList';
import { SANDBOX_PASSWORD, SANDBOX_USERNAME } from '../../../src/core/sandbox/sandboxSeed';
import { REPO_ROOT } from '../helpers/composeExample';
import { CI_WORKFLOW_FILE, workflowSteps } from '../helpers/ciWorkflowExample';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

describe('docs/ci-workflow.yml', () => {
  const steps = workflowSteps();
  const manifest = JSON.parse(read('package.json')) as { version: string; engines: { node: string } };

  it('is the file docs/ci.md shows', () => {
    assert.ok(read('docs/ci.md').includes('```yaml\n' + read(CI_WORKFLOW_FILE) + '```\n'));
  });

  it('checks out, sets up the Node major the CLI needs, and installs the tarball of this version', () => {
    assert.deepEqual(
      steps.slice(0, 2).map((s) => s.uses),
      ['actions/checkout@v4', 'actions/setup-node@v4'],
    );
    assert.equal(steps[1]!.with['node-version'], /\d+/.exec(manifest.engines.node)![0]);
    assert.equal(steps[2]!.run, `npm install --global ./vendor/workflow-service-cli-${manifest.version}.tgz`);
  });

  it('starts wfs with flags `wfs … --help` knows', async () => {
    const lines = steps[3]!.run!.replace(/\\\n\s*/g, '').split('\n');
    const wfs = lines.filter((l) => l.startsWith('wfs '));
    assert.equal(wfs.length, 2);
    for (const line of wfs) {
      const words = line.split(/\s+/);
      const entry = COMMANDS.find((c) => c.name === words[1]);
      assert.ok(entry, line);
      const spec = await entry.load();
      const own = words.slice(2, words.indexOf('>'));
      for (const w of own.filter((x) => x.startsWith('--')))
        assert.ok(w.slice(2) in spec.flags, `wfs ${entry.name} has ${w}`);
    }
  });

  it('waits on /healthz of each server it starts in the background, and hands on the demo user', () => {
    const start = steps[3]!.run!;
    const ports = [...start.matchAll(/^wfs (?:sandbox|listen) .*--port (\d+)/gm)].map((m) => m[1]);
    assert.deepEqual(ports.length, 2);
    for (const port of ports)
      assert.match(start, new RegExp(`curl [^\\n]*--retry[^\\n]* http://127\\.0\\.0\\.1:${port}/healthz\\n`));
    assert.match(start, new RegExp(`^echo "WFS_USERNAME=${SANDBOX_USERNAME}" >> "\\$GITHUB_ENV"$`, 'm'));
    assert.match(start, new RegExp(`^echo "WFS_PASSWORD=${SANDBOX_PASSWORD}" >> "\\$GITHUB_ENV"$`, 'm'));
    assert.match(start, /^echo "::add-mask::\$secret"$/m, 'the secret is masked in the log');
  });

  it("uploads the receiver's history (--log) when the job fails", () => {
    const upload = steps.at(-1)!;
    assert.equal(upload.uses, 'actions/upload-artifact@v4');
    assert.equal(upload.if, 'failure()');
    const log = /--log (\S+)/.exec(steps[3]!.run!)![1]!;
    assert.ok(log.startsWith(upload.with.path!), `${upload.with.path} holds ${log}`);
  });
});
