// The audit scorecard's page: the same CSP, styles and DOM helpers as the webhook panel, its own script.
import type { l10n } from 'vscode';
import { escapeHtml, webviewDocument } from './panelHtml';
import { english } from './words';

export function auditHtml(i: {
  cspSource: string;
  nonce: string;
  domUri: string;
  scriptUri: string;
  styleUri: string;
  /** vscode.l10n: the page's words, and its bundle (undefined in English) for the script. */
  l10n?: Pick<typeof l10n, 't' | 'bundle'>;
  lang?: string;
}): string {
  const l10n = i.l10n ?? english;
  const h = escapeHtml;
  return webviewDocument({
    cspSource: i.cspSource,
    nonce: i.nonce,
    styleUri: i.styleUri,
    scriptUris: [i.domUri, i.scriptUri],
    title: l10n.t('Receiver Audit'),
    bundle: i.l10n?.bundle,
    lang: i.lang,
    bodyClass: 'audit',
    body: `<header class="toolbar" role="toolbar" aria-label="${h(l10n.t('Audit actions'))}">
  <strong id="title">${h(l10n.t('Receiver audit'))}</strong>
  <button id="rerun" type="button">${h(l10n.t('Run Again'))}</button>
  <button id="export-md" type="button">${h(l10n.t('Export Markdown…'))}</button>
  <button id="export-json" type="button">${h(l10n.t('Export JSON…'))}</button>
  <span id="summary" class="summary" aria-live="polite"></span>
</header>
<main id="cases" class="audit-cases" aria-label="${h(l10n.t('Audit cases'))}"><p class="empty">${h(l10n.t('Running…'))}</p></main>`,
  });
}
