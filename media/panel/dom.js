// DOM helpers shared by the webhook panel and the audit scorecard. Text goes in with textContent only: nothing
// from a delivery or a target's answer is ever parsed as HTML.
// @ts-check
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
