// DOM helpers shared by the webhook panel and the audit scorecard. Text goes in with textContent only: nothing
// from a delivery or a target's answer is ever parsed as HTML.
// @ts-check
/**
 * The webview's words: the extension's l10n bundle (vscode.l10n.bundle, empty in English) is data in the page
 * (panelHtml.ts, a JSON script element); a message it lacks is shown as written, the English key. `{0}`, `{1}`… take
 * the arguments. Written `l10n.t('…', v)` in the scripts, so the extension's build exports them to its bundle.
 */
window.wfsL10n = (function () {
  /** @type {Record<string, unknown>} */
  let bundle = {};
  try {
    const data = document.getElementById('wfs-l10n');
    const parsed = data ? JSON.parse(data.textContent || '{}') : {};
    if (parsed && typeof parsed === 'object') bundle = parsed;
  } catch {
    // No bundle: English.
  }
  return {
    /** @param {string} message @param {...unknown} args */
    t(message, ...args) {
      const own = Object.prototype.hasOwnProperty.call(bundle, message) ? bundle[message] : undefined;
      const text = typeof own === 'string' ? own : message;
      return text.replace(/\{(\d+)\}/g, (whole, i) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
    },
  };
})();
window.wfsDom = {
  /** An element with text (as text), an optional class and attributes. */
  el(tag, text, cls, attrs) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  },
  /** A two-column table of [name, value] pairs. */
  kvTable(pairs) {
    const t = window.wfsDom.el('table', null, 'kv');
    for (const [k, v] of pairs) {
      const tr = window.wfsDom.el('tr');
      tr.appendChild(window.wfsDom.el('th', k, undefined, { scope: 'row' }));
      tr.appendChild(window.wfsDom.el('td', v));
      t.appendChild(tr);
    }
    return t;
  },
};
