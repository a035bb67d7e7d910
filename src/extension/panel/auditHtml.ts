// The audit scorecard's page: the same CSP, styles and DOM helpers as the webhook panel, its own script.
import { webviewDocument } from './panelHtml';

export function auditHtml(i: {
  cspSource: string;
  nonce: string;
  domUri: string;
  scriptUri: string;
  styleUri: string;
}): string {
  return webviewDocument({
    cspSource: i.cspSource,
    nonce: i.nonce,
    styleUri: i.styleUri,
    scriptUris: [i.domUri, i.scriptUri],
    title: 'Receiver Audit',
    bodyClass: 'audit',
    body: `<header class="toolbar" role="toolbar" aria-label="Audit actions">
  <strong id="title">Receiver audit</strong>
  <button id="rerun" type="button">Run Again</button>
  <button id="export-md" type="button">Export Markdown…</button>
  <button id="export-json" type="button">Export JSON…</button>
  <span id="summary" class="summary" aria-live="polite"></span>
</header>
<main id="cases" class="audit-cases" aria-label="Audit cases"><p class="empty">Running…</p></main>`,
  });
}
