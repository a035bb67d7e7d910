// The audit in the user's language: every text of a case, a result, a check and a trust mismatch is a Said of core's,
// worded through the extension's bundle (here its pseudo-locale: no English of ours may be left once the values are
// taken out), while the English the CLI and the reports print stays what it was.
import assert from 'node:assert/strict';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { SystemClock } from '../../../src/core/time/clock';
import { english, worded } from '../../../src/core/presentation/said';
import { AUDIT_CASES } from '../../../src/core/audit/auditCases';
import { auditGroup, auditJson } from '../../../src/core/audit/auditReport';
import { auditCaseTitle, auditGroupSaid, auditResultWorded, auditWorded } from '../../../src/core/audit/auditWords';
import { CODE_CHECKS } from '../../../src/core/audit/inYourCode';
import {
  AuditRefused,
  checkTarget,
  reattributeFailures,
  runAudit,
  type AuditCaseResult,
  type AuditSummary,
} from '../../../src/core/audit/receiverAudit';
import {
  answerText,
  AUDIT_GENUINE_DELIVERY,
  matchAdvice,
  matchAdviceSaid,
  refusalSaid,
  refusalText,
  type TrustMismatch,
} from '../../../src/core/audit/trustMismatch';
import { BrokenReceiver, type Mistake } from '../helpers/brokenReceiver';
import { ScriptedServer } from '../helpers/scriptedServer';
import { pseudoLocalize } from '../l10n/pseudoLocale';
import { pseudoWords } from '../l10n/saidLeft';

describe("receiver audit: its words in the user's language (issue #78)", function () {
  this.timeout(60_000);
  const { wording: pseudoWording, leftEnglish } = pseudoWords();

  it('every case: title, rule, why and fix have no English of ours left, and their English is the CLI’s', () => {
    const left = AUDIT_CASES.flatMap((c) =>
      (['title', 'rule', 'why', 'fix'] as const).flatMap((k) => leftEnglish(`${c.id}.${k}`, c.said[k])),
    );
    assert.deepEqual(left, []);
    for (const c of AUDIT_CASES) {
      for (const k of ['title', 'rule', 'why', 'fix'] as const) assert.equal(english(c.said[k]), c[k]);
      assert.equal(auditCaseTitle(c, pseudoWording), pseudoLocalize(c.title));
      assert.equal(auditCaseTitle(c), c.title);
    }
    assert.equal(AUDIT_CASES[0]!.title, 'A genuine delivery', 'the English is as before');
  });

  it("the Testing view's groups: worded, their English the JUnit classname's", () => {
    for (const c of AUDIT_CASES) {
      assert.deepEqual(leftEnglish(c.rule, auditGroupSaid(c.rule)), []);
      assert.equal(english(auditGroupSaid(c.rule)), auditGroup(c.rule));
    }
    assert.equal(worded(auditGroupSaid('Step 5: exp'), pseudoWording), `[Šţéþ 5]`);
  });

  it('"Check in your code": each title and what to look for', () => {
    assert.deepEqual(
      CODE_CHECKS.flatMap((c) => [
        ...leftEnglish(`${c.id}.title`, c.said?.title),
        ...leftEnglish(c.id, c.said?.lookFor),
      ]),
      [],
    );
    for (const c of CODE_CHECKS) assert.equal(english(c.said!.lookFor), c.lookFor);
  });

  it('a refusal before anything is sent (AuditRefused) is a Said; its message is the English', () => {
    for (const target of ['http://user:pw@127.0.0.1/x', 'https://example.com/webhooks', 'ftp://127.0.0.1/x', 'nope']) {
      const err = (() => {
        try {
          checkTarget(target);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      assert.ok(err instanceof AuditRefused, target);
      assert.deepEqual(leftEnglish(target, err.said), []);
      assert.equal(err.message, english(err.said));
    }
    assert.throws(() => checkTarget('http://user:pw@127.0.0.1/x'), {
      message: 'The target URL must not carry credentials.',
    });
  });

  it('a trust mismatch: what the receiver answered and how to make them match, in each of its shapes', () => {
    const signedWith = { issuer: 'https://iss.test', audience: 'aud', jwksUrl: 'https://iss.test/jwks', kid: 'k1' };
    const shapes: TrustMismatch[] = [
      { signedWith, status: 403, said: 'forbidden: step 3 (signing key) failed', step: 3, trust: true },
      { signedWith: { ...signedWith, kid: undefined }, status: 503, retryAfter: '30', trust: true },
      { signedWith, status: 403, said: 'no', retryAfter: '5', step: 6, trust: false },
      { signedWith, status: 500, trust: false },
    ];
    for (const m of shapes) {
      assert.deepEqual(leftEnglish('refusal', refusalSaid(m, AUDIT_GENUINE_DELIVERY, 'http://127.0.0.1:1/w')), []);
      assert.deepEqual(leftEnglish('advice', matchAdviceSaid(m)), []);
      assert.equal(english(matchAdviceSaid(m)), matchAdvice(m));
      assert.equal(
        english(refusalSaid(m, AUDIT_GENUINE_DELIVERY, 'http://r')),
        refusalText(m, "the audit's genuine delivery", 'http://r'),
      );
    }
    // The English, pinned as the CLI prints it.
    assert.equal(
      refusalText(shapes[1]!, 'x.json', 'http://r'),
      'http://r answered 503 with no reason with Retry-After 30 to x.json, signed with issuer https://iss.test, key set https://iss.test/jwks (audience aud).',
    );
    assert.equal(answerText(shapes[2]!), 'answered 403 ("no") with Retry-After 5');
    assert.equal(
      matchAdvice(shapes[2]!),
      'The receiver names step 6, which is not about trust: hash the raw request bytes as received (SHA-256) and compare with body_sha256.',
    );
  });

  describe('results of a run', () => {
    const clock = new SystemClock();
    let sandbox: Sandbox;
    let sandboxUrl: string;
    let sandboxSecret: string;
    let trust: { issuer: string; audience: string; jwksUrl: string };

    before(async () => {
      sandbox = new Sandbox({ port: 0 });
      const info = await sandbox.start();
      sandboxUrl = info.baseUrl;
      sandboxSecret = info.controlSecret;
      trust = { issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl };
    });
    after(() => sandbox.stop());

    async function auditOf(mistake: Mistake): Promise<AuditSummary> {
      const r = new BrokenReceiver(mistake, trust);
      const url = await r.start();
      try {
        const processedUrl = new URL('/processed', url).toString();
        return await runAudit({ target: url, sandboxUrl, sandboxSecret, clock, processedUrl });
      } finally {
        await r.stop();
      }
    }

    /** Every text of ours in the summary, worded: none left in English; the worded copy is what a face shows. */
    function assertWorded(s: AuditSummary): void {
      const left = [
        ...s.results.flatMap((r) =>
          (['title', 'rule', 'why', 'fix', 'detail'] as const).flatMap((k) => leftEnglish(`${r.id}.${k}`, r.said?.[k])),
        ),
        ...s.inYourCode.flatMap((c) => (c.probe ? leftEnglish(`${c.id} probe`, c.probe.said) : [])),
      ];
      assert.deepEqual(left, []);
      const shown = auditWorded(s, pseudoWording);
      s.results.forEach((r, i) => {
        const w = shown.results[i]!;
        assert.equal(w.detail, worded(r.said!.detail, pseudoWording));
        assert.equal(w.fix, worded(r.said!.fix, pseudoWording));
        assert.equal(w.title, pseudoLocalize(r.title));
        assert.equal('said' in w, false, 'the page gets words, not Saids');
        // The English kept beside them is the Said's English: what the CLI, the reports and the MCP tools print.
        for (const k of ['title', 'rule', 'why', 'fix', 'detail'] as const) assert.equal(english(r.said![k]), r[k]);
      });
      s.inYourCode.forEach((c, i) => {
        assert.equal(shown.inYourCode[i]!.lookFor, pseudoLocalize(c.lookFor));
        if (c.probe) assert.equal(shown.inYourCode[i]!.probe!.detail, worded(c.probe.said!, pseudoWording));
      });
      // The exported JSON is English and carries no Saids.
      const json = JSON.parse(auditJson(s)) as { results: object[]; inYourCode: { probe?: object }[] };
      assert.equal(
        json.results.some((r) => 'said' in r),
        false,
      );
      assert.equal(
        json.inYourCode.some((c) => 'said' in c || (c.probe && 'said' in c.probe)),
        false,
      );
    }

    it('a receiver that checks no signature: failed cases and the poisoning probe, worded', async () => {
      const s = await auditOf('no-signature-check');
      assert.ok(s.results.some((r) => !r.passed));
      assert.equal(s.inYourCode.find((c) => c.id === 'dedupe-poisoning')!.probe!.passed, false);
      assertWorded(s);
    });

    it('a receiver that follows jku and one that answers 500 when the key set fails: watched requests, 5xx', async () => {
      const jku = await auditOf('follows-jku');
      assert.match(jku.results.find((r) => r.id === 'jku-header')!.detail, /jku address in the token/);
      assertWorded(jku);
      const failing = await auditOf('key-failure-500');
      assert.match(failing.results.find((r) => r.id === 'key-set-failing')!.detail, /^answered 500: a refusal/);
      assertWorded(failing);
    });

    it('a receiver that processes duplicates, and one that refuses the genuine delivery (the trust mismatch)', async () => {
      const dup = await auditOf('processes-duplicates');
      assert.equal(dup.inYourCode.find((c) => c.id === 'duplicates-processed-twice')!.probe!.passed, false);
      assertWorded(dup);
      const refused = await auditOf('refuses-everything');
      assert.ok(refused.trustMismatch);
      assert.match(refused.results[0]!.detail, /the other 29 cases were not sent/);
      assertWorded(refused);
    });

    it('a receiver that refuses every forgery naming step 2: the advice for another step, worded', async () => {
      const server = new ScriptedServer();
      // The genuine delivery is answered 200 (the audit goes on), every other with a 401 naming step 2.
      server.script = [{ status: 200 }, { status: 401, body: 'unauthorized: step 2 (issuer)' }];
      const url = await server.start();
      try {
        const s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
        assert.match(s.results.find((r) => r.id === 'exp-30s-past')!.fix, /refused this delivery at step 2/);
        assertWorded(s);
      } finally {
        await server.stop();
      }
    });
  });

  it("reattributed advice keeps its words with its English (the genuine delivery's refusal)", () => {
    const words = (id: string) => AUDIT_CASES.find((c) => c.id === id)!.said;
    const base = { why: 'w', request: {} as never, durationMs: 0 };
    const genuine = AUDIT_CASES.find((c) => c.id === 'genuine')!;
    const exp = AUDIT_CASES.find((c) => c.id === 'exp-30s-past')!;
    const results: AuditCaseResult[] = [
      {
        ...base,
        ...genuine,
        expected: 200,
        status: 401,
        passed: false,
        detail: 'x',
        said: { ...words('genuine'), detail: words('genuine').why },
      },
      {
        ...base,
        ...exp,
        expected: 200,
        status: 401,
        passed: false,
        detail: 'x',
        said: { ...words('exp-30s-past'), detail: words('exp-30s-past').why },
      },
    ];
    reattributeFailures(results);
    const r = results[1]!;
    assert.equal(
      r.fix,
      'The genuine delivery was answered 401 too, so this failure says nothing about step 5. Fix the genuine case first, then run the audit again.',
    );
    assert.equal(english(r.said!.fix), r.fix);
    assert.deepEqual(leftEnglish('fix', r.said!.fix), []);
    assert.equal(auditResultWorded(r, pseudoWording).fix, worded(r.said!.fix, pseudoWording));
  });
});
