// `wfs audit --junit`: the file validates against the JUnit XML schema CI servers read (test/fixtures/junit.xsd,
// checked with libxml2 compiled to WebAssembly), one testcase per case, each failure carrying the case's fix.
import assert from 'node:assert/strict';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { SystemClock } from '../../../src/core/time/clock';
import { AUDIT_CASES } from '../../../src/core/audit/auditCases';
import { runAudit, type AuditSummary } from '../../../src/core/audit/receiverAudit';
import { auditJunit, auditSummaryMarkdown } from '../../../src/core/audit/auditReport';
import { BrokenReceiver } from '../helpers/brokenReceiver';

import { validateJunit } from '../helpers/junitSchema';

const unescape = (s: string) =>
  s
    .replace(/&#10;/g, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');

describe('audit reports for CI', function () {
  this.timeout(60_000);
  let summary: AuditSummary;
  before(async () => {
    const sandbox = new Sandbox({ port: 0 });
    const info = await sandbox.start();
    const r = new BrokenReceiver('malformed-500', {
      issuer: info.issuer,
      audience: info.audience,
      jwksUrl: info.jwksUrl,
    });
    const url = await r.start();
    try {
      summary = await runAudit({
        target: url,
        sandboxUrl: info.baseUrl,
        sandboxSecret: info.controlSecret,
        clock: new SystemClock(),
      });
    } finally {
      await r.stop();
      await sandbox.stop();
    }
    assert.equal(summary.failed, 3, 'the three malformed-token cases fail');
  });

  it('JUnit XML: valid against the schema, one testcase per case, failures carrying the fix as their message', async () => {
    const xml = auditJunit(summary);
    const v = await validateJunit(xml);
    assert.deepEqual(v.errors, []);
    assert.equal(v.valid, true);
    assert.equal([...xml.matchAll(/<testcase /g)].length, AUDIT_CASES.length);
    const failures = [...xml.matchAll(/<failure message="([^"]*)"/g)].map((m) => unescape(m[1]!));
    assert.deepEqual(
      failures,
      summary.results.filter((r) => !r.passed).map((r) => r.fix),
    );
    assert.match(
      xml,
      /<testsuite name="Webhook receiver audit: http:\/\/127\.0\.0\.1:\d+\/webhooks" tests="30" failures="3" errors="0"/,
    );
    assert.match(xml, /classname="wfs\.audit\.Step 1" name="empty-bearer: /);
  });

  it('stays valid whatever the receiver answered: quotes, ]]>, control characters, non-ASCII', async () => {
    const nasty = {
      ...summary,
      results: summary.results.map((r, i) =>
        i === 2
          ? {
              ...r,
              passed: false,
              detail: 'a "quoted" ]]> end \u0001 naïve <tag> & more',
              fix: 'fix "this" & <that>\nnext line\u0002',
            }
          : r,
      ),
    };
    const xml = auditJunit({ ...nasty, failed: nasty.results.filter((r) => !r.passed).length });
    assert.deepEqual((await validateJunit(xml)).errors, []);
    assert.ok(xml.includes('fix &quot;this&quot; &amp; &lt;that&gt;&#10;next line'));
  });

  it('the schema check is real: a testcase without a name, or a failure outside a testcase, is rejected', async () => {
    assert.equal(
      (
        await validateJunit(
          auditJunit(summary).replace(/<testcase classname="([^"]*)" name="[^"]*"/, '<testcase classname="$1"'),
        )
      ).valid,
      false,
    );
    assert.equal(
      (await validateJunit(auditJunit(summary).replace('<properties>', '<failure message="x"/><properties>'))).valid,
      false,
    );
  });

  it('the Markdown summary: a row per case, the fix for each failure', () => {
    const md = auditSummaryMarkdown(summary);
    assert.match(md, /^### Webhook receiver audit: 27\/30 passed ❌/);
    assert.equal(md.split('\n').filter((l) => /^\| (✅|❌) \|/.test(l)).length, AUDIT_CASES.length);
    assert.match(
      md,
      /\| ❌ \| An empty Bearer token .* \| Step 1 \| 403 \| 500 \| Refuse with 403 an Authorization header whose token is empty/,
    );
  });

  it('the Markdown summary with the processed-count probes: a row for each, so the rows add up to the totals', () => {
    const probed: AuditSummary = {
      ...summary,
      passed: summary.passed + 1,
      failed: summary.failed + 1,
      total: summary.total + 2,
      inYourCode: summary.inYourCode.map((c) =>
        c.id === 'duplicates-processed-twice'
          ? { ...c, probe: { passed: true, detail: 'the count went up by 1 for 2 copies' } }
          : c.id === 'dedupe-poisoning'
            ? { ...c, probe: { passed: false, detail: 'a forged delivery was answered 200' } }
            : c,
      ),
    };
    const md = auditSummaryMarkdown(probed);
    assert.match(md, /^### Webhook receiver audit: 28\/32 passed ❌/);
    const rows = md.split('\n').filter((l) => /^\| (✅|❌) \|/.test(l));
    assert.equal(rows.length, probed.total, 'one row per case and per probe');
    assert.equal(rows.filter((l) => l.startsWith('| ✅')).length, probed.passed);
    assert.match(
      rows.at(-1)!,
      /^\| ❌ \| .* \| Check in your code \| counted once \| a forged delivery was answered 200 \| /,
    );
  });
});
