// The contract report in the user's language: each row's title, what the spec says, what the sandbox does and the
// verdict, and the summary line, are core's Saids (worded through the pseudo bundle, no English of ours is left once
// the values are out), while the English the CLI, the reports and the MCP tools print stays what it was.
import assert from 'node:assert/strict';
import { english, said, worded } from '../../../src/core/presentation/said';
import { ROWS } from '../../../src/core/probe/expectations';
import { judgeRow, notProbed } from '../../../src/core/probe/judgeRow';
import { probeMarkdown } from '../../../src/core/probe/probeReport';
import type { Observation, ProbeReport, RowResult, Verdict } from '../../../src/core/probe/probeTypes';
import { probeRowSaid, probeSummarySaid, summaryLine } from '../../../src/core/probe/probeWords';
import { pseudoWords } from '../l10n/saidLeft';

const ctx = { problemsBase: 'https://svc.example/problems' };
const obs = (status: number, extra: Partial<Observation> = {}): Observation => ({
  status,
  contentType: 'application/json',
  bodyKind: 'json',
  ...extra,
});

function report(rows: RowResult[], ended: ProbeReport['outcome']['ended'] = 'complete'): ProbeReport {
  const counts: Record<Verdict, number> = { 'as-spec': 0, silent: 0, differs: 0, 'not-probed': 0 };
  for (const r of rows) counts[r.verdict]++;
  return {
    tool: 'wfs',
    version: '0',
    at: '2026-01-01T00:00:00Z',
    origins: { service: 'https://svc.example', testWebhook: 'https://svc.example', keySets: [] },
    requests: 7,
    rows,
    outcome: { ended },
    counts,
  };
}

describe("contract report: its words in the user's language (issue #78)", () => {
  const { wording, leftEnglish } = pseudoWords();

  it('every row: title, spec and sandbox have no English of ours left; their English is as before', () => {
    assert.deepEqual(
      ROWS.flatMap((r) =>
        (['title', 'spec', 'sandbox'] as const).flatMap((k) => leftEnglish(`${r.id}.${k}`, r.said[k])),
      ),
      [],
    );
    for (const r of ROWS) for (const k of ['title', 'spec', 'sandbox'] as const) assert.equal(english(r.said[k]), r[k]);
    assert.equal(ROWS[0]!.title, 'Sign in with the given credentials');
    assert.equal(
      ROWS.find((r) => r.id === 'access-token')!.sandbox,
      'a JWT (HS256): header alg, typ; claims exp, iat, iss, jti, sub',
    );
    assert.equal(
      ROWS.find((r) => r.id === 'webhook-jwt-extra')!.sandbox,
      'header alg, kid, typ; claims aud, body_sha256, exp, iat, iss, jti; lifetime 300 s',
    );
  });

  const rows = (): RowResult[] => [
    judgeRow('wrong-context-root', obs(404, { bodyKind: 'empty', contentType: '' }), ctx),
    judgeRow('wrong-context-root', obs(500), ctx),
    judgeRow('find', obs(200, { fields: { workflows: 'array' } }), ctx),
    judgeRow('find', obs(200, { fields: { items: 'array' } }), ctx),
    notProbed('webhook-delivery', said('no --webhook-address given')),
  ];

  it('each verdict: its words are the verdict text the report prints, worded without English of ours', () => {
    const all = rows();
    assert.deepEqual(
      all.map((r) => r.verdict),
      ['as-spec', 'differs', 'silent', 'silent', 'not-probed'],
    );
    assert.equal(all[2]!.matchesSandbox, true);
    assert.equal(all[3]!.matchesSandbox, false);
    for (const r of all) {
      const w = probeRowSaid(r);
      assert.equal(english(w.verdictText), r.verdictText, r.id);
      assert.equal(english(w.title), r.title);
      assert.deepEqual(leftEnglish(`${r.id} verdict`, w.verdictText), []);
    }
    // Worded, the reasons a row differs are worded too; the data in them (the status) stays as recorded.
    assert.equal(all[1]!.notes.join('; '), 'answered 500, not 404');
    assert.equal(
      worded(probeRowSaid(all[1]!).verdictText, wording),
      '[[ďîƒƒéŕš ƒŕôɱ ţĥé šþéç]: [àñšŵéŕéď 500, ñôţ 404]]',
    );
  });

  it('a row of an id this version does not know keeps its English', () => {
    const r = { ...rows()[0]!, id: 'from-the-future', title: 'Later' };
    assert.equal(english(probeRowSaid(r).title), 'Later');
  });

  it('the summary line: worded without English of ours, and its English exactly as before, in each shape', () => {
    const all = rows();
    const shapes: [ProbeReport, string][] = [
      [
        report(all),
        '1 observation differs from the spec. 1 as the spec says, 2 where the spec is silent (1 as the sandbox does), 1 differ, 1 not probed; 7 requests.',
      ],
      [
        report([all[1]!, all[1]!]),
        '2 observations differ from the spec. 0 as the spec says, 0 where the spec is silent (0 as the sandbox does), 2 differ, 0 not probed; 7 requests.',
      ],
      [
        report([all[0]!]),
        'Nothing differs from the spec. 1 as the spec says, 0 where the spec is silent (0 as the sandbox does), 0 differ, 0 not probed; 7 requests.',
      ],
      [report([], 'start-accepted'), 'A start was accepted: the probe stopped at once. 0 as the spec says'],
      [report([], 'throttled'), 'The probe stopped early (throttled). 0'],
      [report([], 'sign-in-refused'), 'The probe stopped early (sign in refused). 0'],
      [report([], 'request-failed'), 'The probe stopped early (request failed). 0'],
    ];
    for (const [r, start] of shapes) {
      assert.ok(summaryLine(r).startsWith(start), summaryLine(r));
      assert.equal(english(probeSummarySaid(r)), summaryLine(r));
      assert.deepEqual(leftEnglish('summary', probeSummarySaid(r)), []);
    }
    assert.match(probeMarkdown(shapes[0]![0]), /\n1 observation differs from the spec\. 1 as the spec says/);
  });
});
