// The receiver audit: our own receiver passes every case; a receiver with one classic mistake fails exactly the
// case written for it; safety rules (loopback only unless confirmed, bounded, sandbox tokens only).
import assert from 'node:assert/strict';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { SystemClock } from '../../../src/core/time/clock';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { AUDIT_CASES, probeBody } from '../../../src/core/audit/auditCases';
import {
  AuditRefused,
  AuditTargetUnreachable,
  checkTarget,
  reattributeFailures,
  runAudit,
  type AuditSummary,
} from '../../../src/core/audit/receiverAudit';
import { auditCurl, auditJson, auditMarkdown } from '../../../src/core/audit/auditReport';
import { BrokenReceiver, type Mistake } from '../helpers/brokenReceiver';
import { RecordingServer } from '../helpers/recordingServer';
import { ScriptedServer } from '../helpers/scriptedServer';
import { KeySetServer, newRsaKey } from '../helpers/keySetServer';
import { english, SaidError } from '../../../src/core/presentation/said';

const CAUGHT_BY: Record<string, Mistake> = {
  genuine: 'refuses-everything',
  duplicate: 'no-dedupe-answers-409',
  'no-authorization': 'no-auth-check',
  'not-bearer': 'any-scheme',
  'unknown-issuer': 'no-issuer-check',
  'alg-none': 'accepts-alg-none',
  'hs256-public-key': 'alg-confusion',
  rs512: 'any-rsa-alg',
  'wrong-audience': 'no-audience-check',
  'exp-missing': 'exp-optional',
  'exp-30s-past': 'no-clock-tolerance',
  'exp-120s-past': 'lenient-tolerance',
  'body-hash-missing': 'no-body-hash',
  'body-changed': 'no-body-hash',
  'body-reserialized': 'hashes-reserialized-json',
  'jku-header': 'follows-jku',
  'foreign-key-known-kid': 'no-signature-check',
  'key-set-failing': 'key-failure-500',
  'jwk-header': 'trusts-jwk-header',
  'x5u-header': 'follows-x5u',
  rs384: 'accepts-rs384',
  ps256: 'accepts-ps256',
  'unknown-issuer-trusted-key': 'no-issuer-check-cached-keys',
  'iss-derived-jwks': 'iss-derived-jwks',
  'exp-75s-past': 'tolerance-90',
  'malformed-segments': 'malformed-500',
  'truncated-token': 'malformed-500',
  'empty-bearer': 'malformed-500',
  'hs256-pkcs1-pem': 'alg-confusion-pkcs1',
  'hs256-jwk-modulus': 'alg-confusion-modulus',
};
/** The mistakes the first 18 cases missed (each scored 18/18 before these cases existed). */
const MISSED_BY_THE_FIRST_18 = [
  'trusts-jwk-header',
  'follows-x5u',
  'accepts-rs384',
  'accepts-ps256',
  'no-issuer-check-cached-keys',
  'iss-derived-jwks',
  'tolerance-90',
  'malformed-500',
  'alg-confusion-pkcs1',
  'alg-confusion-modulus',
] as const;
const FIRST_18 = [
  'genuine',
  'duplicate',
  'no-authorization',
  'not-bearer',
  'unknown-issuer',
  'alg-none',
  'hs256-public-key',
  'rs512',
  'wrong-audience',
  'exp-missing',
  'exp-30s-past',
  'exp-120s-past',
  'body-hash-missing',
  'body-changed',
  'body-reserialized',
  'jku-header',
  'foreign-key-known-kid',
  'key-set-failing',
];

describe('receiver audit', function () {
  this.timeout(60_000);
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

  it('has every case the issue lists, each with a rule, a reason and a fix, and a mistake that it catches', () => {
    assert.deepEqual(AUDIT_CASES.map((c) => c.id).sort(), Object.keys(CAUGHT_BY).sort());
    for (const c of AUDIT_CASES)
      for (const k of ['title', 'rule', 'why', 'fix'] as const)
        assert.ok(c[k].length > 20 || k === 'title', `${c.id}.${k}`);
  });

  it('our own receiver passes every case', async () => {
    const receiver = new Receiver({ verifier: new Verifier({ issuers: [trust], clock }), clock });
    const url = await receiver.start();
    try {
      const s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
      assert.deepEqual(
        s.results.filter((r) => !r.passed).map((r) => `${r.id}: ${r.detail}`),
        [],
      );
      assert.equal(s.passed, AUDIT_CASES.length);
      // Its refetch cooldown: a kid the key set does not hold, right after a fetch, is not decided yet (issue #51).
      assert.match(
        s.results.find((r) => r.id === 'key-set-failing')!.detail,
        /^answered 503 with Retry-After \d+: not decided/,
      );
      const dup = receiver.history.all().filter((r) => r.duplicate);
      assert.equal(dup.length, 1, 'the duplicate was recognised, not processed twice');
    } finally {
      await receiver.stop();
    }
  });

  it('a receiver trusting another key set: the audit stops at the refused genuine delivery, naming the key it signed with and what the receiver said', async () => {
    const wrong = new KeySetServer();
    await wrong.start();
    wrong.keys = [(await newRsaKey('someone-else')).jwk];
    const receiver = new Receiver({
      verifier: new Verifier({ issuers: [{ ...trust, jwksUrl: wrong.url }], clock }),
      clock,
    });
    const url = await receiver.start();
    try {
      const s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
      assert.deepEqual(
        s.results.map((r) => [r.id, r.passed]),
        [['genuine', false]],
        'no attack case was sent: a refusal of theirs would say nothing',
      );
      assert.equal(receiver.history.all().length, 1, 'one delivery reached the receiver');
      assert.deepEqual([s.passed, s.failed, s.total, s.notSent], [0, 1, 1, AUDIT_CASES.length - 1]);
      const m = s.trustMismatch!;
      const kid = sandbox.context.signer.currentKid;
      assert.deepEqual(m, {
        signedWith: { ...trust, kid },
        status: 403,
        said: 'forbidden: step 3 (signing key) failed',
        step: 3,
        trust: true,
      });
      const genuine = s.results[0]!;
      assert.equal(genuine.trustMismatch, m);
      assert.match(
        genuine.detail,
        /^answered 403 \("forbidden: step 3 \(signing key\) failed"\): the receiver refused a genuine delivery, signed with issuer .*, key set .*jwks\.json, kid .*; the other 29 cases were not sent/,
      );
      assert.match(
        genuine.fix,
        /^The receiver does not trust that key\. Make them match: have the receiver trust issuer /,
      );
      assert.match(auditMarkdown(s), /\*\*The receiver refused the genuine delivery\*\*: it answered 403/);
    } finally {
      await receiver.stop();
      await wrong.stop();
    }
  });

  it("a refusal that names no step stops the audit too; a refusal naming a step trust does not decide gets that step's advice", async () => {
    const r = new BrokenReceiver('refuses-everything', trust);
    const url = await r.start();
    try {
      const s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
      assert.deepEqual(
        s.results.map((x) => x.id),
        ['genuine'],
      );
      assert.equal(s.trustMismatch!.trust, true);
      assert.equal(s.trustMismatch!.step, undefined);
    } finally {
      await r.stop();
    }
    const rec = new ScriptedServer();
    rec.script = [{ status: 403, body: 'forbidden: step 6 (body hash) failed\n' }];
    const url2 = await rec.start();
    try {
      const s = await runAudit({ target: url2, sandboxUrl, sandboxSecret, clock });
      assert.equal(rec.requests.length, 1);
      assert.equal(s.trustMismatch!.trust, false);
      assert.match(
        s.results[0]!.fix,
        /^The receiver names step 6, which is not about trust: hash the raw request bytes/,
      );
    } finally {
      await rec.stop();
    }
  });

  it('a receiver trusting another sandbox under the same issuer (a second environment): 30/30 when each token the audit sends is trusted once, a trust mismatch when not', async () => {
    const staging = new Sandbox({ port: 0 });
    const st = await staging.start();
    const verifier = new Verifier({
      issuers: [{ issuer: st.issuer, audience: st.audience, jwksUrl: st.jwksUrl }],
      clock,
    });
    const receiver = new Receiver({ verifier, clock });
    const url = await receiver.start();
    try {
      assert.equal(st.issuer, trust.issuer, 'every sandbox signs as the same issuer');
      const refused = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
      assert.equal(refused.trustMismatch?.step, 3);
      const s = await runAudit({
        target: url,
        sandboxUrl,
        sandboxSecret,
        clock,
        beforeSend: (auth) => {
          if (auth?.startsWith('Bearer ')) verifier.trustToken(auth.slice(7), [trust], { once: true });
        },
      });
      assert.deepEqual(
        s.results.filter((r) => !r.passed).map((r) => `${r.id}: ${r.detail}`),
        [],
      );
      assert.equal(s.passed, AUDIT_CASES.length);
      assert.deepEqual(
        receiver.history
          .all()
          .filter((r) => r.signedHere)
          .map((r) => r.duplicate),
        [false, true, false],
        'the three it must accept (the genuine delivery, its duplicate, 30 s past exp), marked signed here',
      );
    } finally {
      await receiver.stop();
      await staging.stop();
    }
  });

  it('asked for cases without the genuine one: it is sent first, to check trust, and reported only when refused', async () => {
    const only = AUDIT_CASES.filter((c) => c.id === 'wrong-audience');
    const ok = new BrokenReceiver('none', trust);
    const url = await ok.start();
    try {
      const s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock, cases: only });
      assert.deepEqual(
        s.results.map((x) => [x.id, x.passed]),
        [['wrong-audience', true]],
      );
      assert.equal(ok.processed, 1, 'the genuine delivery went first');
    } finally {
      await ok.stop();
    }
    const refusing = new BrokenReceiver('refuses-everything', trust);
    const url2 = await refusing.start();
    try {
      const s = await runAudit({ target: url2, sandboxUrl, sandboxSecret, clock, cases: only });
      assert.deepEqual(
        s.results.map((x) => [x.id, x.passed]),
        [['genuine', false]],
        'a 403 to the wrong audience would have passed, saying nothing',
      );
      assert.equal(s.notSent, 1);
    } finally {
      await refusing.stop();
    }
  });

  it("a case refused at another step than it probes gets that step's advice (reattributeFailures)", () => {
    const base = { title: 't', why: 'w', request: {} as never, durationMs: 0, fix: 'fixed advice' };
    const results = [
      { ...base, id: 'genuine', rule: 'Receiver responses: 200', expected: 200, status: 200, passed: true, detail: '' },
      {
        ...base,
        id: 'exp-30s-past',
        rule: 'Step 5: exp',
        expected: 200,
        status: 403,
        passed: false,
        detail: '',
        response: { status: 403, body: 'forbidden: step 3 (signing key) failed' },
      },
    ];
    reattributeFailures(results);
    assert.match(results[1]!.fix, /refused this delivery at step 3.*probes step 5.*Fix step 3 first: look the kid up/);
  });

  it('the test receiver with no mistake passes every case too (so each mistake below is the only difference)', async () => {
    const r = new BrokenReceiver('none', trust);
    const url = await r.start();
    try {
      const s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
      assert.deepEqual(
        s.results.filter((x) => !x.passed).map((x) => `${x.id}: ${x.detail}`),
        [],
      );
      assert.equal(
        r.processed,
        2,
        'processed: the genuine one and the one 30 s past exp; the duplicate was not processed again',
      );
    } finally {
      await r.stop();
    }
  });

  for (const [caseId, mistake] of Object.entries(CAUGHT_BY)) {
    it(`"${caseId}" catches a receiver that makes the mistake "${mistake}"`, async () => {
      const r = new BrokenReceiver(mistake, trust);
      const url = await r.start();
      try {
        const s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
        const result = s.results.find((x) => x.id === caseId)!;
        assert.equal(result.passed, false, `${caseId} should fail against ${mistake}: ${result.detail}`);
        assert.ok(result.fix.length > 0);
        if (caseId !== 'genuine')
          assert.equal(s.results.find((x) => x.id === 'genuine')!.passed, true, 'otherwise the receiver works');
      } finally {
        await r.stop();
      }
    });
  }

  it('a 90 s clock tolerance: exp 100 s past (the old case) misses it, exp 75 s past catches it', async () => {
    const r = new BrokenReceiver('tolerance-90', trust);
    const url = await r.start();
    const old = { ...AUDIT_CASES.find((c) => c.id === 'exp-75s-past')!, id: 'exp-100s-past' };
    old.build = async (ctx) => {
      const { body, webhookId } = probeBody('exp-100s-past', ctx.nowS());
      const now = ctx.nowS();
      const { token } = await ctx.sandbox.sign(body, { claims: { iat: now - 400, exp: now - 100 } });
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-svc-topic': 'audit/probe',
          'x-svc-webhook-id': webhookId,
          authorization: `Bearer ${token}`,
        },
      };
    };
    try {
      const s = await runAudit({
        target: url,
        sandboxUrl,
        sandboxSecret,
        clock,
        cases: [AUDIT_CASES[0]!, old, AUDIT_CASES.find((c) => c.id === 'exp-75s-past')!],
      });
      assert.deepEqual(
        s.results.map((x) => [x.id, x.passed, x.status]),
        [
          ['genuine', true, 200],
          ['exp-100s-past', true, 403],
          ['exp-75s-past', false, 200],
        ],
      );
    } finally {
      await r.stop();
    }
  });

  it('each mistake the new cases are for passes the first 18 cases: they were needed', async () => {
    for (const mistake of MISSED_BY_THE_FIRST_18) {
      const r = new BrokenReceiver(mistake, trust);
      const url = await r.start();
      try {
        const s = await runAudit({
          target: url,
          sandboxUrl,
          sandboxSecret,
          clock,
          cases: AUDIT_CASES.filter((c) => FIRST_18.includes(c.id)),
        });
        assert.deepEqual(
          s.results.filter((x) => !x.passed).map((x) => x.id),
          [],
          `${mistake} scores 18/18 on the first cases`,
        );
      } finally {
        await r.stop();
      }
    }
  });

  describe('check in your code (with a processed-count URL, the dedupe probes)', () => {
    async function auditWith(mistake: Mistake, withCount = true) {
      const r = new BrokenReceiver(mistake, trust);
      const url = await r.start();
      try {
        return await runAudit({
          target: url,
          sandboxUrl,
          sandboxSecret,
          clock,
          processedUrl: withCount ? new URL('/processed', url).toString() : undefined,
        });
      } finally {
        await r.stop();
      }
    }
    const probe = (s: AuditSummary, id: string) => s.inYourCode.find((c) => c.id === id)!.probe;

    it('without the URL: three things to look for, none probed, in the scorecard', async () => {
      const s = await auditWith('none', false);
      assert.deepEqual(
        s.inYourCode.map((c) => [c.id, c.probe]),
        [
          ['constant-time-hash', undefined],
          ['duplicates-processed-twice', undefined],
          ['dedupe-poisoning', undefined],
        ],
      );
      assert.match(auditMarkdown(s), /## Check in your code[\s\S]*timingSafeEqual/);
    });

    it('a correct receiver passes both probes', async () => {
      const s = await auditWith('none');
      assert.equal(probe(s, 'duplicates-processed-twice')?.passed, true);
      assert.equal(probe(s, 'dedupe-poisoning')?.passed, true);
      assert.deepEqual(
        [s.passed, s.failed, s.total],
        [s.results.length + 2, 0, s.results.length + 2],
        'the probes count as tests',
      );
    });

    it('webhookId recorded before verification: every case passes, the poisoning probe does not', async () => {
      const s = await auditWith('records-id-before-verify');
      assert.deepEqual(
        s.results.filter((r) => !r.passed).map((r) => r.id),
        [],
        'invisible to the 30 cases',
      );
      assert.equal(probe(s, 'dedupe-poisoning')?.passed, false);
      assert.match(
        probe(s, 'dedupe-poisoning')!.detail,
        /^the forged delivery poisoned the dedupe set: it was refused, but its webhookId was kept/,
      );
      assert.equal(s.failed, 1, 'a failed probe fails the audit');
      assert.equal(s.passed + s.failed, s.total, 'and is counted in the total too');
    });

    it('duplicates processed again while answering 200: every case passes, the duplicates probe does not', async () => {
      const s = await auditWith('processes-duplicates');
      assert.deepEqual(
        s.results.filter((r) => !r.passed).map((r) => r.id),
        [],
      );
      assert.equal(probe(s, 'duplicates-processed-twice')?.passed, false);
      assert.match(
        probe(s, 'duplicates-processed-twice')!.detail,
        /^the same event delivered twice was processed 2 times/,
      );
    });

    it('a forged delivery accepted and processed (no signature check): the poisoning probe names that, not the counts', async () => {
      const s = await auditWith('no-signature-check');
      assert.match(
        probe(s, 'dedupe-poisoning')!.detail,
        /^a forged delivery \(signed with a key the issuer never published\) was answered 200: the receiver accepted it and processed it; it must refuse it with 403/,
      );
    });
  });

  it('refuses a target that is not loopback unless confirmed, before sending anything', async () => {
    assert.throws(() => checkTarget('https://example.com/webhooks'), AuditRefused);
    assert.throws(() => checkTarget('http://user:pw@127.0.0.1/x'), /credentials/);
    assert.throws(() => checkTarget('ftp://127.0.0.1/x'), /http/);
    assert.equal(checkTarget('https://example.com/webhooks', true).host, 'example.com');
    assert.equal(checkTarget('http://localhost:3000/webhooks').port, '3000');
    await assert.rejects(
      runAudit({ target: 'http://192.0.2.1/webhooks', sandboxUrl, sandboxSecret, clock }),
      AuditRefused,
    );
  });

  it('sends a bounded number of requests, none carrying a real credential (only sandbox or audit-made tokens)', async () => {
    const rec = new RecordingServer();
    const url = await rec.start();
    try {
      const signIn = await fetch(`${sandboxUrl}/sandbox`, { headers: { 'x-sandbox-secret': sandboxSecret } }).then(
        (r) => r.json(),
      );
      const s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
      assert.equal(rec.requests.length, AUDIT_CASES.length, 'one request per case');
      let notTokens = 0;
      for (const req of rec.requests) {
        assert.ok(
          !JSON.stringify(req.headers).includes(sandboxSecret),
          "the sandbox's control secret never leaves for the target",
        );
        const auth = req.headers.authorization as string | undefined;
        if (!auth) continue;
        // The malformed-token cases send what is not a JWT at all; every real token is checked.
        const [h, p] = (auth.split(' ')[1] ?? '').split('.');
        let claims: Record<string, unknown>;
        try {
          claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
        } catch {
          notTokens++;
          continue;
        }
        assert.ok(!('sub' in claims) && !('scope' in claims), 'no user token');
        assert.ok(JSON.parse(Buffer.from(h!, 'base64url').toString()).kid, 'a webhook-style token with a kid');
        assert.ok(!auth.includes((signIn as { password: string }).password));
      }
      assert.equal(notTokens, 3, 'only the three malformed-token cases carry something that is not a JWT');
      assert.ok(s.failed > 0, 'a server that answers everything the same fails the audit');
    } finally {
      await rec.stop();
    }
  });

  it('a target where nothing listens: one AuditTargetUnreachable with the errno, no case reported', async () => {
    const seen: string[] = [];
    await assert.rejects(
      runAudit({
        target: 'http://127.0.0.1:9/webhooks',
        sandboxUrl,
        sandboxSecret,
        clock,
        requestTimeoutMs: 2000,
        onResult: (r) => seen.push(r.id),
      }),
      (err: unknown) =>
        err instanceof AuditTargetUnreachable &&
        err.code === 'ECONNREFUSED' &&
        // Said, for the audit panel to word; its English is the transport's, as the CLI prints it.
        err instanceof SaidError &&
        err.message === english(err.said) &&
        /ECONNREFUSED|refused/i.test(err.message),
    );
    assert.deepEqual(seen, []);
  });

  it('the scorecard: Markdown with a fix and a curl per failure, JSON with every case', async () => {
    const r = new BrokenReceiver('exp-optional', trust);
    const url = await r.start();
    let s: AuditSummary;
    try {
      s = await runAudit({ target: url, sandboxUrl, sandboxSecret, clock });
    } finally {
      await r.stop();
    }
    const md = auditMarkdown(s);
    assert.match(md, new RegExp(`^# Webhook receiver audit: ${s.passed}/${s.total} passed`));
    assert.match(
      md,
      /### No exp claim[\s\S]*\*\*Fix:\*\* Require the claim[\s\S]*```sh\nprintf %s '.*' \| curl -sS -i --globoff -X POST/,
    );
    assert.equal(JSON.parse(auditJson(s)).results.length, AUDIT_CASES.length);
    const curl = auditCurl(s.results[0]!);
    assert.match(curl, /-H 'authorization: Bearer ey/);
    // The body goes on standard input (core/presentation's rule), never as an argument curl could read as @file.
    assert.match(curl, /^printf %s '[^']*' \| curl -sS -i --globoff -X POST \\\n/);
    assert.match(curl, /--data-binary @-$/);
  });
});
