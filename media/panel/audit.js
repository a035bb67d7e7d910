// Receiver audit scorecard (webview side). Everything from the target's answers is inserted as text.
// @ts-check
(function () {
  /** @type {WebviewApi<import('../../src/extension/panel/auditProtocol').AuditRequest>} */
  const vscode = acquireVsCodeApi();
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const { el, kvTable: kv } = window.wfsDom;
  $('rerun').addEventListener('click', () => vscode.postMessage({ type: 'rerun' }));
  $('export-md').addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'md' }));
  $('export-json').addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'json' }));

  /**
   * @param {import('../../src/core/audit/receiverAudit').AuditSummary} s
   * @param {string | undefined} advice
   */
  function render(s, advice) {
    $('title').textContent = `Receiver audit of ${s.target}`;
    const m = s.trustMismatch;
    $('summary').textContent = m
      ? `not audited: the genuine delivery was refused, ${s.notSent ?? 0} cases not sent`
      : `${s.passed} of ${s.total} passed`;
    const parts = [];
    if (m) {
      // One result, first: the key the audit signed with, what the receiver said, and how to make them match.
      const d = /** @type {HTMLDetailsElement} */ (el('details', null, 'section trust-mismatch bad'));
      d.open = true;
      d.appendChild(
        el('summary', `✗ The receiver refused the genuine delivery: the other ${s.notSent ?? 0} cases were not sent`),
      );
      d.appendChild(
        kv([
          ['issuer', m.signedWith.issuer],
          ['key set', m.signedWith.jwksUrl],
          ['kid', m.signedWith.kid ?? '(none)'],
          ['audience', m.signedWith.audience],
          [
            'answered',
            `${m.status}${m.said ? ` "${m.said}"` : ' with no reason'}${m.retryAfter ? ` (Retry-After ${m.retryAfter})` : ''}`,
          ],
        ]),
      );
      if (advice) d.appendChild(el('p', advice, 'fix'));
      parts.push(d);
    }
    const trust = el('details', null, 'section');
    trust.appendChild(el('summary', 'The receiver was expected to trust'));
    trust.appendChild(
      kv([
        ['issuer', s.trust.issuer],
        ['audience', s.trust.audience],
        ['key set', s.trust.jwksUrl],
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
      sum.appendChild(el('span', r.passed ? '✓' : '✗', 'mark', { 'aria-label': r.passed ? 'passed' : 'failed' }));
      sum.appendChild(el('span', ` ${r.title} — expected ${r.expected}, answered ${r.status ?? 'nothing'}`));
      d.appendChild(sum);
      d.appendChild(
        kv([
          ['rule', r.rule],
          ['result', r.detail],
          ['why', r.why],
        ]),
      );
      if (!r.passed) d.appendChild(el('p', `Fix: ${r.fix}`, 'fix'));
      const actions = el('div', null, 'actions');
      const copy = el('button', 'Copy Request as curl', undefined, { type: 'button' });
      copy.addEventListener('click', () => vscode.postMessage({ type: 'copy-curl', id: r.id }));
      actions.appendChild(copy);
      d.appendChild(actions);
      const req = el('details', null, 'section');
      req.appendChild(el('summary', 'Request sent'));
      req.appendChild(kv(Object.entries(r.request.headers)));
      req.appendChild(el('pre', r.request.body, 'raw'));
      d.appendChild(req);
      if (r.response) {
        const res = el('details', null, 'section');
        res.appendChild(el('summary', `Answer received: ${r.response.status}`));
        res.appendChild(el('pre', r.response.body || '(empty body)', 'raw'));
        d.appendChild(res);
      }
      parts.push(d);
    }
    if (m) return void $('cases').replaceChildren(...parts);
    // What no request can show: things to look for in the receiver's code (probed when a processed count was given).
    const own = /** @type {HTMLDetailsElement} */ (el('details', null, 'section in-your-code'));
    own.open = true;
    own.appendChild(el('summary', 'Check in your code'));
    for (const c of s.inYourCode ?? []) {
      const mark = c.probe ? (c.probe.passed ? '✓ ' : '✗ ') : '';
      own.appendChild(
        el(
          'p',
          `${mark}${c.title}. ${c.lookFor}${c.probe ? ` Probed: ${c.probe.detail}.` : ''}`,
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
    if (m.type === 'running') $('cases').replaceChildren(el('p', `Running the audit against ${m.target}…`, 'empty'));
    else if (m.type === 'summary') render(m.summary, m.advice);
    else if (m.type === 'error') $('cases').replaceChildren(el('p', m.message, 'empty'));
  });
  vscode.postMessage({ type: 'ready' });
})();
