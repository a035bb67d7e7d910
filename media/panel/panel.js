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
  // Every word shown is the extension's (dom.js): English is the message, a language pack's bundle translates it.
  const l10n = window.wfsL10n;
  // deliveryView.ts SIGNED_HERE_TEXT: a delivery verified with a token this toolkit signed for it.
  const SIGNED_HERE = l10n.t('signed here (sandbox key)');
  // deliveryView.ts sandboxNote: what the sandbox said it did (a delivery fault), from a header outside the signature.
  const SANDBOX_NOTE_TITLE = l10n.t(
    "The sandbox's X-Wfs-Sandbox-Fault header: what its delivery faults did. Outside the signature, so unverified; the service sends no such header.",
  );
  const SIGNED_HERE_TITLE = l10n.t(
    "Signed by this toolkit with the sandbox's key (Edit and Resend, a fixture, Replay or the audit), and trusted for this one delivery: not sent by the service",
  );
  // The seven verification steps by number (the core's STEP_NAMES, in the user's words).
  const STEP_NAMES = [
    l10n.t('bearer token'),
    l10n.t('trusted issuer'),
    l10n.t('signing key'),
    l10n.t('signature (RS256)'),
    l10n.t('claims (iss, aud, exp)'),
    l10n.t('body hash'),
    l10n.t('decision'),
  ];
  const stepName = (/** @type {number} */ step) => STEP_NAMES[step - 1] ?? String(step);
  /** A row's verification in words: "verified", or "refused at step 4: signature (RS256)". */
  const verdict = (r) =>
    r.verified
      ? l10n.t('verified')
      : r.failedStep
        ? l10n.t('refused at step {0}: {1}', r.failedStep, stepName(r.failedStep))
        : l10n.t('refused before verification');

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
    const parts = r.running
      ? [l10n.t('Receiving at {0}', r.localUrl)]
      : [l10n.t('The receiver is stopped: nothing is received until it starts. The history below is kept.')];
    if (r.running && r.publicUrl) parts.push(l10n.t('public address {0}', r.publicUrl));
    else if (r.running && r.publicNote) parts.push(l10n.t('no public address: {0}', r.publicNote));
    if (r.running && r.passThrough) parts.push(l10n.t("pass-through on: the service is answered your apps' status"));
    $('receiver-text').textContent = parts.join(' · ');
  }

  function renderPause() {
    pauseBtn.textContent = paused
      ? pendingWhilePaused
        ? l10n.t('Resume ({0} new)', pendingWhilePaused)
        : l10n.t('Resume')
      : l10n.t('Pause');
    pauseBtn.setAttribute('aria-pressed', String(paused));
  }

  /** Where the history is kept and how to erase it, from the extension. */
  let storage = '';
  /** Why the topic filter cannot be used (too long, `***`), from the extension: said instead of "no match". */
  let filterProblem = '';

  function renderSummary() {
    $('summary').textContent = l10n.t('{0} shown of {1}', rows.length, total);
    // Said where it is always seen, not in a tooltip: deliveries may carry customer data.
    $('storage').textContent = storage;
    const empty = $('empty');
    empty.hidden = rows.length > 0;
    empty.textContent = filterProblem
      ? filterProblem
      : total === 0
        ? l10n.t('No deliveries yet. Start the receiver and send a test webhook.')
        : l10n.t('No delivery matches the filters.');
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

  /** What an app answered the forwarded delivery, in words: "app answered 200", "app did not answer". */
  const appAnswer = (/** @type {number | null} */ s) =>
    s === null ? l10n.t('app did not answer') : l10n.t('app answered {0}', s);

  /** A row's accessible name: its result in words, not only as a colour or an icon. */
  function rowName(r) {
    const parts = [r.topic || l10n.t('(no topic)'), verdict(r), l10n.t('HTTP {0}', r.status)];
    if (r.duplicate) parts.push(l10n.t('duplicate'));
    if (r.signedHere) parts.push(SIGNED_HERE);
    if (r.sandboxNote) parts.push(l10n.t('sandbox: {0}', r.sandboxNote));
    for (const s of r.appStatuses || []) parts.push(appAnswer(s));
    parts.push(l10n.t('arrived {0}', r.receivedAt));
    return parts.join(', ');
  }

  function rowEl(r, i) {
    const d = el('div', null, `row${r.id === selectedId ? ' selected' : ''}${r.verified ? '' : ' refused'}`, {
      role: 'option',
      id: `row-${i}`,
      'aria-selected': String(r.id === selectedId),
      // Only the rows in view exist: their place in the whole list is said.
      'aria-setsize': rows.length,
      'aria-posinset': i + 1,
      'data-id': r.id,
    });
    d.style.top = `${i * ROW_HEIGHT}px`;
    const when = el('span', null, 'when');
    when.appendChild(
      el('span', r.triggeredAt || '—', 'triggered', { title: l10n.t('triggeredAt (as sent, 7 digits)') }),
    );
    when.appendChild(el('span', r.receivedAt.slice(11, 23), 'arrived', { title: l10n.t('arrived {0}', r.receivedAt) }));
    d.appendChild(when);
    const topic = el('span', null, 'topic');
    topic.appendChild(el('span', r.topic || l10n.t('(no topic)')));
    if (r.subTopic) topic.appendChild(el('span', r.subTopic, 'sub'));
    if (r.unsigned && r.unsigned.includes('topic'))
      topic.appendChild(
        el('span', l10n.t('unsigned'), 'badge unsigned', {
          title: l10n.t('From the X-Svc-Topic header, outside the signature: it decides nothing'),
        }),
      );
    d.appendChild(topic);
    d.appendChild(el('span', r.status, `status s${String(r.status)[0]}`));
    const badge = el('span', null, 'badges');
    badge.appendChild(
      el('span', r.verified ? l10n.t('verified') : l10n.t('refused'), r.verified ? 'badge ok' : 'badge bad', {
        title: r.verified ? l10n.t('all seven checks passed') : verdict(r),
      }),
    );
    if (r.duplicate) badge.appendChild(el('span', l10n.t('duplicate'), 'badge dup'));
    if (r.signedHere) badge.appendChild(el('span', SIGNED_HERE, 'badge signed-here', { title: SIGNED_HERE_TITLE }));
    if (r.sandboxNote)
      badge.appendChild(
        el('span', l10n.t('sandbox: {0}', r.sandboxNote), 'badge sandbox-note', { title: SANDBOX_NOTE_TITLE }),
      );
    if (r.forwardsFailed)
      badge.appendChild(
        el('span', l10n.t('forward failed'), 'badge bad forward-failed', {
          title: l10n.t('{0} of {1} apps did not answer, or answered 5xx', r.forwardsFailed, r.forwarded),
        }),
      );
    else if (r.forwarded)
      badge.appendChild(
        el('span', `→ ${r.forwarded}`, 'badge forwarded', { title: l10n.t('forwarded to {0} apps', r.forwarded) }),
      );
    d.appendChild(badge);
    d.appendChild(el('span', r.latencyMs.toFixed(1), 'latency'));
    // The name says the result in words first, then holds what the row shows, as shown: a name that left out the
    // visible text would fail those who speak what they see to select it (WCAG 2.5.3, "label in name").
    d.setAttribute('aria-label', `${rowName(r)}; ${d.textContent}`);
    return d;
  }

  list.addEventListener('scroll', () => requestAnimationFrame(renderList));
  window.addEventListener('resize', () => requestAnimationFrame(renderList));
  list.addEventListener('click', (e) => {
    const row = /** @type {HTMLElement} */ (e.target).closest('.row');
    if (row) select(row.getAttribute('data-id'));
  });
  // ---- keyboard: the list is a listbox (arrows, Home/End, PageUp/PageDown, type-ahead); Enter opens the detail,
  // Escape there comes back to the same row ----
  /** Rows a page holds: what PageUp/PageDown move by. */
  const pageRows = () => Math.max(1, Math.floor(list.clientHeight / ROW_HEIGHT) - 1);
  // Type-ahead (typeAhead.js, loaded before this script): what was typed and when, kept here; the time passed in.
  const { typeAhead, NOT_TYPING } = window.wfsTypeAhead;
  let typing = NOT_TYPING;

  /** The next row (after the selected one, wrapping) whose topic starts with the letters typed within a second. */
  function typeAheadRow(key, from) {
    const topics = rows.map((r) => r.topic);
    const found = typeAhead(typing, key, performance.now(), from, topics);
    typing = found.typing;
    return found.row;
  }

  /** The row index a key moves the selection to, or undefined when the key is not the list's. */
  function target(e, i) {
    const last = rows.length - 1;
    switch (e.key) {
      case 'ArrowDown':
        return Math.min(last, i + 1);
      case 'ArrowUp':
        return Math.max(0, i - 1);
      case 'Home':
        return 0;
      case 'End':
        return last;
      case 'PageDown':
        return Math.min(last, Math.max(i, 0) + pageRows());
      case 'PageUp':
        return Math.max(0, i - pageRows());
    }
    if (e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey) return typeAheadRow(e.key, i);
    return undefined;
  }

  /** Any other key ends what was being typed: the next letter starts a new search. */
  function endTyping(e) {
    if (e.key.length !== 1) typing = NOT_TYPING;
  }

  /** Scrolls so row i is in view: the virtualised list then renders it, and aria-activedescendant finds it. */
  function reveal(i) {
    const top = i * ROW_HEIGHT;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + ROW_HEIGHT > list.scrollTop + list.clientHeight)
      list.scrollTop = top + ROW_HEIGHT - list.clientHeight;
  }

  list.addEventListener('keydown', (e) => {
    if (rows.length === 0) return;
    endTyping(e);
    const i = rows.findIndex((r) => r.id === selectedId);
    if (e.key === 'Enter') {
      e.preventDefault();
      if (i < 0) return select(rows[0].id);
      return detailEl.focus();
    }
    const to = target(e, i);
    if (to === undefined) return;
    e.preventDefault();
    if (to < 0) return;
    reveal(to);
    if (to !== i) select(rows[to].id);
  });
  detailEl.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    const i = rows.findIndex((r) => r.id === selectedId);
    if (i >= 0) reveal(i);
    renderList();
    list.focus();
  });

  /** Ids this page asked the detail of, oldest first: an answer for one the user has since moved past (keys move
   * faster than answers come) is not shown, so the selection does not jump back. */
  let asked = [];
  function select(id) {
    asked = [...asked.slice(-50), id];
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

  const targets = (/** @type {number} */ n) => (n === 1 ? l10n.t('1 target') : l10n.t('{0} targets', n));

  /** Each app's answer to the forwarded delivery: status, latency, headers, the first 4 KiB of its body, as text. */
  function appAnswers(forwards) {
    const failed = forwards.filter((f) => f.failed).length;
    const s = section(
      failed
        ? l10n.t("The app's answer ({0}, {1} failed)", targets(forwards.length), failed)
        : l10n.t("The app's answer ({0})", targets(forwards.length)),
    );
    s.classList.add('app-answers');
    for (const f of forwards) {
      const box = el('div', null, f.failed ? 'app-answer failed' : 'app-answer');
      const target = f.insecure ? l10n.t('{0} (certificate not checked)', f.target) : f.target;
      box.appendChild(el('h3', `${f.failed ? '✗' : '✓'} ${target}`));
      /** @type {[string, unknown][]} */
      const kv = [
        [l10n.t('status'), f.status === undefined ? l10n.t('no answer: {0}', f.error) : String(f.status)],
        [l10n.t('latency'), l10n.t('{0} ms', f.latencyMs)],
      ];
      if (f.redirect !== undefined) kv.push([l10n.t('redirect'), l10n.t('to {0} (not followed)', f.redirect)]);
      if (f.status !== undefined && f.error) kv.push([l10n.t('cut'), f.error]);
      if (f.rules.length) kv.push([l10n.t('rules'), f.rules.join('; ')]);
      if (f.insecure) kv.push([l10n.t('certificate'), l10n.t('not checked: the rule says insecure')]);
      if (f.bodySize !== undefined) kv.push([l10n.t('body size'), l10n.t('{0} bytes', f.bodySize)]);
      box.appendChild(kvTable(kv));
      if (f.headers.length) {
        box.appendChild(el('h3', l10n.t('Response headers ({0})', f.headers.length)));
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
        el('p', l10n.t('Select a delivery to see what arrived and each verification step.'), 'empty'),
      );
    const parts = [];
    const head = el('div', null, 'detail-head');
    head.appendChild(el('h2', `${d.method} ${d.path} → ${d.response.status}`));
    head.appendChild(el('span', verdict(d.row), d.row.verified ? 'badge ok' : 'badge bad'));
    if (d.row.duplicate)
      head.appendChild(
        el('span', l10n.t('duplicate (already processed: answered 200, not processed again)'), 'badge dup'),
      );
    if (d.row.signedHere) head.appendChild(el('span', SIGNED_HERE, 'badge signed-here', { title: SIGNED_HERE_TITLE }));
    if (d.row.sandboxNote)
      head.appendChild(
        el('span', l10n.t("the sandbox's note (unverified): {0}", d.row.sandboxNote), 'badge sandbox-note', {
          title: SANDBOX_NOTE_TITLE,
        }),
      );
    parts.push(head);

    const actions = el('div', null, 'actions', { role: 'toolbar', 'aria-label': l10n.t('Delivery actions') });
    const action = (label, name, title) => {
      const b = el('button', label, undefined, { type: 'button', title });
      b.addEventListener('click', () => vscode.postMessage({ type: 'action', action: name, id: d.row.id }));
      actions.appendChild(b);
    };
    // A fresh signature would make a refused body look genuine: only a verified delivery is re-signed.
    if (d.row.verified) {
      action(
        l10n.t('Replay to Receiver'),
        'replay-local',
        l10n.t('Send the same body again to the local receiver, with a fresh sandbox token'),
      );
      if (d.forward)
        action(
          l10n.t('Replay to Forward Target'),
          'replay-forward',
          l10n.t('Send the same body to {0}, with a fresh sandbox token', d.forward.target),
        );
      // Only the signed body's webhookId can be made new (a header's is outside the signature).
      if (d.row.webhookId && !(d.row.unsigned && d.row.unsigned.includes('webhookId')))
        action(
          l10n.t('Replay with New Id'),
          'replay-fresh',
          l10n.t(
            'Send it to {0} under a new webhookId (the body changes there only, and is signed anew), so an app that dedupes runs its handler again',
            d.forward ? d.forward.target : l10n.t('the local receiver'),
          ),
        );
    }
    action(l10n.t('Copy as curl'), 'copy-curl', l10n.t('The token is read from {0}', '$WFS_WEBHOOK_TOKEN'));
    action(
      l10n.t('Copy as PowerShell'),
      'copy-powershell',
      l10n.t('Invoke-RestMethod; the token is read from {0}', '$env:WFS_WEBHOOK_TOKEN'),
    );
    action(
      l10n.t('Copy as curl for cmd.exe'),
      'copy-cmd',
      l10n.t('curl.exe; the body is written to a file; the token is {0}', '%WFS_WEBHOOK_TOKEN%'),
    );
    // An edited body or a fixture is re-signed with the sandbox's key when sent: only for a verified delivery (as Replay).
    if (d.row.verified) {
      action(
        l10n.t('Edit and Resend…'),
        'edit-resend',
        l10n.t('Open the body and its event headers in an editor, then sign and send'),
      );
      action(l10n.t('Send with Changes…'), 'send-changes', l10n.t('Change values (path=value), then sign and send'));
      action(
        l10n.t('Save as Fixture…'),
        'save-fixture',
        l10n.t('Save this delivery to a fixture file in the workspace'),
      );
    }
    action(l10n.t('Export…'), 'export-one', l10n.t('Save this delivery as JSON'));
    if (d.row.runId)
      action(
        l10n.t('Go to Workflow ({0})', d.row.runId),
        'jump',
        l10n.t('Reveal the workflow with this runId in the explorer'),
      );
    parts.push(actions);

    const checks = section(l10n.t('Verification: the seven steps'));
    const ol = el('ol', null, 'checks');
    for (const c of d.checks) {
      const li = el('li', null, c.ok ? 'check ok' : 'check bad');
      li.appendChild(
        el('span', c.ok ? '✓' : '✗', 'mark', { 'aria-label': c.ok ? l10n.t('passed') : l10n.t('failed') }),
      );
      li.appendChild(el('strong', `${c.step}. ${stepName(c.step)}`));
      li.appendChild(el('span', ` — ${c.detail}`));
      ol.appendChild(li);
    }
    if (d.checks.length === 0)
      ol.appendChild(
        el(
          'li',
          l10n.t('not verified: the request was refused before verification (path, method, size or timeout)'),
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
        ? l10n.t('{0} (unsigned: from a header, outside the signature; decides nothing)', v)
        : v;
    };
    /** @type {[string, unknown][]} */
    const timing = [
      ['webhookId', field('webhookId')],
      ['triggeredAt', field('triggeredAt')],
      [l10n.t('arrived'), d.row.receivedAt],
      [l10n.t('topic'), field('topic')],
      ['subTopic', field('subTopic')],
      ['runId', d.row.runId || '—'],
      [l10n.t('response sent'), l10n.t('{0} after {1} ms', d.response.status, d.response.durationMs)],
    ];
    for (const f of d.forwards || [])
      timing.push([
        f.failed ? l10n.t('forward failed') : l10n.t('forwarded to'),
        l10n.t(
          '{0} → {1} in {2} ms',
          f.insecure ? l10n.t('{0} (certificate not checked)', f.target) : f.target,
          f.status ?? f.error,
          f.latencyMs,
        ),
      ]);
    const summary = section(l10n.t('Summary'));
    summary.appendChild(kvTable(timing));
    parts.push(summary);
    if (d.forwards && d.forwards.length) parts.push(appAnswers(d.forwards));

    if (d.jwt) {
      const jwt = section(l10n.t('Token (decoded; trusted only if verified)'));
      if (d.jwt.dates.length || d.jwt.expiresInSecondsAtArrival !== undefined) {
        const rowsKv = d.jwt.dates.map((x) => [x.claim, `${x.value} = ${x.iso}`]);
        if (d.jwt.expiresInSecondsAtArrival !== undefined)
          rowsKv.push([
            l10n.t('at arrival'),
            d.jwt.expiresInSecondsAtArrival >= 0
              ? l10n.t('expires in {0} s', d.jwt.expiresInSecondsAtArrival)
              : l10n.t('expired {0} s before', -d.jwt.expiresInSecondsAtArrival),
          ]);
        jwt.appendChild(kvTable(rowsKv));
      }
      jwt.appendChild(el('h3', l10n.t('Header')));
      jwt.appendChild(jsonTree(d.jwt.header ?? null));
      jwt.appendChild(el('h3', l10n.t('Claims')));
      jwt.appendChild(jsonTree(d.jwt.claims ?? null));
      parts.push(jwt);
    }

    const headers = section(l10n.t('Request headers ({0})', d.headers.length));
    headers.appendChild(kvTable(d.headers));
    parts.push(headers);

    if (d.prettyJson !== undefined) {
      const pretty = section(
        d.row.verified ? l10n.t('Body (JSON)') : l10n.t('Body (JSON, untrusted: the delivery was refused)'),
      );
      pretty.appendChild(jsonTree(JSON.parse(d.prettyJson)));
      parts.push(pretty);
    }
    const whole = d.keptBytes === d.bodyBytes;
    const size = d.bodyIsUtf8 ? l10n.t('{0} bytes', d.bodyBytes) : l10n.t('{0} bytes, not UTF-8: hex', d.bodyBytes);
    const raw = section(
      whole
        ? l10n.t('Raw body exactly as received ({0})', size)
        : l10n.t('Raw body (first {0} bytes kept) ({1})', d.keptBytes, size),
      d.prettyJson === undefined,
    );
    if (d.note) raw.appendChild(el('p', d.note, 'note'));
    raw.appendChild(el('p', l10n.t('SHA-256 of all {0} bytes: {1}', d.bodyBytes, d.sha256), 'hash'));
    raw.appendChild(el('pre', d.bodyIsUtf8 ? d.rawText : d.hex, 'raw'));
    parts.push(raw);
    detailEl.replaceChildren(...parts);
  }

  // ---- new deliveries, said ----
  // In a polite live region, at most once per ANNOUNCE_MS and with how many came: a burst of webhooks read out one
  // by one would drown what the user is doing. The first arrival starts the window; its end says the count.
  const ANNOUNCE_MS = 3000;
  const announceEl = $('announce');
  let unannounced = 0;
  let announceTimer = null;
  function announceNew() {
    unannounced++;
    if (announceTimer !== null) return;
    announceTimer = setTimeout(() => {
      announceEl.textContent = unannounced === 1 ? l10n.t('1 new delivery') : l10n.t('{0} new deliveries', unannounced);
      unannounced = 0;
      announceTimer = null;
    }, ANNOUNCE_MS);
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
        announceNew();
        break;
      case 'paused-count':
        pendingWhilePaused = m.count;
        renderPause();
        break;
      case 'detail': {
        const k = m.detail ? asked.indexOf(m.detail.row.id) : -1;
        const stale = k >= 0 && k < asked.length - 1;
        if (k >= 0) asked = asked.slice(k + 1);
        if (stale) break;
        // A result is about one delivery: another one selected, it no longer applies.
        if (resultId && (!m.detail || m.detail.row.id !== resultId)) renderResult(null);
        detail = m.detail;
        selectedId = m.detail ? m.detail.row.id : null;
        persist();
        renderList();
        renderDetail();
        break;
      }
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
