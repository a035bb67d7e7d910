// Receiver audit scorecard (webview side). Everything from the target's answers is inserted as text.
// @ts-check
(function () {
  /** @type {WebviewApi<import('../../src/extension/panel/auditProtocol').AuditRequest>} */
  const vscode = acquireVsCodeApi();
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const { el, kvTable: kv } = window.wfsDom;
  // Every word shown is the extension's (dom.js): English is the message, a language pack's bundle translates it.
  const l10n = window.wfsL10n;
  $('rerun').addEventListener('click', () => vscode.postMessage({ type: 'rerun' }));
  $('export-md').addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'md' }));
  $('export-json').addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'json' }));

  /** What the receiver answered the genuine delivery: its status, its reason, and when to retry. */
  function answered(m) {
    const said = m.said ? l10n.t('{0} "{1}"', m.status, m.said) : l10n.t('{0} with no reason', m.status);
    return m.retryAfter ? l10n.t('{0} (Retry-After {1})', said, m.retryAfter) : said;
  }

  /**
   * @param {import('../../src/core/audit/receiverAudit').AuditSummary} s
   * @param {string | undefined} advice
   */
  function render(s, advice) {
    $('title').textContent = l10n.t('Receiver audit of {0}', s.target);
    const m = s.trustMismatch;
    $('summary').textContent = m
      ? l10n.t('not audited: the genuine delivery was refused, {0} cases not sent', s.notSent ?? 0)
      : l10n.t('{0} of {1} passed', s.passed, s.total);
    const parts = [];
    if (m) {
      // One result, first: the key the audit signed with, what the receiver said, and how to make them match.
      const d = /** @type {HTMLDetailsElement} */ (el('details', null, 'section trust-mismatch bad'));
      d.open = true;
      d.appendChild(
        el(
          'summary',
          l10n.t('✗ The receiver refused the genuine delivery: the other {0} cases were not sent', s.notSent ?? 0),
        ),
      );
      d.appendChild(
        kv([
          [l10n.t('issuer'), m.signedWith.issuer],
          [l10n.t('key set'), m.signedWith.jwksUrl],
          [l10n.t('kid'), m.signedWith.kid ?? l10n.t('(none)')],
          [l10n.t('audience'), m.signedWith.audience],
          [l10n.t('answered'), answered(m)],
        ]),
      );
      if (advice) d.appendChild(el('p', advice, 'fix'));
      parts.push(d);
    }
    const trust = el('details', null, 'section');
    trust.appendChild(el('summary', l10n.t('The receiver was expected to trust')));
    trust.appendChild(
      kv([
        [l10n.t('issuer'), s.trust.issuer],
        [l10n.t('audience'), s.trust.audience],
        [l10n.t('key set'), s.trust.jwksUrl],
      ]),
    );
    parts.push(trust);
    // The refused genuine delivery is the block above.
    for (const r of s.results.filter((x) => !x.trustMismatch)) {
      const d = /** @type {HTMLDetailsElement} */ (
        el('details', null, `section case ${r.passed ? 'ok' : 'bad'}`, { 'data-id': r.id })
      );
      if (!r.passed) d.open = true;
      const sum = el('summary');
      sum.appendChild(
        el('span', r.passed ? '✓' : '✗', 'mark', { 'aria-label': r.passed ? l10n.t('passed') : l10n.t('failed') }),
      );
      sum.appendChild(
        el(
          'span',
          ` ${l10n.t('{0} — expected {1}, answered {2}', r.title, r.expected, r.status ?? l10n.t('nothing'))}`,
        ),
      );
      d.appendChild(sum);
      d.appendChild(
        kv([
          [l10n.t('rule'), r.rule],
          [l10n.t('result'), r.detail],
          [l10n.t('why'), r.why],
        ]),
      );
      if (!r.passed) d.appendChild(el('p', l10n.t('Fix: {0}', r.fix), 'fix'));
      const actions = el('div', null, 'actions');
      const copy = el('button', l10n.t('Copy Request as curl'), undefined, { type: 'button' });
      copy.addEventListener('click', () => vscode.postMessage({ type: 'copy-curl', id: r.id }));
      actions.appendChild(copy);
      d.appendChild(actions);
      const req = el('details', null, 'section');
      req.appendChild(el('summary', l10n.t('Request sent')));
      req.appendChild(kv(Object.entries(r.request.headers)));
      req.appendChild(el('pre', r.request.body, 'raw'));
      d.appendChild(req);
      if (r.response) {
        const res = el('details', null, 'section');
        res.appendChild(el('summary', l10n.t('Answer received: {0}', r.response.status)));
        res.appendChild(el('pre', r.response.body || l10n.t('(empty body)'), 'raw'));
        d.appendChild(res);
      }
      parts.push(d);
    }
    if (m) return void $('cases').replaceChildren(...parts);
    // What no request can show: things to look for in the receiver's code (probed when a processed count was given).
    const own = /** @type {HTMLDetailsElement} */ (el('details', null, 'section in-your-code'));
    own.open = true;
    own.appendChild(el('summary', l10n.t('Check in your code')));
    for (const c of s.inYourCode ?? []) {
      const mark = c.probe ? (c.probe.passed ? '✓ ' : '✗ ') : '';
      own.appendChild(
        el(
          'p',
          `${mark}${c.title}. ${c.lookFor}${c.probe ? ` ${l10n.t('Probed: {0}.', c.probe.detail)}` : ''}`,
          c.probe && !c.probe.passed ? 'fix' : undefined,
        ),
      );
    }
    parts.push(own);
    $('cases').replaceChildren(...parts);
  }

  window.addEventListener('message', (event) => {
    // Only the extension posts to this page: auditProtocol.ts's AuditUpdate messages.
    const m = /** @type {import('../../src/extension/panel/auditProtocol').AuditUpdate} */ (event.data);
    if (m.type === 'running')
      $('cases').replaceChildren(el('p', l10n.t('Running the audit against {0}…', m.target), 'empty'));
    else if (m.type === 'summary') render(m.summary, m.advice);
    else if (m.type === 'error') $('cases').replaceChildren(el('p', m.message, 'empty'));
  });
  vscode.postMessage({ type: 'ready' });
})();
