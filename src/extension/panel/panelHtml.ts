// The webhook panel's HTML shell: a strict CSP (default-src 'none'; script only by a fresh crypto nonce;
// styles and scripts only from media/panel). All payload text is rendered by the script with textContent.
import { randomBytes } from 'node:crypto';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

export interface PanelHtmlInput {
  cspSource: string;
  nonce: string;
  /** media/panel/dom.js: the text-only DOM helpers both webviews share. */
  domUri: string;
  scriptUri: string;
  styleUri: string;
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

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A webview page: the CSP, our styles, the body, and our scripts, each carrying the nonce. */
export function webviewDocument(i: {
  cspSource: string;
  nonce: string;
  styleUri: string;
  scriptUris: string[];
  title: string;
  bodyClass?: string;
  body: string;
}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(i.styleUri)}">
<title>${attr(i.title)}</title>
</head>
<body${i.bodyClass ? ` class="${attr(i.bodyClass)}"` : ''}>
${i.body}
${i.scriptUris.map((u) => `<script nonce="${attr(i.nonce)}" src="${attr(u)}"></script>`).join('\n')}
</body>
</html>`;
}

export function panelHtml(i: PanelHtmlInput): string {
  return webviewDocument({
    cspSource: i.cspSource,
    nonce: i.nonce,
    styleUri: i.styleUri,
    scriptUris: [i.domUri, i.scriptUri],
    title: 'Webhook Deliveries',
    body: `<header class="toolbar" role="toolbar" aria-label="Filters and actions">
  <input id="f-text" type="search" placeholder="Search headers and bodies" aria-label="Search text">
  <input id="f-topic" type="text" placeholder="topic, or payments/*" aria-label="Topic or topic pattern (* within a part, ** across parts, ? one character)" list="topics">
  <datalist id="topics"></datalist>
  <input id="f-status" type="text" inputmode="numeric" placeholder="status" aria-label="HTTP status" size="5">
  <select id="f-verification" aria-label="Verification">
    <option value="">verified and refused</option>
    <option value="verified">verified only</option>
    <option value="refused">refused only</option>
  </select>
  <button id="pause" type="button" aria-pressed="false">Pause</button>
  <button id="clear" type="button">Clear</button>
  <button id="export-all" type="button">Export All…</button>
  <label class="override">Answer verified with
    <select id="override" aria-label="Response override">
      <option value="">normal (200)</option>
      <option value="202">202</option>
      <option value="400">400</option>
      <option value="404">404</option>
      <option value="500">500 (the service retries)</option>
      <option value="503">503 (the service retries)</option>
    </select>
  </label>
  <span id="summary" class="summary" aria-live="polite"></span>
</header>
<div class="receiver-line" role="status" aria-live="polite"><span id="receiver-text"></span> <button id="receiver-start" type="button" hidden>Start Receiver</button></div>
<div class="action-result" role="status" aria-live="polite"><span id="action-result-text"></span> <button id="action-result-fresh" type="button" hidden>Replay with New Id</button></div>
<main class="split">
  <section class="list-pane" aria-label="Deliveries">
    <div class="list-head" aria-hidden="true"><span>triggeredAt / arrived</span><span>topic</span><span>HTTP</span><span>checks</span><span>ms</span></div>
    <div id="list" class="list" role="listbox" tabindex="0" aria-label="Deliveries, newest first"><div id="spacer" class="spacer"></div></div>
    <p id="empty" class="empty" hidden></p>
  </section>
  <section id="detail" class="detail" aria-label="Delivery detail" tabindex="-1"><p class="empty">Select a delivery to see what arrived and each verification step.</p></section>
</main>
<footer id="storage" class="storage" aria-label="Where the history is kept"></footer>`,
  });
}
