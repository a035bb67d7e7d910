// Issue #78, checked apart from its implementation, from the text alone (items 4 and 5): the webhook panel
// used by keyboard alone (real key presses through the harness), its rows and the receiver view's tree items
// naming each result in words, and new deliveries announced with a count in a polite live region. What is checked
// is read from the DOM as a screen reader would read it; the extension is never asked.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { deliveredBy, extensionApi, setSetting, freshSandboxAndReceiver } from './helpers';
import { inWebview, pressInWebview } from './webviewDom';

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** The selected row's place (1-based, aria-posinset) and where the focus is: the list, the detail, or else. */
const STATE = `(() => {
  const list = document.getElementById('list');
  const id = list.getAttribute('aria-activedescendant');
  const row = id ? document.getElementById(id) : null;
  const a = document.activeElement;
  return {
    pos: row ? Number(row.getAttribute('aria-posinset')) : -1,
    selected: row ? row.getAttribute('aria-selected') : null,
    focus: a === list ? 'list' : document.getElementById('detail').contains(a) ? 'detail' : (a ? a.tagName : 'none'),
  };
})()`;
interface State {
  pos: number;
  selected: string | null;
  focus: string;
}

function press(keys: string[], click?: string): Promise<State> {
  return pressInWebview<State>('#spacer', { click, keys, expression: STATE });
}

describe('issue 78 (independent check)', () => {
  let api: ExtensionApi;
  let receiverUrl: string;

  before(async () => {
    api = await extensionApi();
    await setSetting('sandbox.workflowDurationSeconds', 0);
    receiverUrl = await freshSandboxAndReceiver();
    await api.receiver.clearHistory();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('sandbox.workflowDurationSeconds', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  /** An unsigned POST with topic `topic`: refused, a row of its own. */
  const unsigned = (topic: string) =>
    deliveredBy(api, () =>
      fetch(receiverUrl, {
        method: 'POST',
        headers: { 'x-svc-topic': topic, 'content-type': 'application/json' },
        body: JSON.stringify({ topic }),
      }),
    );

  it('the panel works by keyboard alone, and its rows name each result in words', async function () {
    this.timeout(120_000);
    for (let i = 0; i < 30; i++) await unsigned(`bulk/${String(i).padStart(2, '0')}`);
    // A token that reaches the signature step and fails there: an RS256 header with a forged signature.
    const forged = `${b64url({ alg: 'RS256', kid: 'nope', typ: 'JWT' })}.${b64url({ iss: 'x', aud: 'y', exp: 1 })}.AAAA`;
    const refused = await deliveredBy(api, () =>
      fetch(receiverUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${forged}`, 'x-svc-topic': 'workflow/failed' },
        body: '{}',
      }),
    );
    const verified = await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 'tenant-78',
        testData: 'template',
        address: receiverUrl,
      }),
    );
    assert.equal(verified.verified, true);
    assert.equal(refused.verified, false);
    const total = 32;

    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    await inWebview<string>(
      '#spacer',
      `document.getElementById('summary').textContent`,
      `document.querySelectorAll('#spacer .row').length > 3 && /${total}/.test(document.getElementById('summary').textContent)`,
    );

    // Item 5: each row's accessible name says its result in words. Newest first: the verified one, then the forged.
    const names = await inWebview<string[]>(
      '#spacer',
      `[...document.querySelectorAll('#spacer .row')].map((r) => r.getAttribute('aria-label') ?? '')`,
    );
    assert.match(names[0]!, /\bverified\b/, `row 0 is named "${names[0]}"`);
    assert.match(names[1]!, /refused at step \d+: \S+/, `row 1 is named "${names[1]}"`);
    for (const n of names) assert.match(n, /\b(verified|refused)\b/, `a row named "${n}" does not say its result`);

    // Item 4: arrows, Home/End, PageUp/PageDown move the selection (real key presses on the focused list).
    let s = await press([], '#spacer .row');
    assert.equal(s.pos, 1, 'a click selects the first row');
    assert.equal(s.selected, 'true');
    s = await press(['ArrowDown', 'ArrowDown']);
    assert.equal(s.pos, 3, 'two ArrowDown');
    assert.equal(s.focus, 'list');
    s = await press(['ArrowUp']);
    assert.equal(s.pos, 2, 'ArrowUp');
    s = await press(['End']);
    assert.equal(s.pos, total, 'End');
    s = await press(['Home']);
    assert.equal(s.pos, 1, 'Home');
    s = await press(['PageDown']);
    const page = s.pos - 1;
    assert.ok(page > 1, `PageDown moved by a page, more than one row (it moved ${page})`);
    s = await press(['PageUp']);
    assert.equal(s.pos, 1, 'PageUp comes back by the same page');

    // Enter opens the detail (the focus goes there, and it shows the selected delivery); Escape returns to the list.
    s = await press(['Enter']);
    assert.equal(s.focus, 'detail', 'Enter puts the focus in the detail');
    await inWebview<number>(
      '#spacer',
      `document.querySelectorAll('#detail .check').length`,
      `document.querySelectorAll('#detail .check').length === 7 && /tenant-78/.test(document.getElementById('detail').textContent)`,
    );
    s = await press(['Escape']);
    assert.equal(s.focus, 'list', 'Escape returns to the list');
    assert.equal(s.pos, 1, 'on the same row');

    // Tab from the detail reaches its named actions; every button in the detail has an accessible name.
    s = await press(['Enter']);
    assert.equal(s.focus, 'detail');
    const NAME_OF_ACTIVE = `(() => { const a = document.activeElement; return document.getElementById('detail').contains(a) && a.tagName === 'BUTTON' ? (a.getAttribute('aria-label') || a.textContent.trim() || a.title || '') : null; })()`;
    const reached: string[] = [];
    for (let i = 0; i < 25 && !reached.some((n) => /Replay to Receiver/.test(n)); i++) {
      const name = await pressInWebview<string | null>('#spacer', { keys: ['Tab'], expression: NAME_OF_ACTIVE });
      if (name !== null) reached.push(name);
    }
    assert.ok(
      reached.some((n) => /Replay to Receiver/.test(n)),
      `Tab reached these buttons but not Replay: ${JSON.stringify(reached)}`,
    );
    const unnamed = await inWebview<string[]>(
      '#spacer',
      `[...document.querySelectorAll('#detail button, #detail [role=button]')].filter((b) => !(b.getAttribute('aria-label') || b.textContent.trim() || b.getAttribute('aria-labelledby'))).map((b) => b.outerHTML.slice(0, 120))`,
    );
    assert.deepEqual(unnamed, [], 'buttons without an accessible name');
  });

  it('new deliveries are announced in a polite live region, with a count', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    await inWebview<boolean>('#spacer', 'true', `document.querySelectorAll('#spacer .row').length > 0`);
    const politeText = `[...document.querySelectorAll('[aria-live="polite"]')].map((e) => e.textContent.trim()).filter(Boolean)`;
    const before = await inWebview<string[]>('#spacer', politeText);
    assert.ok(!before.some((t) => /\b3 new deliver/i.test(t)), `announced before anything came: ${before}`);
    await unsigned('burst/a');
    await unsigned('burst/b');
    await unsigned('burst/c');
    const said = await inWebview<string[]>(
      '#spacer',
      politeText,
      `(${politeText}).some((t) => /\\b3\\b.*deliver/i.test(t))`,
    );
    assert.ok(
      said.some((t) => /\b3\b.*deliver/i.test(t)),
      JSON.stringify(said),
    );
  });

  it("the receiver view's tree items state each result in words (their aria-label)", async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('wfs.receiver.focus');
    // Every view pane's tree rows (not the notifications', which are lists too).
    const rows = `[...document.querySelectorAll('.pane-body .monaco-list-row')].map((r) => r.getAttribute('aria-label') ?? '')`;
    const both = `(${rows}).some((l) => /workflow\\/completed/.test(l)) && (${rows}).some((l) => /refused/.test(l) && /\\b403\\b/.test(l))`;
    let labels: string[];
    try {
      labels = await inWebview<string[]>('.monaco-workbench', rows, both);
    } catch (err) {
      const seen = await inWebview<string[]>(
        '.monaco-workbench',
        `[...document.querySelectorAll('.monaco-list-row')].map((r) => (r.closest('.pane-body') ? 'pane: ' : 'other: ') + (r.getAttribute('aria-label') ?? r.textContent))`,
      );
      throw new Error(`${(err as Error).message}\nrows on screen: ${JSON.stringify(seen)}`);
    }
    const completed = labels.find((l) => /workflow\/completed/.test(l))!;
    // The refused rows are the unsigned ones and the forged one, each answered 403 (a topic from a header is not a
    // verified topic, so the row is found by its result); the "Deliveries" group row says "refused" too, without one.
    const failed = labels.find((l) => /refused/.test(l) && /\b403\b/.test(l))!;
    assert.match(completed, /\bverified\b/, `the verified delivery's tree item reads "${completed}"`);
    assert.match(failed, /refused at step \d+: \S+/, `the refused delivery's tree item reads "${failed}"`);
    for (const l of labels) assert.ok(l.trim().length > 0, 'a tree row without an accessible name');
  });
});
