// What a webview shows, read from its DOM by the harness (test/vscode/harness/webviewInspector.mjs) as a user
// would see it: the extension is never asked. Expressions are JavaScript evaluated in the webview's document.

/** Evaluates `expression` in the frame (the workbench or a webview) that holds `has`, once `until` holds there
 * (waiting up to timeoutMs; the harness's default is 15 s). */
export async function inWebview<T>(has: string, expression: string, until?: string, timeoutMs?: number): Promise<T> {
  const base = process.env.WFS_TEST_WEBVIEW_URL;
  if (!base) throw new Error('WFS_TEST_WEBVIEW_URL is not set: run the suite with npm run test:vscode');
  const res = await fetch(`${base}/evaluate`, {
    method: 'POST',
    body: JSON.stringify({ has, expression, until, timeoutMs }),
  });
  const body = (await res.json()) as { value?: T; error?: string };
  if (!res.ok) throw new Error(`reading the webview failed: ${body.error}`);
  return body.value as T;
}

export interface PanelDom {
  /** The list's rows in the DOM (it is virtualised), as text. */
  visibleRows: string[];
  /** "N shown of M". */
  summary: string;
  /** Elements that markup in a payload would have created. */
  injected: number;
  checks: { ok: boolean; text: string }[];
  detailText: string;
}

const PANEL_DOM = `(() => ({
  visibleRows: [...document.querySelectorAll('#spacer .row')].map((r) => r.textContent),
  summary: document.getElementById('summary').textContent,
  injected: document.querySelectorAll('#list script, #list img, #detail script, #detail img, #detail iframe, [onerror]').length,
  checks: [...document.querySelectorAll('#detail .check')].map((c) => ({ ok: c.classList.contains('ok'), text: c.textContent })),
  detailText: document.getElementById('detail').textContent,
}))()`;

/** The webhook panel's DOM, once `until` (a JavaScript condition on its document) holds. */
export function webhookPanelDom(until?: string): Promise<PanelDom> {
  return inWebview<PanelDom>('#spacer', PANEL_DOM, until);
}

/** Chooses in the panel's "verified and refused" menu, as a user would. */
export function chooseVerificationFilter(value: '' | 'verified' | 'refused'): Promise<boolean> {
  return inWebview<boolean>(
    '#spacer',
    `(() => { const s = document.getElementById('f-verification'); s.value = ${JSON.stringify(value)}; s.dispatchEvent(new Event('change')); return true; })()`,
  );
}

/** Types in the panel's text filter, as a user would (the panel sends it after a 150 ms pause). */
export function typeFilterText(text: string): Promise<boolean> {
  return inWebview<boolean>(
    '#spacer',
    `(() => { const t = document.getElementById('f-text'); t.value = ${JSON.stringify(text)}; t.dispatchEvent(new Event('input')); return true; })()`,
  );
}

export interface AuditDom {
  cases: { id: string | null; ok: boolean; text: string }[];
  injected: number;
}

/** The audit scorecard's DOM, once `until` (a JavaScript condition on its document) holds. */
export function auditPanelDom(until: string): Promise<AuditDom> {
  return inWebview<AuditDom>(
    '#cases',
    `(() => ({ cases: [...document.querySelectorAll('.case')].map((c) => ({ id: c.getAttribute('data-id'), ok: c.classList.contains('ok'), text: c.textContent })), injected: document.querySelectorAll('#cases script, #cases img, [onerror]').length }))()`,
    until,
  );
}

/** Clicks `click` in the webview that holds `has` (when given), presses each of `keys` there as a user would
 * (Playwright's keyboard: real key events to what has focus), then evaluates `expression` once `until` holds. */
export async function pressInWebview<T>(
  has: string,
  o: { click?: string; keys: string[]; expression: string; until?: string },
): Promise<T> {
  const base = process.env.WFS_TEST_WEBVIEW_URL;
  if (!base) throw new Error('WFS_TEST_WEBVIEW_URL is not set: run the suite with npm run test:vscode');
  const res = await fetch(`${base}/press`, { method: 'POST', body: JSON.stringify({ has, ...o }) });
  const body = (await res.json()) as { value?: T; error?: string };
  if (!res.ok) throw new Error(`pressing keys in the webview failed: ${body.error}`);
  return body.value as T;
}
