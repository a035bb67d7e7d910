// The contract check's page: a strict CSP (nothing but this page's own nonce'd style and script), the report as
// JSON in a non-executed data block (every "<" escaped), and a script that writes it with textContent only.
import type { ProbeReport } from '../../core/probe';

function probeCsp(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** JSON safe inside a <script type="application/json"> block: no "<" (so no "</script>"), no line separators. */
function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px 24px; }
header { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; padding: 8px 0; position: sticky; top: 0; background: var(--vscode-editor-background); }
button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 4px 10px; cursor: pointer; }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--vscode-panel-border); }
th { font-weight: 600; }
tr.differs td.verdict { color: var(--vscode-errorForeground); font-weight: 600; }
tr.silent td.verdict { color: var(--vscode-descriptionForeground); }
tr.not-probed { opacity: 0.7; }
.summary { margin: 4px 0 12px; }
.note { color: var(--vscode-descriptionForeground); }
`;

const SCRIPT = `(() => {
  const vscode = acquireVsCodeApi();
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
  document.getElementById('title').textContent = 'Contract check of ' + report.origins.service;
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

export function probeHtml(i: { cspSource: string; nonce: string; report: ProbeReport & { summary: string } }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${probeCsp(i.cspSource, i.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Contract Check</title>
<style nonce="${i.nonce}">${STYLE}</style>
</head>
<body>
<header role="toolbar" aria-label="Report actions">
  <strong id="title">Contract check</strong>
  <button id="export-md" type="button">Export Markdown…</button>
  <button id="export-json" type="button">Export JSON…</button>
</header>
<p id="summary" class="summary" role="status"></p>
<p id="outcome" class="note"></p>
<table aria-label="Observations">
  <thead><tr><th></th><th>Observation</th><th>The spec says</th><th>The sandbox does</th><th>The service did</th><th>Verdict</th></tr></thead>
  <tbody id="probe-rows"></tbody>
</table>
<script type="application/json" id="report-data">${jsonForHtml(i.report)}</script>
<script nonce="${i.nonce}">${SCRIPT}</script>
</body>
</html>`;
}
