// `wfs probe-service` as a user runs it: against `wfs sandbox` (every row as the spec says or the sandbox's own
// choice), against a stand-in that differs on purpose (each difference in its row; a 2xx start ends it with exit 3;
// nothing it sent could bill), and against a sandbox taught by the stand-in's profile (the taught rows now match).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../unit/helpers/freePort';
import { StandInService } from './helpers/standInService';
import { startSandboxProcess, WfsProcess, type Line, type SandboxProcess } from './helpers/wfsProcess';

const dir = mkdtempSync(join(tmpdir(), 'wfs-probe-'));

async function probe(
  env: Record<string, string>,
  jwksUrl: string,
  name: string,
): Promise<{ p: WfsProcess; code: number | null; md: string; profile: string }> {
  const port = await freePort();
  const md = join(dir, `${name}.md`);
  const profile = join(dir, `${name}.profile.json`);
  const p = new WfsProcess(
    [
      'probe-service',
      '--include-refusal',
      '--spacing',
      '100',
      '--jwks-url',
      jwksUrl,
      '--webhook-address',
      `http://127.0.0.1:${port}/probe-hook`,
      '--webhook-wait',
      '20',
      '--markdown',
      md,
      '--profile-out',
      profile,
    ],
    env,
  );
  const code = await p.exitCode();
  return { p, code, md, profile };
}

const rows = (p: WfsProcess) => p.events('probe-row');
const row = (p: WfsProcess, id: string): Line => {
  const r = rows(p).find((x) => x.id === id);
  assert.ok(r, `a ${id} row; stdout:\n${p.stdout}`);
  return r;
};
const read = (f: string) => readFileSync(f, 'utf8');

describe('wfs probe-service', function () {
  this.timeout(60_000);
  let sandbox: SandboxProcess;
  let standIn: StandInService;
  let standInRun: { p: WfsProcess; code: number | null; md: string; profile: string };
  before(async () => {
    sandbox = await startSandboxProcess();
    standIn = new StandInService();
    await standIn.listen();
  });
  after(async () => {
    await sandbox.stop();
    await standIn.stop();
  });

  it("against wfs sandbox: every row as the spec says or the sandbox's own choice, exit 0; no password or token in any output", async () => {
    const base = sandbox.info.baseUrl as string;
    const { p, code, md, profile } = await probe(
      {
        ...sandbox.env,
        WFS_FIND_WORKFLOWS_URL: `${base}/workflow-services-ws/resources/v1/workflows?correlationId={correlationId}`,
      },
      sandbox.info.jwksUrl,
      'sandbox',
    );
    assert.equal(code, 0, p.stdout + p.stderr);
    assert.equal(rows(p).length, 20);
    for (const r of rows(p))
      assert.ok(
        r.verdict === 'as-spec' || (r.verdict === 'silent' && r.matchesSandbox === true),
        `${r.id}: ${r.verdictText}`,
      );
    const summary = await p.event('probe-summary');
    assert.ok(summary.requests <= 20 && summary.requests === 14, String(summary.requests));
    for (const text of [p.stdout, p.stderr, read(md), read(profile)]) {
      assert.ok(!text.includes(sandbox.info.password), 'no password');
      assert.ok(!/eyJ[\w-]+\.eyJ/.test(text), 'no JWT');
      assert.ok(!text.includes('correlationId='), 'no query string');
    }
    assert.match(read(md), /^# Contract check of http:\/\/127\.0\.0\.1:\d+\n\nNothing differs from the spec\./);
  });

  it('against a stand-in that differs on purpose: each difference in its row, exit 1; nothing could bill; no secret in any output', async () => {
    standInRun = await probe(standIn.env, standIn.jwksUrl, 'stand-in');
    const { p, code, md, profile } = standInRun;
    assert.equal(code, 1, p.stdout + p.stderr);
    // 1. the sign-in refusal's shape (spec silent): named, and not the sandbox's
    const refusal = row(p, 'sign-in-refusal');
    assert.deepEqual(
      [refusal.verdict, refusal.matchesSandbox, refusal.service.status, refusal.service.errorCode],
      ['silent', false, 400, 'invalid_grant'],
    );
    assert.match(
      refusal.verdictText,
      /^the spec is silent: the service chose 400 · application\/json · json · error invalid_grant/,
    );
    // 2. a refresh that rotates the refresh token: differs from the spec
    const refresh = row(p, 'refresh');
    assert.equal(refresh.verdict, 'differs');
    assert.match(refresh.verdictText, /a new refresh token came back/);
    // 3. extra JWT claims (the access token's, and the test webhook's)
    const access = row(p, 'access-token');
    assert.deepEqual([access.verdict, access.matchesSandbox], ['silent', false]);
    assert.ok(
      ['tid', 'scope'].every((c) => c in access.service.jwt.claims) && access.service.jwt.header.includes('kid'),
    );
    const extra = row(p, 'webhook-jwt-extra');
    assert.deepEqual([extra.verdict, extra.matchesSandbox, extra.service.jwt.lifetimeSeconds], ['silent', false, 600]);
    assert.ok('tid' in extra.service.jwt.claims);
    // 4. an extra test-webhook header
    const headers = row(p, 'webhook-headers');
    assert.deepEqual([headers.verdict, headers.matchesSandbox], ['silent', false]);
    assert.ok(headers.service.facts.headers.includes('x-standin-delivery'), headers.serviceText);
    // 5. a problem type under another base
    const badToken = row(p, 'start-bad-token');
    assert.equal(badToken.verdict, 'differs');
    assert.match(
      badToken.verdictText,
      /https:\/\/problems\.elsewhere\.example\/auth\/invalid-token is not under \{problems_base\}/,
    );
    // What it does as the spec says reads so.
    for (const id of [
      'sign-in',
      'start-no-auth',
      'start-malformed-json',
      'start-no-content-type',
      'start-unresolvable',
      'wrong-context-root',
      'key-set',
      'webhook-delivery',
      'webhook-jwt',
    ])
      assert.equal(row(p, id).verdict, 'as-spec', `${id}: ${row(p, id).verdictText}`);
    assert.deepEqual(
      rows(p)
        .filter((r) => r.verdict === 'differs')
        .map((r) => r.id),
      ['refresh', 'start-bad-token'],
    );
    // No request could have billed; the key set never saw a credential; at most 20 requests in all.
    assert.deepEqual(
      standIn.requests.filter((r) => r.couldBill),
      [],
    );
    assert.equal(
      standIn.requests.filter((r) => r.path.startsWith('/workflow-services-ws/resources/v1/sessions/')).length,
      5,
    );
    assert.deepEqual(
      standIn.keySetRequests.map((r) => r.authorization),
      [false],
    );
    assert.ok(standIn.requests.length + standIn.keySetRequests.length <= 20);
    for (const text of [p.stdout, p.stderr, read(md), read(profile)]) {
      for (const secret of standIn.secrets) assert.ok(!text.includes(secret), 'no password, access or refresh token');
      assert.ok(!text.includes('cid='), 'no query string');
    }
  });

  it('a 429 stops the probe there and says so (exit 1); on a terminal the rows are aligned text', async () => {
    await sandbox.control('POST', 'reset');
    // The sign-in and the refresh pass; the third request is throttled.
    assert.equal(
      (await sandbox.control('POST', 'faults', { fault: 'throttle', count: 3, after: 2 })).status < 300,
      true,
    );
    const served = () => sandbox.proc.events('request').filter((r) => !String(r.path).startsWith('/sandbox'));
    const before = served().length;
    const p = new WfsProcess(['probe-service', '--spacing', '100', '--human'], { ...sandbox.env, NO_COLOR: '1' });
    assert.equal(await p.exitCode(), 1, p.stdout + p.stderr);
    assert.match(
      p.stderr,
      /The service throttled the probe \(429 at POST http:\/\/127\.0\.0\.1:\d+\/user-management-services-ws\/oauth2\/002\/refreshIdToken\): it stopped there\./,
    );
    assert.match(p.stdout, /^✓ as the spec says {7}sign-in {18}200 · application\/json · json/m);
    assert.match(p.stdout, /^– not probed {13}start-no-auth {12}—\n {25}not probed: not reached: throttled$/m);
    await sandbox.proc.line(() => served().length >= before + 3, 'three request lines');
    assert.deepEqual(
      served()
        .slice(before)
        .map((r) => r.status),
      [200, 200, 429],
      'nothing was sent after the 429',
    );
    await sandbox.control('DELETE', 'faults');
  });

  it('a start answered 2xx stops the probe at once with the workflow and correlationId: exit 3', async () => {
    const billing = new StandInService({ acceptStarts: true });
    await billing.listen();
    try {
      const p = new WfsProcess(['probe-service', '--spacing', '100'], billing.env);
      assert.equal(await p.exitCode(), 3, p.stdout + p.stderr);
      const error = p.events('error').at(-1)!;
      assert.equal(error.kind, 'start-accepted');
      assert.equal(error.workflowId, 'wf_standin_accepted');
      assert.match(error.correlationId, /^wfs-probe-[0-9a-f-]{36}$/);
      // The accepted start was the last request: nothing was sent after it.
      assert.match(billing.requests.at(-1)!.path, /\/sessions\/wfs-probe-[^/]+\/workflows$/);
      assert.equal(billing.requests.filter((r) => /\/sessions\//.test(r.path)).length, 3);
      assert.equal(row(p, 'start-unresolvable').verdict, 'not-probed');
      assert.deepEqual(
        billing.requests.filter((r) => r.couldBill),
        [],
      );
    } finally {
      await billing.stop();
    }
  });

  it("a sandbox started with the stand-in's profile imitates it where the spec is silent, and never where it differs", async () => {
    assert.ok(standInRun, 'the stand-in was probed first');
    const taught = await startSandboxProcess(['--profile', standInRun.profile]);
    try {
      const loaded = await taught.proc.event('profile');
      assert.ok(
        loaded.ignored.some((w: string) => /rotatesRefreshToken/.test(w)),
        JSON.stringify(loaded.ignored),
      );
      const { p, code } = await probe(taught.env, taught.info.jwksUrl, 'taught');
      assert.equal(code, 0, p.stdout + p.stderr);
      const before = standInRun.p;
      const shape = (r: Line) => [
        r.service.status,
        r.service.contentType,
        r.service.bodyKind,
        Object.keys(r.service.fields ?? {}),
        r.service.errorCode,
      ];
      for (const id of ['sign-in-refusal', 'refresh-refusal'])
        assert.deepEqual(shape(row(p, id)), shape(row(before, id)), id);
      const names = (r: Line) => [
        r.service.jwt.header,
        Object.keys(r.service.jwt.claims),
        r.service.jwt.lifetimeSeconds,
      ];
      for (const id of ['access-token', 'webhook-jwt-extra'])
        assert.deepEqual(names(row(p, id)), names(row(before, id)), id);
      assert.deepEqual(
        row(p, 'webhook-headers').service.facts.headers,
        row(before, 'webhook-headers').service.facts.headers,
      );
      // The divergence is not imitated: the refresh token is still reused, as the spec says.
      assert.equal(row(p, 'refresh').verdict, 'as-spec');
      assert.equal(row(p, 'start-bad-token').verdict, 'as-spec');
    } finally {
      await taught.stop();
    }
  });
});

// Issue 69, point 16: probe-service said Find Workflows' address was not configured, though `wfs find` searches the
// sandbox's path by default. It probes where `wfs find` searches.
describe('wfs probe-service: Find Workflows where wfs find searches', function () {
  this.timeout(60_000);

  it('without WFS_FIND_WORKFLOWS_URL: the find row is probed at the sandbox path, as wfs find does', async () => {
    const sandbox = await startSandboxProcess();
    try {
      const p = new WfsProcess(['probe-service', '--spacing', '100ms'], sandbox.env);
      assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
      const probing = await p.event('probing');
      assert.equal(probing.findWorkflowsAt, `${sandbox.info.baseUrl}/workflow-services-ws/resources/v1/workflows`);
      assert.equal(probing.findWorkflowsDefault, true);
      const find = row(p, 'find');
      assert.notEqual(find.verdict, 'not-probed', find.verdictText);
      assert.deepEqual([find.service.status, find.matchesSandbox], [200, true]);
      const found = new WfsProcess(['find', '--correlation-id', 'nothing-started-with-this'], sandbox.env);
      assert.equal(await found.exitCode(), 5, 'and wfs find answers from the same address');
    } finally {
      await sandbox.stop();
    }
  });
});
