// The report as Markdown (--markdown, the editor's Export) and the summary words every face shares.
import type { ProbeReport, RowResult } from './probeTypes';
import { summaryLine } from './probeWords';

export { summaryLine };

/** A table cell: one line, pipes escaped, never markup from the service (it holds names and statuses only). */
function cell(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/</g, '&lt;');
}

function verdictMark(r: RowResult): string {
  return r.verdict === 'differs'
    ? '✗'
    : r.verdict === 'not-probed'
      ? '–'
      : r.verdict === 'silent'
        ? r.matchesSandbox
          ? '≈'
          : '?'
        : '✓';
}

export function probeMarkdown(r: ProbeReport): string {
  const lines = [
    `# Contract check of ${r.origins.service}`,
    '',
    `${summaryLine(r)}`,
    '',
    `${r.tool} ${r.version}, ${r.at}. Test endpoint ${r.origins.testWebhook}${r.origins.keySets.length ? `; key sets at ${r.origins.keySets.join(', ')}` : ''}. No request of the probe can bill: every start names a session that cannot exist and a product that cannot resolve.`,
    '',
  ];
  if (r.outcome.message) lines.push(`**${cell(r.outcome.message)}**`, '');
  if (r.outcome.accepted)
    lines.push(
      `Accepted start: row ${r.outcome.accepted.row}, status ${r.outcome.accepted.status}, workflowId ${r.outcome.accepted.workflowId ?? '(none in the answer)'}, correlationId ${r.outcome.accepted.correlationId}.`,
      '',
    );
  lines.push(
    '| | Observation | Request | The spec says | The sandbox does | The service did | Verdict |',
    '|---|---|---|---|---|---|---|',
  );
  for (const row of r.rows)
    lines.push(
      `| ${verdictMark(row)} | ${cell(row.title)} | ${cell(row.request)} | ${cell(row.spec)} | ${cell(row.sandbox)} | ${cell(row.serviceText)} | ${cell(row.verdictText)} |`,
    );
  lines.push(
    '',
    '✓ as the spec says · ≈ the spec is silent, the service does as the sandbox · ? the spec is silent, the service chose otherwise · ✗ differs from the spec · – not probed',
    '',
  );
  return lines.join('\n');
}
