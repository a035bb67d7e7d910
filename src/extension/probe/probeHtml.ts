// The contract check's page: a strict CSP (nothing but this page's own nonce'd style and script), the report as
// JSON in a non-executed data block (every "<" escaped), and a script that writes it with textContent only.
import * as vscode from 'vscode';
import { probeOutcomeSaid, probeRowSaid, type ProbeReport } from '../../core/probe';
import { inUserWords } from '../coreWords';
import { PROBE_STYLE } from './probeStyle';

function probeCsp(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** Text safe in HTML content and in a double-quoted attribute (a translation may hold any character). */
function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a <script type="application/json"> block: no "<" (so no "</script>"), no line separators. */
function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const SCRIPT = `(() => {
  const vscode = acquireVsCodeApi();
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
  document.getElementById('title').textContent = report.title;
  document.getElementById('summary').textContent = report.summary;
  const outcome = document.getElementById('outcome');
  if (report.outcome.message) outcome.textContent = report.outcome.message; else outcome.hidden = true;
  const body = document.getElementById('probe-rows');
  const marks = { 'as-spec': '✓', silent: '≈', differs: '✗', 'not-probed': '–' };
  for (const r of report.rows) {
    const tr = el('tr', undefined, 'row ' + r.verdict);
    tr.setAttribute('data-id', r.id);
    tr.append(el('td', r.verdict === 'silent' && !r.matchesSandbox ? '?' : marks[r.verdict]), el('td', r.title), el('td', r.spec), el('td', r.sandbox), el('td', r.serviceText), el('td', r.verdictText, 'verdict'));
    body.append(tr);
  }
  for (const f of ['md', 'json'])
    document.getElementById('export-' + f).addEventListener('click', () => vscode.postMessage({ type: 'export', format: f }));
})();`;

/** The page's words, in the user's language (the rows' and the summary's are core's Saids, worded by the caller and
 * `wordedRows`). */
function probeText() {
  return {
    pageTitle: vscode.l10n.t('Contract Check'),
    actions: vscode.l10n.t('Report actions'),
    exportMarkdown: vscode.l10n.t('Export Markdown…'),
    exportJson: vscode.l10n.t('Export JSON…'),
    observations: vscode.l10n.t('Observations'),
    columns: [
      vscode.l10n.t('Mark'),
      vscode.l10n.t('Observation'),
      vscode.l10n.t('The spec says'),
      vscode.l10n.t('The sandbox does'),
      vscode.l10n.t('The service did'),
      vscode.l10n.t('Verdict'),
    ],
  };
}

/** The rows as the page shows them, in the user's words: what the service did keeps its statuses, media types and
 * names as they were recorded. */
function wordedRows(rows: ProbeReport['rows']): ProbeReport['rows'] {
  return rows.map((r) => {
    const w = probeRowSaid(r);
    return {
      ...r,
      title: inUserWords(w.title),
      spec: inUserWords(w.spec),
      sandbox: inUserWords(w.sandbox),
      serviceText: inUserWords(w.service),
      verdictText: inUserWords(w.verdictText),
    };
  });
}

/** How the probe ended, when it stopped early, in the user's words. */
function wordedOutcome(outcome: ProbeReport['outcome']): string | undefined {
  const s = probeOutcomeSaid(outcome);
  return s && inUserWords(s);
}

export function probeHtml(i: { cspSource: string; nonce: string; report: ProbeReport & { summary: string } }): string {
  const t = probeText();
  const report = {
    ...i.report,
    rows: wordedRows(i.report.rows),
    outcome: { ...i.report.outcome, message: wordedOutcome(i.report.outcome) },
    title: vscode.l10n.t('Contract check of {0}', i.report.origins.service),
  };
  // The first column holds only a mark (✓ ≈ ✗ –): its header is named for screen readers, not shown.
  const heads = t.columns.map((c, n) =>
    n === 0 ? `<th><span class="sr-only">${esc(c)}</span></th>` : `<th>${esc(c)}</th>`,
  );
  return `<!DOCTYPE html>
<html lang="${esc(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${probeCsp(i.cspSource, i.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${esc(t.pageTitle)}</title>
<style nonce="${i.nonce}">${PROBE_STYLE}</style>
</head>
<body>
<header role="toolbar" aria-label="${esc(t.actions)}">
  <strong id="title"></strong>
  <button id="export-md" type="button">${esc(t.exportMarkdown)}</button>
  <button id="export-json" type="button">${esc(t.exportJson)}</button>
</header>
<p id="summary" class="summary" role="status"></p>
<p id="outcome" class="note"></p>
<table aria-label="${esc(t.observations)}">
  <thead><tr>${heads.join('')}</tr></thead>
  <tbody id="probe-rows"></tbody>
</table>
<script type="application/json" id="report-data">${jsonForHtml(report)}</script>
<script nonce="${i.nonce}">${SCRIPT}</script>
</body>
</html>`;
}
