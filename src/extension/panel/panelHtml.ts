// The webhook panel's HTML shell: a strict CSP (default-src 'none'; script only by a fresh crypto nonce;
// styles and scripts only from media/panel). All payload text is rendered by the script with textContent. Its
// words are vscode.l10n's (English by default); the webview's scripts read the same bundle from the page (dom.js).
import { randomBytes } from 'node:crypto';
import type { l10n } from 'vscode';
import { bundleJson, english } from './words';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

export interface PanelHtmlInput {
  cspSource: string;
  nonce: string;
  /** media/panel/dom.js: the text-only DOM helpers both webviews share. */
  domUri: string;
  /** media/panel/typeAhead.js: the delivery list's type-ahead, which panel.js uses. */
  typeAheadUri: string;
  scriptUri: string;
  styleUri: string;
  /** vscode.l10n: the page's words, and its bundle (undefined in English) for the scripts. */
  l10n?: Pick<typeof l10n, 't' | 'bundle'>;
  /** vscode.env.language. */
  lang?: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** Text for an attribute or an element: a translation or a value is text, never markup. */
export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A webview page: the CSP, our styles, the body, and our scripts, each carrying the nonce. */
export function webviewDocument(i: {
  cspSource: string;
  nonce: string;
  styleUri: string;
  scriptUris: string[];
  title: string;
  bodyClass?: string;
  body: string;
  /** The l10n bundle the scripts word their text with, as data (a JSON script element is never run). */
  bundle?: Record<string, string>;
  lang?: string;
}): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(i.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(i.styleUri)}">
<title>${escapeHtml(i.title)}</title>
</head>
<body${i.bodyClass ? ` class="${escapeHtml(i.bodyClass)}"` : ''}>
${i.body}
<script type="application/json" id="wfs-l10n">${bundleJson(i.bundle)}</script>
${i.scriptUris.map((u) => `<script nonce="${escapeHtml(i.nonce)}" src="${escapeHtml(u)}"></script>`).join('\n')}
</body>
</html>`;
}

export function panelHtml(i: PanelHtmlInput): string {
  const l10n = i.l10n ?? english;
  // Every word escaped: a translation is text, never markup.
  const h = escapeHtml;
  return webviewDocument({
    cspSource: i.cspSource,
    nonce: i.nonce,
    styleUri: i.styleUri,
    scriptUris: [i.domUri, i.typeAheadUri, i.scriptUri],
    title: l10n.t('Webhook Deliveries'),
    bundle: i.l10n?.bundle,
    lang: i.lang,
    body: `<header class="toolbar" role="toolbar" aria-label="${h(l10n.t('Filters and actions'))}">
  <input id="f-text" type="search" placeholder="${h(l10n.t('Search headers and bodies'))}" aria-label="${h(l10n.t('Search text'))}">
  <input id="f-topic" type="text" placeholder="${h(l10n.t('topic, or payments/*'))}" aria-label="${h(l10n.t('Topic or topic pattern (* within a part, ** across parts, ? one character)'))}" list="topics">
  <datalist id="topics"></datalist>
  <input id="f-status" type="text" inputmode="numeric" placeholder="${h(l10n.t('status'))}" aria-label="${h(l10n.t('HTTP status'))}" size="5">
  <select id="f-verification" aria-label="${h(l10n.t('Verification'))}">
    <option value="">${h(l10n.t('verified and refused'))}</option>
    <option value="verified">${h(l10n.t('verified only'))}</option>
    <option value="refused">${h(l10n.t('refused only'))}</option>
  </select>
  <button id="pause" type="button" aria-pressed="false">${h(l10n.t('Pause'))}</button>
  <button id="clear" type="button">${h(l10n.t('Clear'))}</button>
  <button id="export-all" type="button">${h(l10n.t('Export All…'))}</button>
  <label class="override">${h(l10n.t('Answer verified with'))}
    <select id="override" aria-label="${h(l10n.t('Response override'))}">
      <option value="">${h(l10n.t('normal (200)'))}</option>
      <option value="202">202</option>
      <option value="400">400</option>
      <option value="404">404</option>
      <option value="500">${h(l10n.t('{0} (the service retries)', 500))}</option>
      <option value="503">${h(l10n.t('{0} (the service retries)', 503))}</option>
    </select>
  </label>
  <span id="summary" class="summary" aria-live="polite"></span>
</header>
<div class="receiver-line" role="status" aria-live="polite"><span id="receiver-text"></span> <button id="receiver-start" type="button" hidden>${h(l10n.t('Start Receiver'))}</button></div>
<div class="action-result" role="status" aria-live="polite"><span id="action-result-text"></span> <button id="action-result-fresh" type="button" hidden>${h(l10n.t('Replay with New Id'))}</button></div>
<div id="announce" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>
<main class="split">
  <section class="list-pane" aria-label="${h(l10n.t('Deliveries'))}">
    <div class="list-head" aria-hidden="true"><span>${h(l10n.t('triggeredAt / arrived'))}</span><span>${h(l10n.t('topic'))}</span><span>${h(l10n.t('HTTP'))}</span><span>${h(l10n.t('checks'))}</span><span>${h(l10n.t('ms'))}</span></div>
    <div id="list" class="list" role="listbox" tabindex="0" aria-label="${h(l10n.t('Deliveries, newest first'))}"><div id="spacer" class="spacer"></div></div>
    <p id="empty" class="empty" hidden></p>
  </section>
  <section id="detail" class="detail" aria-label="${h(l10n.t('Delivery detail'))}" tabindex="-1"><p class="empty">${h(l10n.t('Select a delivery to see what arrived and each verification step.'))}</p></section>
</main>
<footer id="storage" class="storage" aria-label="${h(l10n.t('Where the history is kept'))}"></footer>`,
  });
}
