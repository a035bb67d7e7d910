// The audit scorecard's HTML shell: the same CSP and styles as the webhook panel, its own script.
import { contentSecurityPolicy } from './panelHtml';

export function auditHtml(i: { cspSource: string; nonce: string; scriptUri: string; styleUri: string }): string {
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(i.styleUri)}">
<title>Receiver Audit</title>
</head>
<body class="audit">
<header class="toolbar" role="toolbar" aria-label="Audit actions">
  <strong id="title">Receiver audit</strong>
  <button id="rerun" type="button">Run Again</button>
  <button id="export-md" type="button">Export Markdown…</button>
  <button id="export-json" type="button">Export JSON…</button>
  <span id="summary" class="summary" aria-live="polite"></span>
</header>
<main id="cases" class="audit-cases" aria-label="Audit cases"><p class="empty">Running…</p></main>
<script nonce="${attr(i.nonce)}" src="${attr(i.scriptUri)}"></script>
</body>
</html>`;
}
