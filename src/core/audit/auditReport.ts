// The audit scorecard as Markdown and JSON, and each case's request as curl.
import { bashCurlAsGiven } from '../presentation';
import type { AuditCaseResult, AuditSummary } from './receiverAudit';
import { answerText, matchAdvice, signingKeyText } from './trustMismatch';

/** The audit stopped at the genuine delivery: one paragraph saying so, or nothing. */
function mismatchLines(s: AuditSummary): string[] {
  const m = s.trustMismatch;
  if (!m) return [];
  return [
    `**The receiver refused the genuine delivery**: it ${answerText(m)}. The audit signed it with ${signingKeyText(m.signedWith)}. The other ${s.notSent ?? 0} cases were not sent: a refusal of theirs would say nothing.`,
    '',
    `**How to make them match:** ${matchAdvice(m)}`,
    '',
  ];
}

/** The case's request as bash sends it again: built in core/presentation, the body on standard input. */
export function auditCurl(r: AuditCaseResult): string {
  return bashCurlAsGiven({
    url: r.request.url,
    headers: Object.entries(r.request.headers),
    body: Buffer.from(r.request.bodyBase64, 'base64'),
  });
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function auditMarkdown(s: AuditSummary): string {
  const lines = [
    `# Webhook receiver audit: ${s.passed}/${s.total} passed`,
    '',
    `Target: \`${s.target}\` — ${s.startedAt}`,
    '',
    `The receiver was expected to trust issuer \`${s.trust.issuer}\`, audience \`${s.trust.audience}\`, key set \`${s.trust.jwksUrl}\`.`,
    '',
    ...mismatchLines(s),
    '| | case | expected | answered | result |',
    '|---|---|---|---|---|',
    ...s.results.map(
      (r) =>
        `| ${r.passed ? '✅' : '❌'} | ${cell(r.title)} | ${r.expected} | ${r.status ?? cell(r.error ?? '—')} | ${cell(r.detail)} |`,
    ),
    '',
  ];
  lines.push(
    '## Check in your code',
    '',
    'These mistakes cannot be seen from outside (or only with the processed count, `--processed-url`):',
    '',
  );
  for (const c of s.inYourCode ?? [])
    lines.push(
      `- ${c.probe ? (c.probe.passed ? '✅' : '❌') : '🔍'} **${c.title}.** ${c.lookFor}${c.probe ? ` *Probed:* ${c.probe.detail}.` : ''}`,
    );
  lines.push('');
  const failed = s.results.filter((r) => !r.passed);
  if (failed.length) {
    lines.push('## How to fix', '');
    for (const r of failed)
      lines.push(
        `### ${r.title}`,
        '',
        `**Rule:** ${r.rule}`,
        '',
        `**Seen:** ${r.detail}.`,
        '',
        `**Why:** ${r.why}`,
        '',
        `**Fix:** ${r.fix}`,
        '',
        '```sh',
        auditCurl(r),
        '```',
        '',
      );
  }
  return lines.join('\n');
}

/** The summary as JSON, in English: the words kept for the faces (`said`) are left out, so the file is the same
 * whichever language the editor that exported it speaks. */
export function auditJson(s: AuditSummary): string {
  const english = {
    ...s,
    results: s.results.map(({ said: _said, ...r }) => r),
    inYourCode: s.inYourCode?.map(({ said: _said, probe, ...c }) => ({
      ...c,
      ...(probe ? { probe: { passed: probe.passed, detail: probe.detail } } : {}),
    })),
  };
  return `${JSON.stringify(english, null, 2)}\n`;
}

const xmlAttr = (s: string) =>
  s
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');
/** Text in CDATA: "]]>" is split across two sections; characters XML 1.0 cannot carry are dropped. */
const cdata = (s: string) =>
  `<![CDATA[${s.replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD]/gu, '').replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;

/** The group a case belongs to in CI reports and VS Code's Testing view: its step, or what it probes. */
export function auditGroup(rule: string): string {
  const m = /^Step (\d)/.exec(rule);
  return m ? `Step ${m[1]}` : rule.split(':')[0]!;
}

/** JUnit XML: one testsuite, one testcase per case; a failure's message is the fix, its text the detail and curl. */
export function auditJunit(s: AuditSummary): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = s.results.reduce((a, r) => a + r.durationMs, 0);
  const tests = s.total;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="wfs audit" tests="${tests}" failures="${s.failed}" errors="0" time="${seconds(total)}">`,
    `  <testsuite name="${xmlAttr(`Webhook receiver audit: ${s.target}`)}" tests="${tests}" failures="${s.failed}" errors="0" skipped="0" time="${seconds(total)}" timestamp="${s.startedAt.replace(/\.\d+Z$/, '')}">`,
    '    <properties>',
    `      <property name="target" value="${xmlAttr(s.target)}"/>`,
    `      <property name="issuer" value="${xmlAttr(s.trust.issuer)}"/>`,
    `      <property name="audience" value="${xmlAttr(s.trust.audience)}"/>`,
    `      <property name="jwksUrl" value="${xmlAttr(s.trust.jwksUrl)}"/>`,
    '    </properties>',
  ];
  const probed = (s.inYourCode ?? []).filter((c) => c.probe);
  for (const c of probed) {
    const open = `    <testcase classname="wfs.audit.In your code" name="${xmlAttr(`${c.id}: ${c.title}`)}" time="0.000"`;
    if (c.probe!.passed) lines.push(`${open}/>`);
    else
      lines.push(
        `${open}>`,
        `      <failure message="${xmlAttr(c.lookFor)}" type="probe">${cdata(c.probe!.detail)}</failure>`,
        '    </testcase>',
      );
  }
  for (const r of s.results) {
    const open = `    <testcase classname="${xmlAttr(`wfs.audit.${auditGroup(r.rule)}`)}" name="${xmlAttr(`${r.id}: ${r.title}`)}" time="${seconds(r.durationMs)}"`;
    if (r.passed) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    lines.push(
      `      <failure message="${xmlAttr(r.fix)}" type="${xmlAttr(`expected ${r.expected}, answered ${r.status ?? 'nothing'}`)}">${cdata(`${r.detail}.\n\nRule: ${r.rule}\nWhy: ${r.why}\n\n${auditCurl(r)}`)}</failure>`,
    );
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

/** A Markdown table for CI job summaries ($GITHUB_STEP_SUMMARY and the like): one row per case, the fix for failures.
 * */
export function auditSummaryMarkdown(s: AuditSummary): string {
  return [
    `### Webhook receiver audit: ${s.passed}/${s.total} passed ${s.failed === 0 ? '✅' : '❌'}`,
    '',
    `\`${s.target}\`, trusting \`${s.trust.issuer}\``,
    '',
    ...mismatchLines(s),
    '| | case | rule | expected | answered | fix |',
    '|---|---|---|---|---|---|',
    ...s.results.map(
      (r) =>
        `| ${r.passed ? '✅' : '❌'} | ${cell(r.title)} | ${cell(auditGroup(r.rule))} | ${r.expected} | ${r.status ?? cell(r.error ?? '—')} | ${r.passed ? '' : cell(r.fix)} |`,
    ),
    // The probes count in the totals above (--processed-url): each is a row too, so the table adds up to them.
    ...(s.inYourCode ?? []).flatMap((c) =>
      c.probe
        ? [
            `| ${c.probe.passed ? '✅' : '❌'} | ${cell(c.title)} | Check in your code | counted once | ${cell(c.probe.detail)} | ${c.probe.passed ? '' : cell(c.lookFor)} |`,
          ]
        : [],
    ),
    '',
  ].join('\n');
}
