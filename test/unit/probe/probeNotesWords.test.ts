// The contract report's reasons in the user's language: why a row differs, why it was not probed, how the probe
// ended and what the service did (the service column) are core's Saids, kept beside the English under a symbol key.
// Worded through the pseudo bundle no English of ours is left once the values are out; their English is what the
// CLI, the reports and the MCP tools print, and no JSON of a row or a report carries a field more.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { english, isSaid, type Said } from '../../../src/core/presentation/said';
import { ROWS } from '../../../src/core/probe/expectations';
import { judgeRow } from '../../../src/core/probe/judgeRow';
import { runProbe, type ProbeTarget } from '../../../src/core/probe/runProbe';
import { WORDS, type Observation, type ProbeReport, type RowResult } from '../../../src/core/probe/probeTypes';
import { probeOutcomeSaid, probeRowSaid } from '../../../src/core/probe/probeWords';
import { StandInService } from '../../process/helpers/standInService';
import { ManualClock } from '../helpers/manualClock';
import { probeTargetOf, startSandbox } from '../helpers/sandboxFixture';
import { pseudoWords } from '../l10n/saidLeft';

const ROOT = join(__dirname, '../../../..');
const { leftEnglish } = pseudoWords();

/** The messages of every Said under `s`. */
function messages(s: Said | undefined, into = new Set<string>()): Set<string> {
  if (!isSaid(s)) return into;
  into.add(s.message);
  for (const v of s.values ?? []) if (isSaid(v)) messages(v, into);
  return into;
}

/** The literal said() messages of a core source file. */
function saidMessages(file: string): string[] {
  const text = readFileSync(join(ROOT, 'src/core/probe', file), 'utf8');
  return [...text.matchAll(/\bsaid\(\s*(['"])((?:(?!\1).)*)\1/g)].map((m) => m[2]!);
}

/** A row's Saids checked: their English is the row's English, and worded no English of ours is left. Returns what
 * is left (empty when none). */
function rowLeft(r: RowResult): string[] {
  const kept = r[WORDS];
  assert.ok(kept, `${r.id} keeps its Saids`);
  const w = probeRowSaid(r);
  assert.deepEqual(kept.notes.map(english), r.notes, r.id);
  assert.equal(english(w.service), r.serviceText, r.id);
  assert.equal(english(w.verdictText), r.verdictText, r.id);
  return [
    ...kept.notes.flatMap((n, i) => leftEnglish(`${r.id} note ${i}`, n)),
    ...leftEnglish(`${r.id} service`, w.service),
    ...leftEnglish(`${r.id} verdict`, w.verdictText),
  ];
}

/** JSON of a row and of a report: the English fields only, as before (JSON.stringify leaves symbol keys out). */
function assertJsonAsBefore(report: ProbeReport): void {
  const rowKeys = new Set(['id', 'title', 'request', 'spec', 'sandbox', 'service', 'serviceText', 'verdict']);
  for (const k of ['verdictText', 'matchesSandbox', 'notes']) rowKeys.add(k);
  for (const r of report.rows)
    for (const k of Object.keys(JSON.parse(JSON.stringify({ event: 'probe-row', ...r })) as object))
      assert.ok(k === 'event' || rowKeys.has(k), `row field ${k}`);
  const outcome = JSON.parse(JSON.stringify(report.outcome)) as object;
  for (const k of Object.keys(outcome)) assert.ok(['ended', 'message', 'accepted'].includes(k), `outcome field ${k}`);
}

const ctx = { problemsBase: 'https://svc.example/problems', publishedKids: ['k1'] };
const jsonTokens = { access_token: 'string', expires_in: 'number', refresh_token: 'string' } as const;
/** Observations that between them give every reason a row can differ, and each kind of service column. */
const OBSERVATIONS: Observation[] = [
  {
    status: 500,
    contentType: '',
    bodyKind: 'html',
    fields: { expires_in: 'string', messages: 'array' },
    facts: {
      expiresInInteger: false,
      refreshTokenRotated: true,
      expiresIn: 100,
      keysWithoutKid: 2,
      keyTypes: ['EC'],
      algorithms: ['ES256'],
      method: 'PUT',
      bodyIsTestData: false,
      bodyShaMatches: false,
      kidPublished: false,
      headers: [],
    },
    jwt: { header: ['alg'], claims: {} },
  },
  {
    status: 201,
    contentType: 'text/plain',
    bodyKind: 'problem',
    problemType: 'https://elsewhere.example/x',
    wwwAuthenticate: { scheme: 'Bearer', params: [] },
    facts: { authorizationScheme: 'Basic', method: 'POST' },
    jwt: { header: ['alg', 'kid'], claims: { aud: 'string' }, alg: 'HS256', lifetimeSeconds: 60 },
  },
  { status: 401, contentType: 'application/problem+json', bodyKind: 'problem', problemType: 'about:blank' },
  {
    status: 401,
    contentType: 'application/problem+json',
    bodyKind: 'problem',
    problemType: 'https://svc.example/problems/invalid-token',
    wwwAuthenticate: { scheme: 'Bearer', params: ['realm'] },
  },
  { status: 400, contentType: 'application/json', bodyKind: 'messages', messageCodes: [], fields: {} },
  { status: 403, contentType: 'application/json', bodyKind: 'messages', messageCodes: ['X'] },
  { status: 403, contentType: 'application/json', bodyKind: 'json', errorCode: 'invalid_grant', fields: {} },
  { status: 404, contentType: 'application/problem+json', bodyKind: 'problem', problemType: 'https://elsewhere/y' },
  {
    status: 200,
    contentType: 'application/json',
    bodyKind: 'json',
    fields: { ...jsonTokens },
    facts: { expiresIn: 100, cacheHeaders: ['max-age=5'] },
  },
  { status: 200, contentType: 'application/json', bodyKind: 'json', fields: { keys: 'array' } },
];

describe("contract report: reasons, outcomes and the service column in the user's words (issue #78)", () => {
  it('every reason a row differs, and every service column: no English of ours left; each note of the rows is met', () => {
    const rows = ROWS.flatMap((spec) => OBSERVATIONS.map((o) => judgeRow(spec.id, o, ctx)));
    assert.deepEqual(rows.flatMap(rowLeft), []);
    // Each message of the rows' judgements and of the service column was worded above (the spec's own words are
    // the other test's).
    const seen = new Set<string>();
    for (const r of rows)
      for (const s of [...r[WORDS]!.notes, r[WORDS]!.service, probeRowSaid(r).verdictText]) messages(s, seen);
    const specWords = new Set<string>();
    for (const r of ROWS) for (const s of Object.values(r.said)) messages(s, specWords);
    const unmet = [...saidMessages('expectations.ts'), ...saidMessages('observe.ts')].filter(
      (m) => !seen.has(m) && !specWords.has(m),
    );
    assert.deepEqual(unmet, []);
    assert.ok(seen.size >= 50, `${seen.size} messages`);
  });

  it('their English is as the CLI printed it', () => {
    const [bad, taken] = [OBSERVATIONS[0]!, OBSERVATIONS[1]!];
    assert.deepEqual(judgeRow('webhook-delivery', bad, ctx).notes, [
      'Authorization is absent, not Bearer <JWT>',
      'Content-Type is absent',
      'the body is not the testData sent',
      'the method is PUT, not POST',
    ]);
    assert.deepEqual(judgeRow('webhook-jwt', bad, ctx).notes, [
      'claims aud, body_sha256, exp, iss missing',
      'no kid in the header',
      'alg unknown, not RS256',
      'body_sha256 is not the SHA-256 of the bytes that arrived',
      'its kid is not in the key set read',
    ]);
    assert.equal(judgeRow('webhook-headers', bad, ctx).serviceText, 'none');
    assert.equal(judgeRow('webhook-jwt-extra', bad, ctx).serviceText, 'header alg; claims none');
    assert.equal(
      judgeRow('start-unresolvable', bad, ctx).verdictText,
      'differs from the spec: answered 500 · (no Content-Type) · html · fields expires_in, messages',
    );
    assert.deepEqual(judgeRow('sign-in-refusal', taken, ctx).notes, [
      'a wrong password was answered 201, as if accepted',
    ]);
    assert.deepEqual(judgeRow('start-bad-token', taken, ctx).notes, [
      'answered 201, not 401',
      'the problem type https://elsewhere.example/x is not under {problems_base} (https://svc.example/problems)',
      'WWW-Authenticate has no realm',
      'WWW-Authenticate has no error=invalid_token',
    ]);
    assert.deepEqual(judgeRow('start-unresolvable', OBSERVATIONS[4]!, ctx).notes, [
      'codes none, not one VALIDATION_ERROR',
    ]);
    assert.equal(
      judgeRow('start-no-content-type', OBSERVATIONS[6]!, ctx).serviceText,
      '403 · application/json · json · error invalid_grant · fields none',
    );
    assert.equal(judgeRow('key-set-cache', OBSERVATIONS[8]!, ctx).serviceText, 'max-age=5');
    assert.equal(judgeRow('key-set-cache', bad, ctx).serviceText, 'no cache headers');
  });
});

/** Runs the probe to its end on a virtual clock (as runProbe.test.ts does): each spacing is advanced exactly. */
async function drive(clock: ManualClock, run: Promise<ProbeReport>): Promise<ProbeReport> {
  let finished = false;
  const result = run.finally(() => (finished = true));
  result.catch(() => undefined);
  while (!finished) {
    if (clock.pendingCount > 0) await clock.advanceAsync(1);
    else await new Promise((r) => setImmediate(r));
  }
  return result;
}

/** A run's report checked: every row's and the outcome's Saids worded without English of ours, their English the
 * report's, and its JSON as before. Returns the reasons rows were not probed, in English. */
function checkReport(report: ProbeReport, seen: Set<string>): string[] {
  assert.deepEqual(report.rows.flatMap(rowLeft), []);
  for (const r of report.rows) for (const n of r[WORDS]!.notes) messages(n, seen);
  const outcome = probeOutcomeSaid(report.outcome);
  messages(report.outcome[WORDS], seen);
  if (report.outcome.ended === 'complete') assert.equal(outcome, undefined);
  else {
    assert.ok(report.outcome[WORDS], 'the run keeps the outcome as a Said');
    assert.equal(english(outcome!), report.outcome.message);
    assert.deepEqual(leftEnglish('outcome', outcome), []);
  }
  assertJsonAsBefore(report);
  return [...new Set(report.rows.filter((r) => r.verdict === 'not-probed').flatMap((r) => r.notes))];
}

describe("contract check runs: why rows were not probed and how the probe ended, in the user's words", () => {
  /** The messages the runs below met (the last test reads them). */
  const seen = new Set<string>();
  const probe = (target: ProbeTarget, includeRefusal = false) => {
    const clock = new ManualClock();
    return drive(clock, runProbe(target, { clock, spacingMs: 1, includeRefusal }));
  };
  const standInTarget = (s: StandInService): ProbeTarget => ({
    baseUrl: s.baseUrl,
    testWebhookUrl: s.baseUrl,
    credentials: { username: s.env.WFS_USERNAME!, password: s.env.WFS_PASSWORD! },
    aliasPlacement: 'body',
    problemsBase: s.env.WFS_PROBLEMS_BASE,
    jwksUrls: [],
    isLocalSandbox: true,
  });

  it('a complete run with nothing optional configured: each reason a row was not probed', async () => {
    const standIn = new StandInService();
    await standIn.listen();
    try {
      const report = await probe(standInTarget(standIn));
      assert.equal(report.outcome.ended, 'complete');
      assert.ok(report.counts.differs > 0, 'the stand-in differs on purpose: its reasons are worded too');
      assert.deepEqual(checkReport(report, seen), [
        'not asked (--include-refusal)',
        "Find Workflows' address is not configured for this environment",
        'no key set is configured for this environment',
        'no --webhook-address given',
      ]);
    } finally {
      await standIn.stop();
    }
  });

  it('a start answered 2xx: the outcome and "not reached"', async () => {
    const standIn = new StandInService({ acceptStarts: true });
    await standIn.listen();
    try {
      const report = await probe(standInTarget(standIn));
      assert.equal(report.outcome.ended, 'start-accepted');
      assert.match(
        report.outcome.message!,
        /^A start the probe sent was answered 202 \(Start with [^)]+\): a workflow/,
      );
      assert.ok(checkReport(report, seen).includes('not reached: start accepted'));
    } finally {
      await standIn.stop();
    }
  });

  it('a refused sign-in, a 429 and a request that fails: each outcome', async () => {
    const fx = await startSandbox();
    try {
      const target = probeTargetOf(fx.info);
      const refused = await probe({ ...target, credentials: { username: fx.info.username, password: 'wrong' } });
      assert.equal(refused.outcome.ended, 'sign-in-refused');
      assert.match(refused.outcome.message!, /^Sign-in with the given credentials was answered 401 · /);
      assert.deepEqual(checkReport(refused, seen), ['not reached: sign in refused']);

      await fx.control('POST', 'reset');
      assert.ok((await fx.control('POST', 'faults', { fault: 'throttle', count: 3, after: 2 })).status < 300);
      const throttled = await probe(target);
      assert.equal(throttled.outcome.ended, 'throttled');
      assert.match(throttled.outcome.message!, /^The service throttled the probe \(429 at POST http:\/\/127\.0\.0\.1:/);
      assert.ok(checkReport(throttled, seen).includes('not reached: throttled'));
    } finally {
      await fx.stop();
    }
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const failed = await probe({
      baseUrl: `http://127.0.0.1:${port}`,
      testWebhookUrl: `http://127.0.0.1:${port}`,
      credentials: { username: 'u', password: 'p' },
      aliasPlacement: 'body',
      jwksUrls: [],
      isLocalSandbox: true,
    });
    assert.equal(failed.outcome.ended, 'request-failed');
    assert.match(failed.outcome.message!, /^The probe stopped: .+\.$/);
    assert.deepEqual(checkReport(failed, seen), ['not reached: request failed']);
  });

  it('between them, the runs above met every message of runProbe.ts but a few, whose shape is checked here', () => {
    // A test webhook that never arrives and a sign-in without a refresh token need a service made for them; "not
    // reached: complete" cannot happen (a complete run reached every row); "{0}: {1}" is a request that failed other
    // than in transport (the address, then the error's message: both data).
    const rare = [
      '{0}: {1}',
      'nothing arrived at the webhook address within {0} s',
      'the sign-in gave no refresh_token',
      'not reached: complete',
    ];
    const all = saidMessages('runProbe.ts');
    assert.deepEqual(
      all.filter((m) => !seen.has(m) && !rare.includes(m)),
      [],
    );
    for (const m of rare) {
      assert.ok(all.includes(m), m);
      assert.deepEqual(leftEnglish(m, { message: m, values: [30, 'x'] }), []);
    }
  });
});
