// The test kit as a user meets it: the packed CLI installed from its tarball into an empty folder with jose beside
// it, docs/testkit.md's receiver and node:test file written there verbatim, and `node --test` run on them. The
// same test against a receiver that skips the body hash must fail, and for that reason. Its end-to-end test (a
// sandbox, a receiver, a workflow, the app's answer) runs as the document writes it for node:test (ESM and
// CommonJS), Jest and Vitest, each runner installed once from the npm registry.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import manifest from '../../package.json';

const ROOT = join(__dirname, '../../..');

function run(cmd: string, args: string[], cwd: string, timeout = 90_000): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', NODE_OPTIONS: '' },
  });
  // A runner colours its summary where it thinks a terminal or CI reads it (Vitest under CI=true): matched as text.
  return { status: r.status, out: `${r.stdout}\n${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '') };
}

/** The code block of docs/testkit.md whose first line is `// <name>`. */
function docBlock(name: string): string {
  const doc = readFileSync(join(ROOT, 'docs/testkit.md'), 'utf8');
  const block = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith(`// ${name}\n`));
  assert.ok(block, `docs/testkit.md has no js block starting "// ${name}"`);
  return block;
}

/** The code block of docs/testkit.md whose first line is `// <name>: …` (a variant of another block, said in words). */
function variantBlock(name: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs/testkit.md'), 'utf8');
  const block = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith(`// ${name}: `));
  assert.ok(block, `docs/testkit.md has no js block starting "// ${name}: "`);
  return block.trimEnd().split('\n').slice(1);
}

/** docs/testkit.md's end-to-end test with its first import lines replaced by `head` (the lines a runner's variant
 * gives; none to leave them out), as the document says to write it for that runner. */
function endToEndTest(head: string[], replaced = head.length): string {
  const lines = docBlock('workflow.test.mjs').split('\n');
  const imports = lines.findIndex((l) => l.startsWith('import '));
  assert.ok(imports > 0 && lines.slice(imports, imports + replaced).every((l) => l.startsWith('import ')));
  return [...lines.slice(0, imports), ...head, ...lines.slice(imports + replaced)].join('\n');
}

/** An empty folder holding the packed CLI and `extra` packages from the npm registry; one per runner per run. */
const runnerFolders = new Map<string, string>();
function runnerFolder(runner: string, extra: string[]): string {
  let dir = runnerFolders.get(runner);
  if (dir) return dir;
  dir = mkdtempSync(join(tmpdir(), `wfs-testkit-${runner}-`));
  writeFileSync(join(dir, 'package.json'), '{"private":true,"type":"module"}\n');
  const tarball = join(ROOT, 'dist', `workflow-service-cli-${manifest.version}.tgz`);
  const install = run('npm', ['install', tarball, join(ROOT, 'node_modules/jose'), ...extra], dir, 170_000);
  assert.equal(install.status, 0, install.out);
  runnerFolders.set(runner, dir);
  return dir;
}

/** The command docs/testkit.md gives for Jest. */
function jestCommand(): string {
  const doc = readFileSync(join(ROOT, 'docs/testkit.md'), 'utf8');
  const command = /```sh\n(NODE_OPTIONS=[^\n]*jest[^\n]*)\n```/.exec(doc)?.[1];
  assert.ok(command, 'docs/testkit.md gives the command that runs Jest');
  return command;
}

describe('the test kit, installed from the packed CLI into an empty folder', function () {
  this.timeout(360_000);
  let dir: string;

  before(() => {
    const pack = run('npm', ['run', 'pack:cli'], ROOT, 240_000);
    assert.equal(pack.status, 0, pack.out);
    const tarball = join(ROOT, 'dist', `workflow-service-cli-${manifest.version}.tgz`);
    dir = mkdtempSync(join(tmpdir(), 'wfs-testkit-'));
    writeFileSync(join(dir, 'package.json'), '{"private":true,"type":"module"}\n');
    // jose as a user adds it; from this repository's node_modules, so no network is needed.
    const install = run('npm', ['install', '--offline', tarball, join(ROOT, 'node_modules/jose')], dir);
    assert.equal(install.status, 0, install.out);
    writeFileSync(join(dir, 'receiver.mjs'), docBlock('receiver.mjs'));
    writeFileSync(join(dir, 'receiver.test.mjs'), docBlock('receiver.test.mjs'));
  });

  it('the installed package has no dependencies, and exports the kit (ESM, CommonJS, types) and the schemas', () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules/workflow-service-cli/package.json'), 'utf8'));
    assert.equal(pkg.dependencies, undefined);
    assert.deepEqual(pkg.exports['./testkit'], {
      types: './testkit.d.ts',
      import: './testkit.mjs',
      require: './testkit.cjs',
    });
    for (const name of [
      'webhook-event',
      'webhook-jwt-claims',
      'workflow',
      'token-response',
      'messages-envelope',
      'problem-document',
    ])
      assert.ok(existsSync(join(dir, `node_modules/workflow-service-cli/schemas/${name}.schema.json`)), name);
  });

  it("docs/testkit.md's node:test file passes against its receiver: genuine, one byte changed, expired, audit, rotation", () => {
    const t = run(process.execPath, ['--test', 'receiver.test.mjs'], dir);
    assert.equal(t.status, 0, t.out);
    assert.match(t.out, /# pass 5\b/);
    assert.match(t.out, /# fail 0\b/);
  });

  it("the same test fails against a receiver that skips the body hash, at the byte-changed test and the audit's body cases", () => {
    const broken = mkdtempSync(join(tmpdir(), 'wfs-testkit-broken-'));
    symlinkSync(join(dir, 'node_modules'), join(broken, 'node_modules'), 'dir');
    writeFileSync(join(broken, 'package.json'), '{"private":true,"type":"module"}\n');
    const receiver = docBlock('receiver.mjs');
    const check = /^ *if \(!\/\^\[0-9a-f\]\{64\}\$\/\.test.*\n/m;
    assert.match(receiver, check);
    writeFileSync(join(broken, 'receiver.mjs'), receiver.replace(check, '      // (the body hash is not checked)\n'));
    writeFileSync(join(broken, 'receiver.test.mjs'), docBlock('receiver.test.mjs'));
    const t = run(process.execPath, ['--test', 'receiver.test.mjs'], broken);
    assert.equal(t.status, 1, t.out);
    assert.match(t.out, /# pass 3\b/);
    assert.match(t.out, /# fail 2\b/);
    assert.match(t.out, /not ok \d+ - a delivery with one byte changed is refused/);
    assert.match(t.out, /not ok \d+ - the receiver audit passes every case/);
    assert.match(t.out, /body-changed: answered 200: the receiver accepted a delivery it must refuse/);
    assert.match(t.out, /^ok \d+ - a genuine delivery is accepted/m);
  });

  it('CommonJS require() works, and the declarations type-check a TypeScript caller', () => {
    writeFileSync(
      join(dir, 'check.cjs'),
      [
        "const { createTestIssuer, buildEvent, deliver, runAudit } = require('workflow-service-cli/testkit');",
        "const assert = require('node:assert/strict');",
        '(async () => {',
        '  assert.equal(typeof deliver, "function"); assert.equal(typeof runAudit, "function");',
        '  const issuer = await createTestIssuer({ audience: "cjs" });',
        '  const jwks = await issuer.serveJwks();',
        '  const keys = await (await fetch(jwks.url)).json();',
        '  const d = await issuer.signEvent(buildEvent("payments/settled"));',
        '  const claims = JSON.parse(Buffer.from(d.token.split(".")[1], "base64url").toString());',
        '  await jwks.stop();',
        '  const done = buildEvent("workflow/completed", { data: { runId: "wfrun_42" } }).data;',
        '  console.log(JSON.stringify({ aud: claims.aud, kid: keys.keys[0].kid === issuer.kid, topic: d.headers["x-svc-topic"], status: done.status, runId: done.runId, workflowId: /^wf_/.test(done.workflowId) }));',
        '})();',
      ].join('\n'),
    );
    const c = run(process.execPath, ['check.cjs'], dir);
    assert.equal(c.status, 0, c.out);
    // buildEvent's workflow events carry the sandbox's data (#79, item 7), overrides laid over it.
    assert.deepEqual(JSON.parse(c.out.trim().split('\n')[0]!), {
      aud: 'cjs',
      kid: true,
      topic: 'payments/settled',
      status: 'complete',
      runId: 'wfrun_42',
      workflowId: true,
    });
    writeFileSync(
      join(dir, 'check.mts'),
      [
        "import { createTestIssuer, buildEvent, type WebhookEvent, type Workflow, type AuditResult } from 'workflow-service-cli/testkit';",
        'const issuer = await createTestIssuer();',
        "const event: WebhookEvent = buildEvent('workflow/completed');",
        "const signed = await issuer.signEvent(event, { expiresIn: -60, omit: ['body_sha256'] });",
        'const n: number = signed.body.length;',
        "const w: Workflow['status'] = 'complete';",
        'let r: AuditResult | undefined;',
        'export { n, w, r };',
        '// @ts-expect-error: an unknown option is a type error',
        "await issuer.sign('{}', { expires: 5 });",
      ].join('\n'),
    );
    const tsc = run(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules/@types'),
        'check.mts',
      ],
      dir,
    );
    assert.equal(tsc.status, 0, tsc.out);
  });

  it("docs/testkit.md's scenario() test passes on its idempotent handler, and fails on one that counts copies", () => {
    writeFileSync(join(dir, 'handler.mjs'), docBlock('handler.mjs'));
    writeFileSync(join(dir, 'handler.test.mjs'), docBlock('handler.test.mjs'));
    const t = run(process.execPath, ['--test', 'handler.test.mjs'], dir);
    assert.equal(t.status, 0, t.out);
    assert.match(t.out, /# pass 1\b/);
    // The same handler without its dedupe: the copies the scenario sends are counted again.
    const handler = docBlock('handler.mjs');
    const dedupe = /^ *if \(seen\.has\(event\.webhookId\)\).*\n/m;
    assert.match(handler, dedupe);
    const broken = mkdtempSync(join(tmpdir(), 'wfs-testkit-scenario-'));
    symlinkSync(join(dir, 'node_modules'), join(broken, 'node_modules'), 'dir');
    writeFileSync(join(broken, 'package.json'), '{"private":true,"type":"module"}\n');
    writeFileSync(join(broken, 'handler.mjs'), handler.replace(dedupe, ''));
    writeFileSync(join(broken, 'handler.test.mjs'), docBlock('handler.test.mjs'));
    const b = run(process.execPath, ['--test', 'handler.test.mjs'], broken);
    assert.equal(b.status, 1, b.out);
    assert.match(b.out, /seed 1: each event processed once/);
  });

  it('the installed testkit.md, README.md and agents.md link only to files the package holds (cli.md is its README.md)', () => {
    const installed = join(dir, 'node_modules/workflow-service-cli');
    for (const doc of ['testkit.md', 'README.md', 'agents.md']) {
      const text = readFileSync(join(installed, doc), 'utf8');
      const links = [...text.matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)].map((m) => m[1]!);
      for (const link of links)
        assert.ok(existsSync(join(installed, link)), `${doc} links to ${link}, not in the package`);
    }
    assert.match(readFileSync(join(installed, 'testkit.md'), 'utf8'), /\[cli\.md\]\(README\.md\)/);
  });

  it('README and docs/testkit.md install from the tarball first, and say the package is not on the registry', () => {
    for (const doc of ['README.md', 'docs/testkit.md']) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      assert.match(text, /not on the npm registry yet/, doc);
      assert.match(text, /npm run pack:cli/, doc);
      assert.match(text, /npm install --save-dev \S*dist\/workflow-service-cli-0\.1\.0\.tgz/, doc);
      assert.doesNotMatch(
        text,
        /npm install --save-dev workflow-service-cli\b(?!-)/,
        `${doc}: the registry route fails with E404`,
      );
    }
  });

  it("docs/testkit.md's Jest example passes as written, with Jest from the npm registry", () => {
    const jestDir = runnerFolder('jest', ['jest@30']);
    for (const name of ['receiver.mjs', 'jest.config.mjs', 'receiver.jest.test.mjs'])
      writeFileSync(join(jestDir, name), docBlock(name));
    const t = run('sh', ['-c', `${jestCommand()} receiver.jest.test.mjs`], jestDir);
    assert.equal(t.status, 0, t.out);
    assert.match(t.out, /Tests: +3 passed, 3 total/);
    // Without the flag, the error the document warns of.
    const plain = run('npx', ['jest', 'receiver.jest.test.mjs'], jestDir);
    assert.notEqual(plain.status, 0);
    assert.match(plain.out, /Must use import to load ES Module/);
  });

  it("docs/testkit.md's end-to-end test passes under node:test, ESM and CommonJS: sandbox, receiver, workflow, the app's answer", () => {
    writeFileSync(join(dir, 'workflow.test.mjs'), docBlock('workflow.test.mjs'));
    writeFileSync(join(dir, 'workflow.test.cjs'), endToEndTest(variantBlock('workflow.test.cjs')));
    for (const file of ['workflow.test.mjs', 'workflow.test.cjs']) {
      const t = run(process.execPath, ['--test', file], dir);
      assert.equal(t.status, 0, `${file}\n${t.out}`);
      assert.match(t.out, /# pass 1\b/, file);
      assert.match(t.out, /# fail 0\b/, file);
    }
  });

  it('the same end-to-end test fails, naming the answer, when the app answers 500', () => {
    const broken = mkdtempSync(join(tmpdir(), 'wfs-testkit-e2e-broken-'));
    symlinkSync(join(dir, 'node_modules'), join(broken, 'node_modules'), 'dir');
    writeFileSync(join(broken, 'package.json'), '{"private":true,"type":"module"}\n');
    const test = docBlock('workflow.test.mjs');
    assert.match(test, /res\.writeHead\(200, /);
    writeFileSync(join(broken, 'workflow.test.mjs'), test.replace(/res\.writeHead\(200, /, 'res.writeHead(500, '));
    const t = run(process.execPath, ['--test', 'workflow.test.mjs'], broken);
    assert.equal(t.status, 1, t.out);
    assert.match(t.out, /# fail 1\b/);
    assert.match(t.out, /expected: 200\n\s+actual: 500\n/);
  });

  it("docs/testkit.md's end-to-end test passes under Jest as the document says (its first line left out)", () => {
    const jestDir = runnerFolder('jest', ['jest@30']);
    writeFileSync(join(jestDir, 'jest.config.mjs'), docBlock('jest.config.mjs'));
    writeFileSync(join(jestDir, 'workflow.jest.test.mjs'), endToEndTest([], 1));
    const t = run('sh', ['-c', `${jestCommand()} workflow.jest.test.mjs`], jestDir);
    assert.equal(t.status, 0, t.out);
    assert.match(t.out, /Tests: +1 passed, 1 total/);
  });

  it("docs/testkit.md's end-to-end test passes under Vitest 3 as the document says (test from vitest)", () => {
    const vitestDir = runnerFolder('vitest', ['vitest@3']);
    writeFileSync(join(vitestDir, 'workflow.vitest.test.mjs'), endToEndTest(variantBlock('workflow.vitest.test.mjs')));
    const doc = readFileSync(join(ROOT, 'docs/testkit.md'), 'utf8');
    assert.match(doc, /Run that one with `npx vitest run`/);
    const t = run('npx', ['vitest', 'run'], vitestDir);
    assert.equal(t.status, 0, t.out);
    assert.match(t.out, /Tests +1 passed \(1\)/);
  });
});
