// Webhook panel (webview side). Every value that came from a delivery is inserted with textContent, never as
// HTML. The list is virtualised: only the rows in view exist in the DOM, so 10,000 deliveries stay fast.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const ROW_HEIGHT = 26;
  const OVERSCAN = 8;
  /** @type {any[]} */ let rows = [];
  let total = 0;
  let selectedId = null;
  let paused = false;
  let pendingWhilePaused = 0;
  /** @type {any} */ let detail = null;
  const saved = vscode.getState() || {};
  let filter = saved.filter || {};
  selectedId = saved.selectedId || null;
  paused = !!saved.paused;

  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const list = $('list');
  const spacer = $('spacer');
  const detailEl = $('detail');

  const { el, kvTable } = window.wfsDom;
  // deliveryView.ts SIGNED_HERE_TEXT: a delivery verified with a token this toolkit signed for it.
  const SIGNED_HERE = 'signed here (sandbox key)';
  // deliveryView.ts sandboxNote: what the sandbox said it did (a delivery fault), from a header outside the signature.
  const SANDBOX_NOTE_TITLE =
    "The sandbox's X-Wfs-Sandbox-Fault header: what its delivery faults did. Outside the signature, so unverified; the service sends no such header.";
  const SIGNED_HERE_TITLE =
    "Signed by this toolkit with the sandbox's key (Edit and Resend, a fixture, Replay or the audit), and trusted for this one delivery: not sent by the service";

  function persist() {
    vscode.setState({ filter, selectedId, paused });
  }

  // ---- toolbar ----
  const fText = /** @type {HTMLInputElement} */ ($('f-text'));
  const fTopic = /** @type {HTMLInputElement} */ ($('f-topic'));
  const fStatus = /** @type {HTMLInputElement} */ ($('f-status'));
  const fVer = /** @type {HTMLSelectElement} */ ($('f-verification'));
  const pauseBtn = $('pause');
  const override = /** @type {HTMLSelectElement} */ ($('override'));
  fText.value = filter.text || '';
  fTopic.value = filter.topic || '';
  fStatus.value = filter.status !== undefined ? String(filter.status) : '';
  fVer.value = filter.verification || '';

  let filterTimer;
  function onFilter() {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => {
      const status = parseInt(fStatus.value, 10);
      filter = {
        text: fText.value || undefined,
        topic: fTopic.value.trim() || undefined,
        status: Number.isInteger(status) ? status : undefined,
        verification: fVer.value || undefined,
      };
      persist();
      vscode.postMessage({ type: 'filter', filter });
    }, 150);
  }
  for (const i of [fText, fTopic, fStatus]) i.addEventListener('input', onFilter);
  fVer.addEventListener('change', onFilter);
  pauseBtn.addEventListener('click', () => {
    paused = !paused;
    persist();
    renderPause();
    vscode.postMessage({ type: 'pause', paused });
  });
  $('clear').addEventListener('click', () => vscode.postMessage({ type: 'clear' }));
  $('export-all').addEventListener('click', () => vscode.postMessage({ type: 'action', action: 'export-all' }));
  override.addEventListener('change', () =>
    vscode.postMessage({ type: 'override', status: override.value ? parseInt(override.value, 10) : null }),
  );

  // A replay's result, said in words in a polite live region; after a possible duplicate it offers a fresh id.
  const resultText = $('action-result-text');
  const resultFresh = $('action-result-fresh');
  /** The delivery the shown result is about: a fresh replay offered there goes to it. */
  let resultId = null;
  resultFresh.addEventListener('click', () => {
    if (resultId) vscode.postMessage({ type: 'action', action: 'replay-fresh', id: resultId });
  });

  /** @param {import('../../src/extension/panel/panelProtocol').ActionResult | null} r */
  function renderResult(r) {
    resultId = r ? r.id : null;
    resultText.textContent = r ? r.text : '';
    resultFresh.hidden = !(r && r.offerFresh);
  }

  const receiverStart = $('receiver-start');
  receiverStart.addEventListener('click', () => vscode.postMessage({ type: 'start-receiver' }));

  /** @param {import('../../src/extension/panel/panelProtocol').ReceiverLine} r */
  function renderReceiver(r) {
    const line = /** @type {HTMLElement} */ (receiverStart.parentElement);
    line.classList.toggle('stopped', !r.running);
    receiverStart.hidden = r.running;
    $('receiver-text').textContent = r.running
      ? `Receiving at ${r.localUrl}${r.publicUrl ? ` · public address ${r.publicUrl}` : r.publicNote ? ` · no public address: ${r.publicNote}` : ''}`
      : 'The receiver is stopped: nothing is received until it starts. The history below is kept.';
    $('receiver-text').textContent +=
      r.running && r.passThrough ? " · pass-through on: the service is answered your apps' status" : '';
  }

  function renderPause() {
    pauseBtn.textContent = paused ? (pendingWhilePaused ? `Resume (${pendingWhilePaused} new)` : 'Resume') : 'Pause';
    pauseBtn.setAttribute('aria-pressed', String(paused));
  }

  /** Where the history is kept and how to erase it, from the extension. */
  let storage = '';
  /** Why the topic filter cannot be used (too long, `***`), from the extension: said instead of "no match". */
  let filterProblem = '';

  function renderSummary() {
    $('summary').textContent = `${rows.length} shown of ${total}`;
    // Said where it is always seen, not in a tooltip: deliveries may carry customer data.
    $('storage').textContent = storage;
    const empty = $('empty');
    empty.hidden = rows.length > 0;
    empty.textContent = filterProblem
      ? filterProblem
      : total === 0
        ? 'No deliveries yet. Start the receiver and send a test webhook.'
        : 'No delivery matches the filters.';
    const topics = [...new Set(rows.map((r) => r.topic).filter(Boolean))].slice(0, 50);
    const dl = $('topics');
    dl.replaceChildren(...topics.map((t) => el('option', null, undefined, { value: t })));
  }

  // ---- virtualised list ----
  function renderList() {
    spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    const first = Math.max(0, Math.floor(list.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((list.scrollTop + list.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) frag.appendChild(rowEl(rows[i], i));
    spacer.replaceChildren(frag);
    const sel = rows.findIndex((r) => r.id === selectedId);
    if (sel >= 0) list.setAttribute('aria-activedescendant', `row-${sel}`);
    else list.removeAttribute('aria-activedescendant');
  }

  function rowEl(r, i) {
    const d = el('div', null, `row${r.id === selectedId ? ' selected' : ''}${r.verified ? '' : ' refused'}`, {
      role: 'option',
      id: `row-${i}`,
      'aria-selected': String(r.id === selectedId),
      'data-id': r.id,
    });
    d.style.top = `${i * ROW_HEIGHT}px`;
    const when = el('span', null, 'when');
    when.appendChild(el('span', r.triggeredAt || '—', 'triggered', { title: 'triggeredAt (as sent, 7 digits)' }));
    when.appendChild(el('span', r.receivedAt.slice(11, 23), 'arrived', { title: `arrived ${r.receivedAt}` }));
    d.appendChild(when);
    const topic = el('span', null, 'topic');
    topic.appendChild(el('span', r.topic || '(no topic)'));
    if (r.subTopic) topic.appendChild(el('span', r.subTopic, 'sub'));
    if (r.unsigned && r.unsigned.includes('topic'))
      topic.appendChild(
        el('span', 'unsigned', 'badge unsigned', {
          title: 'From the X-Svc-Topic header, outside the signature: it decides nothing',
        }),
      );
    d.appendChild(topic);
    d.appendChild(el('span', r.status, `status s${String(r.status)[0]}`));
    const badge = el('span', null, 'badges');
    badge.appendChild(
      el('span', r.verified ? 'verified' : 'refused', r.verified ? 'badge ok' : 'badge bad', {
        title: r.failedCheck || 'all seven checks passed',
      }),
    );
    if (r.duplicate) badge.appendChild(el('span', 'duplicate', 'badge dup'));
    if (r.signedHere) badge.appendChild(el('span', SIGNED_HERE, 'badge signed-here', { title: SIGNED_HERE_TITLE }));
    if (r.sandboxNote)
      badge.appendChild(el('span', `sandbox: ${r.sandboxNote}`, 'badge sandbox-note', { title: SANDBOX_NOTE_TITLE }));
    if (r.forwardsFailed)
      badge.appendChild(
        el('span', 'forward failed', 'badge bad forward-failed', {
          title: `${r.forwardsFailed} of ${r.forwarded} apps did not answer, or answered 5xx`,
        }),
      );
    else if (r.forwarded)
      badge.appendChild(
        el('span', `→ ${r.forwarded}`, 'badge forwarded', { title: `forwarded to ${r.forwarded} apps` }),
      );
    d.appendChild(badge);
    d.appendChild(el('span', r.latencyMs.toFixed(1), 'latency'));
    return d;
  }

  list.addEventListener('scroll', () => requestAnimationFrame(renderList));
  window.addEventListener('resize', () => requestAnimationFrame(renderList));
  list.addEventListener('click', (e) => {
    const row = /** @type {HTMLElement} */ (e.target).closest('.row');
    if (row) select(row.getAttribute('data-id'));
  });
  list.addEventListener('keydown', (e) => {
    if (rows.length === 0) return;
    let i = rows.findIndex((r) => r.id === selectedId);
    if (e.key === 'ArrowDown') i = Math.min(rows.length - 1, i + 1);
    else if (e.key === 'ArrowUp') i = Math.max(0, i - 1);
    else if (e.key === 'Home') i = 0;
    else if (e.key === 'End') i = rows.length - 1;
    else if (e.key === 'Enter') return detailEl.focus();
    else return;
    e.preventDefault();
    select(rows[i].id);
    const top = i * ROW_HEIGHT;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + ROW_HEIGHT > list.scrollTop + list.clientHeight)
      list.scrollTop = top + ROW_HEIGHT - list.clientHeight;
  });

  function select(id) {
    selectedId = id;
    persist();
    renderList();
    vscode.postMessage({ type: 'select', id });
  }

  // ---- detail ----
  function section(title, open = true) {
    const d = /** @type {HTMLDetailsElement} */ (el('details', null, 'section'));
    if (open) d.open = true;
    d.appendChild(el('summary', title));
    return d;
  }

  /** JSON as nested <details>: folding with the keyboard for free; every key and value is text. */
  function jsonTree(value, key) {
    const label = key === undefined ? '' : `${JSON.stringify(key)}: `;
    if (value !== null && typeof value === 'object') {
      const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
      const d = /** @type {HTMLDetailsElement} */ (el('details', null, 'json'));
      d.open = true;
      d.appendChild(el('summary', `${label}${Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`}`));
      for (const [k, v] of entries) d.appendChild(jsonTree(v, Array.isArray(value) ? undefined : k));
      return d;
    }
    const line = el('div', null, 'json-leaf');
    line.appendChild(el('span', label, 'json-key'));
    line.appendChild(el('span', JSON.stringify(value), `json-${value === null ? 'null' : typeof value}`));
    return line;
  }

  /** Each app's answer to the forwarded delivery: status, latency, headers, the first 4 KiB of its body, as text. */
  function appAnswers(forwards) {
    const failed = forwards.filter((f) => f.failed).length;
    const s = section(
      `The app's answer (${forwards.length === 1 ? '1 target' : `${forwards.length} targets`}${failed ? `, ${failed} failed` : ''})`,
    );
    s.classList.add('app-answers');
    for (const f of forwards) {
      const box = el('div', null, f.failed ? 'app-answer failed' : 'app-answer');
      box.appendChild(el('h3', `${f.failed ? '✗' : '✓'} ${f.target}${f.insecure ? ' (certificate not checked)' : ''}`));
      /** @type {[string, unknown][]} */
      const kv = [
        ['status', f.status === undefined ? `no answer: ${f.error}` : String(f.status)],
        ['latency', `${f.latencyMs} ms`],
      ];
      if (f.redirect !== undefined) kv.push(['redirect', `to ${f.redirect} (not followed)`]);
      if (f.status !== undefined && f.error) kv.push(['cut', f.error]);
      if (f.rules.length) kv.push(['rules', f.rules.join('; ')]);
      if (f.insecure) kv.push(['certificate', 'not checked: the rule says insecure']);
      if (f.bodySize !== undefined) kv.push(['body size', `${f.bodySize} bytes`]);
      box.appendChild(kvTable(kv));
      if (f.headers.length) {
        box.appendChild(el('h3', `Response headers (${f.headers.length})`));
        box.appendChild(kvTable(f.headers));
      }
      if (f.bodyNote) box.appendChild(el('p', f.bodyNote, 'note'));
      if (f.body !== undefined) box.appendChild(el('pre', f.body, 'raw app-body'));
      s.appendChild(box);
    }
    return s;
  }

  function renderDetail() {
    const d = detail;
    if (!d)
      return detailEl.replaceChildren(
        el('p', 'Select a delivery to see what arrived and each verification step.', 'empty'),
      );
    const parts = [];
    const head = el('div', null, 'detail-head');
    head.appendChild(el('h2', `${d.method} ${d.path} → ${d.response.status}`));
    head.appendChild(
      el(
        'span',
        d.row.verified ? 'verified' : `refused: ${d.row.failedCheck || ''}`,
        d.row.verified ? 'badge ok' : 'badge bad',
      ),
    );
    if (d.row.duplicate)
      head.appendChild(el('span', 'duplicate (already processed: answered 200, not processed again)', 'badge dup'));
    if (d.row.signedHere) head.appendChild(el('span', SIGNED_HERE, 'badge signed-here', { title: SIGNED_HERE_TITLE }));
    if (d.row.sandboxNote)
      head.appendChild(
        el('span', `the sandbox's note (unverified): ${d.row.sandboxNote}`, 'badge sandbox-note', {
          title: SANDBOX_NOTE_TITLE,
        }),
      );
    parts.push(head);

    const actions = el('div', null, 'actions', { role: 'toolbar', 'aria-label': 'Delivery actions' });
    const action = (label, name, title) => {
      const b = el('button', label, undefined, { type: 'button', title });
      b.addEventListener('click', () => vscode.postMessage({ type: 'action', action: name, id: d.row.id }));
      actions.appendChild(b);
    };
    // A fresh signature would make a refused body look genuine: only a verified delivery is re-signed.
    if (d.row.verified) {
      action(
        'Replay to Receiver',
        'replay-local',
        'Send the same body again to the local receiver, with a fresh sandbox token',
      );
      if (d.forward)
        action(
          'Replay to Forward Target',
          'replay-forward',
          `Send the same body to ${d.forward.target}, with a fresh sandbox token`,
        );
      // Only the signed body's webhookId can be made new (a header's is outside the signature).
      if (d.row.webhookId && !(d.row.unsigned && d.row.unsigned.includes('webhookId')))
        action(
          'Replay with New Id',
          'replay-fresh',
          `Send it to ${d.forward ? d.forward.target : 'the local receiver'} under a new webhookId (the body changes there only, and is signed anew), so an app that dedupes runs its handler again`,
        );
    }
    action('Copy as curl', 'copy-curl', 'The token is read from $WFS_WEBHOOK_TOKEN');
    action('Copy as PowerShell', 'copy-powershell', 'Invoke-RestMethod; the token is read from $env:WFS_WEBHOOK_TOKEN');
    action(
      'Copy as curl for cmd.exe',
      'copy-cmd',
      'curl.exe; the body is written to a file; the token is %WFS_WEBHOOK_TOKEN%',
    );
    // An edited body or a fixture is re-signed with the sandbox's key when sent: only for a verified delivery (as Replay).
    if (d.row.verified) {
      action('Edit and Resend…', 'edit-resend', 'Open the body and its event headers in an editor, then sign and send');
      action('Send with Changes…', 'send-changes', 'Change values (path=value), then sign and send');
      action('Save as Fixture…', 'save-fixture', 'Save this delivery to a fixture file in the workspace');
    }
    action('Export…', 'export-one', 'Save this delivery as JSON');
    if (d.row.runId)
      action(`Go to Workflow (${d.row.runId})`, 'jump', 'Reveal the workflow with this runId in the explorer');
    parts.push(actions);

    const checks = section('Verification: the seven steps');
    const ol = el('ol', null, 'checks');
    for (const c of d.checks) {
      const li = el('li', null, c.ok ? 'check ok' : 'check bad');
      li.appendChild(el('span', c.ok ? '✓' : '✗', 'mark', { 'aria-label': c.ok ? 'passed' : 'failed' }));
      li.appendChild(el('strong', `${c.step}. ${c.name}`));
      li.appendChild(el('span', ` — ${c.detail}`));
      ol.appendChild(li);
    }
    if (d.checks.length === 0)
      ol.appendChild(
        el(
          'li',
          'not verified: the request was refused before verification (path, method, size or timeout)',
          'check bad',
        ),
      );
    checks.appendChild(ol);
    parts.push(checks);

    /** A field of the row, marked when it came from an X-Svc-* header rather than the signed body. */
    const field = (/** @type {'webhookId' | 'topic' | 'subTopic' | 'triggeredAt'} */ name) => {
      const v = d.row[name];
      if (!v) return '—';
      return d.row.unsigned && d.row.unsigned.includes(name)
        ? `${v} (unsigned: from a header, outside the signature; decides nothing)`
        : v;
    };
    /** @type {[string, unknown][]} */
    const timing = [
      ['webhookId', field('webhookId')],
      ['triggeredAt', field('triggeredAt')],
      ['arrived', d.row.receivedAt],
      ['topic', field('topic')],
      ['subTopic', field('subTopic')],
      ['runId', d.row.runId || '—'],
      ['response sent', `${d.response.status} after ${d.response.durationMs} ms`],
    ];
    for (const f of d.forwards || [])
      timing.push([
        f.failed ? 'forward failed' : 'forwarded to',
        `${f.target}${f.insecure ? ' (certificate not checked)' : ''} → ${f.status ?? f.error} in ${f.latencyMs} ms`,
      ]);
    const summary = section('Summary');
    summary.appendChild(kvTable(timing));
    parts.push(summary);
    if (d.forwards && d.forwards.length) parts.push(appAnswers(d.forwards));

    if (d.jwt) {
      const jwt = section('Token (decoded; trusted only if verified)');
      if (d.jwt.dates.length || d.jwt.expiresInSecondsAtArrival !== undefined) {
        const rowsKv = d.jwt.dates.map((x) => [x.claim, `${x.value} = ${x.iso}`]);
        if (d.jwt.expiresInSecondsAtArrival !== undefined)
          rowsKv.push([
            'at arrival',
            d.jwt.expiresInSecondsAtArrival >= 0
              ? `expires in ${d.jwt.expiresInSecondsAtArrival} s`
              : `expired ${-d.jwt.expiresInSecondsAtArrival} s before`,
          ]);
        jwt.appendChild(kvTable(rowsKv));
      }
      jwt.appendChild(el('h3', 'Header'));
      jwt.appendChild(jsonTree(d.jwt.header ?? null));
      jwt.appendChild(el('h3', 'Claims'));
      jwt.appendChild(jsonTree(d.jwt.claims ?? null));
      parts.push(jwt);
    }

    const headers = section(`Request headers (${d.headers.length})`);
    headers.appendChild(kvTable(d.headers));
    parts.push(headers);

    if (d.prettyJson !== undefined) {
      const pretty = section(d.row.verified ? 'Body (JSON)' : 'Body (JSON, untrusted: the delivery was refused)');
      pretty.appendChild(jsonTree(JSON.parse(d.prettyJson)));
      parts.push(pretty);
    }
    const whole = d.keptBytes === d.bodyBytes;
    const raw = section(
      `Raw body ${whole ? 'exactly as received' : `(first ${d.keptBytes} bytes kept)`} (${d.bodyBytes} bytes${d.bodyIsUtf8 ? '' : ', not UTF-8: hex'})`,
      d.prettyJson === undefined,
    );
    if (d.note) raw.appendChild(el('p', d.note, 'note'));
    raw.appendChild(el('p', `SHA-256 of all ${d.bodyBytes} bytes: ${d.sha256}`, 'hash'));
    raw.appendChild(el('pre', d.bodyIsUtf8 ? d.rawText : d.hex, 'raw'));
    parts.push(raw);
    detailEl.replaceChildren(...parts);
  }

  // ---- messages from the extension ----
  const UPDATES = new Set(['rows', 'append', 'paused-count', 'detail', 'override', 'receiver', 'result']);
  window.addEventListener('message', (event) => {
    // Validated on arrival: anything that is not one of panelProtocol.ts's PanelUpdate messages is ignored.
    if (!event.data || typeof event.data !== 'object' || !UPDATES.has(event.data.type)) return;
    const m = /** @type {import('../../src/extension/panel/panelProtocol').PanelUpdate} */ (event.data);
    switch (m.type) {
      case 'rows':
        rows = m.rows;
        total = m.total;
        if (typeof m.storage === 'string') storage = m.storage;
        filterProblem = typeof m.filterProblem === 'string' ? m.filterProblem : '';
        pendingWhilePaused = 0;
        renderPause();
        renderList();
        renderSummary();
        if (selectedId && !rows.some((r) => r.id === selectedId)) {
          selectedId = null;
          detail = null;
          renderDetail();
        }
        break;
      case 'append':
        total = m.total;
        if (paused) {
          pendingWhilePaused++;
          renderPause();
          break;
        }
        rows.unshift(m.row);
        renderList();
        renderSummary();
        break;
      case 'paused-count':
        pendingWhilePaused = m.count;
        renderPause();
        break;
      case 'detail':
        // A result is about one delivery: another one selected, it no longer applies.
        if (resultId && (!m.detail || m.detail.row.id !== resultId)) renderResult(null);
        detail = m.detail;
        selectedId = m.detail ? m.detail.row.id : null;
        persist();
        renderList();
        renderDetail();
        break;
      case 'override':
        override.value = m.status == null ? '' : String(m.status);
        break;
      case 'receiver':
        renderReceiver(m.receiver);
        break;
      case 'result':
        renderResult(m.result);
        break;
    }
  });

  renderPause();
  vscode.postMessage({ type: 'ready', filter, selectedId, paused });
})();
