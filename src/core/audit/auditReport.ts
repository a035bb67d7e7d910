// The audit scorecard as Markdown and JSON, and each case's request as curl.
import { shellQuote } from '../http/shellQuote';
import type { AuditCaseResult, AuditSummary } from './receiverAudit';

export function auditCurl(r: AuditCaseResult): string {
  const parts = [`curl -sS -i -X POST ${shellQuote(r.request.url)}`];
  for (const [k, v] of Object.entries(r.request.headers)) parts.push(`-H ${shellQuote(`${k}: ${v}`)}`);
  parts.push(`--data-binary ${shellQuote(r.request.body)}`);
  return parts.join(' \\\n  ');
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
    '| | case | expected | answered | result |',
    '|---|---|---|---|---|',
    ...s.results.map((r) => `| ${r.passed ? '✅' : '❌'} | ${cell(r.title)} | ${r.expected} | ${r.status ?? cell(r.error ?? '—')} | ${cell(r.detail)} |`),
    '',
  ];
  const failed = s.results.filter((r) => !r.passed);
  if (failed.length) {
    lines.push('## How to fix', '');
    for (const r of failed) lines.push(`### ${r.title}`, '', `**Rule:** ${r.rule}`, '', `**Seen:** ${r.detail}.`, '', `**Why:** ${r.why}`, '', `**Fix:** ${r.fix}`, '', '```sh', auditCurl(r), '```', '');
  }
  return lines.join('\n');
}

export function auditJson(s: AuditSummary): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}
