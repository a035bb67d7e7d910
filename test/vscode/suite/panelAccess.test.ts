// The webhook panel for everyone (#78), read from its webview as a user meets it: its words are the extension's
// l10n bundle's; it works by keyboard alone (real key presses through the harness); each row says its result in
// words; new deliveries are said in a polite live region, a count at a time.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { deliveredBy, extensionApi, setSetting, freshSandboxAndReceiver } from './helpers';
import { inWebview, pressInWebview } from './webviewDom';

/** Where focus and the selection are in the panel, after each key. */
interface Focus {
  active: string;
  activeText: string;
  /** The row aria-activedescendant names, by its topic; '' when none. */
  selected: string;
  /** That row is rendered, marked aria-selected. */
  marked: boolean;
  pageRows: number;
}

const FOCUS = `(() => {
  const list = document.getElementById('list');
  const id = list.getAttribute('aria-activedescendant');
  const row = id ? document.getElementById(id) : null;
  const a = document.activeElement;
  return {
    active: a ? a.id || a.tagName : '',
    activeText: a ? (a.getAttribute('aria-label') || a.textContent || '').trim() : '',
    selected: row ? row.querySelector('.topic span').textContent : '',
    marked: !!row && row.getAttribute('aria-selected') === 'true',
    pageRows: Math.max(1, Math.floor(list.clientHeight / 26) - 1),
  };
})()`;

const press = (keys: string[], click?: string) => pressInWebview<Focus>('#spacer', { keys, click, expression: FOCUS });

describe('webhook panel: words, keyboard, names (#78)', () => {
  let api: ExtensionApi;
  let receiverUrl: string;

  before(async () => {
    api = await extensionApi();
    receiverUrl = await freshSandboxAndReceiver();
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.receiver.clearHistory();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  /** A delivery without a token, its topic in the X-Svc-Topic header: refused at step 1, listed under that topic. */
  const unsigned = (topic: string) =>
    fetch(receiverUrl, {
      method: 'POST',
      headers: { 'x-svc-topic': topic, 'content-type': 'application/json' },
      body: JSON.stringify({ topic }),
    });

  /** Opens the panel and waits until it lists `n` deliveries. */
  async function openPanel(n: number): Promise<void> {
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    const summary = vscode.l10n.t('{0} shown of {1}', n, n);
    await inWebview('#spacer', 'true', `document.getElementById('summary').textContent === ${JSON.stringify(summary)}`);
  }

  it("shows the extension's l10n bundle: the page carries it, and the toolbar, list and summary are its words", async () => {
    await deliveredBy(api, () => unsigned('orders/words'));
    await openPanel(1);
    const shown = await inWebview<{
      bundle: unknown;
      pause: string;
      list: string | null;
      summary: string;
      empty: string;
      filled: string;
      lang: string;
    }>(
      '#spacer',
      `(() => ({
        bundle: JSON.parse(document.getElementById('wfs-l10n').textContent),
        pause: document.getElementById('pause').textContent,
        list: document.getElementById('list').getAttribute('aria-label'),
        summary: document.getElementById('summary').textContent,
        empty: document.querySelector('#detail .empty').textContent,
        filled: window.wfsL10n.t('{0} shown of {1}', 7, 9),
        lang: document.documentElement.lang,
      }))()`,
    );
    assert.deepEqual(shown, {
      bundle: vscode.l10n.bundle ?? {},
      pause: vscode.l10n.t('Pause'),
      list: vscode.l10n.t('Deliveries, newest first'),
      summary: vscode.l10n.t('{0} shown of {1}', 1, 1),
      empty: vscode.l10n.t('Select a delivery to see what arrived and each verification step.'),
      filled: vscode.l10n.t('{0} shown of {1}', 7, 9),
      lang: vscode.env.language,
    });
  });

  it('each row says its result in words: verified or the refusing step, HTTP status, and the app’s answer', async () => {
    const app = new RecordingServer();
    app.respond = () => 202;
    const appUrl = await app.start();
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.forwardTo', appUrl);
    try {
      receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      const verified = await deliveredBy(api, () =>
        vscode.commands.executeCommand('wfs.sendTestWebhook', {
          topic: 'workflow/completed',
          subTopic: 'event:workflow/completed',
          tenantId: 'names',
          testData: 'template',
          address: receiverUrl,
        }),
      );
      const refused: DeliveryRecord = await deliveredBy(api, () => unsigned('orders/none'));
      assert.equal(verified.forwards?.[0]?.status, 202);
      await openPanel(2);
      const rows = await inWebview<{ name: string | null; text: string }[]>(
        '#spacer',
        `[...document.querySelectorAll('#spacer .row')].map((r) => ({ name: r.getAttribute('aria-label'), text: r.textContent }))`,
      );
      assert.equal(rows.length, 2);
      // Each name holds the row's visible text after its words (WCAG 2.5.3, label in name).
      for (const r of rows) assert.ok(r.name!.endsWith(`; ${r.text}`), `${r.name} holds ${r.text}`);
      const names = rows.map((r) => r.name!.slice(0, -(r.text.length + 2)));
      assert.equal(
        names[0],
        [
          'orders/none',
          vscode.l10n.t('refused at step {0}: {1}', 1, vscode.l10n.t('bearer token')),
          vscode.l10n.t('HTTP {0}', refused.status),
          vscode.l10n.t('arrived {0}', refused.receivedAt),
        ].join(', '),
      );
      const start = ['workflow/completed', vscode.l10n.t('verified'), vscode.l10n.t('HTTP {0}', 200)].join(', ');
      assert.ok(names[1]!.startsWith(`${start}, `), names[1]!);
      assert.ok(names[1]!.includes(`, ${vscode.l10n.t('app answered {0}', 202)}, `), names[1]!);
      assert.ok(names[1]!.endsWith(vscode.l10n.t('arrived {0}', verified.receivedAt)), names[1]!);
    } finally {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.forwardTo', undefined);
      receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      await app.stop();
    }
  });

  it('works by keyboard alone: arrows, Home/End, PageUp/PageDown, type-ahead; Enter opens the detail, Tab reaches each named action, Escape returns to the row', async () => {
    // Newest first: delta/five, gamma/four, beta/three, beta/two, alpha/one.
    for (const t of ['alpha/one', 'beta/two', 'beta/three', 'gamma/four', 'delta/five'])
      await deliveredBy(api, () => unsigned(t));
    await openPanel(5);

    let f = await press([], '#row-0');
    assert.deepEqual([f.active, f.selected, f.marked], ['list', 'delta/five', true], 'a click selects and focuses');
    const moves: [string, string][] = [
      ['ArrowDown', 'gamma/four'],
      ['ArrowDown', 'beta/three'],
      ['ArrowUp', 'gamma/four'],
      ['End', 'alpha/one'],
      ['ArrowDown', 'alpha/one'],
      ['Home', 'delta/five'],
      ['ArrowUp', 'delta/five'],
    ];
    for (const [key, topic] of moves) {
      f = await press([key]);
      assert.deepEqual([key, f.active, f.selected, f.marked], [key, 'list', topic, true]);
    }
    const topics = ['delta/five', 'gamma/four', 'beta/three', 'beta/two', 'alpha/one'];
    f = await press(['PageDown']);
    assert.equal(f.selected, topics[Math.min(4, f.pageRows)], `PageDown moves ${f.pageRows} rows (a page)`);
    f = await press(['PageUp']);
    assert.equal(f.selected, 'delta/five');

    // Type-ahead: a letter jumps to the next row whose topic starts with it; the same letter again moves on; more
    // letters refine; an arrow key ends the typing.
    f = await press(['b']);
    assert.equal(f.selected, 'beta/three');
    f = await press(['b']);
    assert.equal(f.selected, 'beta/two');
    f = await press(['ArrowUp', 'g', 'a']);
    assert.equal(f.selected, 'gamma/four');
    f = await press(['ArrowDown', 'a', 'l']);
    assert.equal(f.selected, 'alpha/one');

    // Enter: the detail of the selected row, focused; Tab goes through its actions, each a named button.
    f = await press(['Enter']);
    assert.equal(f.active, 'detail');
    const names = await inWebview<string[]>(
      '#detail',
      `[...document.querySelectorAll('#detail .actions button')].map((b) => (b.getAttribute('aria-label') || b.textContent).trim())`,
      `!!document.querySelector('#detail .actions button') && document.getElementById('detail').textContent.includes('alpha/one')`,
    );
    assert.ok(names.length >= 4, names.join(' | '));
    assert.ok(
      names.every((n) => n.length > 1),
      'every action has a name',
    );
    const tabbed: string[] = [];
    for (let k = 0; k < names.length; k++) {
      f = await press(['Tab']);
      assert.equal(f.active, 'BUTTON', `Tab ${k + 1} is on a button`);
      tabbed.push(f.activeText);
    }
    assert.deepEqual(tabbed, names, 'Tab reaches every action, in order');
    assert.equal(names[0], vscode.l10n.t('Copy as curl'));

    // Escape: back to the list, at the same row.
    f = await press(['Escape']);
    assert.deepEqual([f.active, f.selected, f.marked], ['list', 'alpha/one', true]);
    f = await press(['ArrowUp']);
    assert.equal(f.selected, 'beta/two', 'the keys work on from that row');
  });

  it('new deliveries are said in a polite live region, once for a burst, with the count', async () => {
    await openPanel(0);
    const region = await inWebview<{ live: string | null; role: string | null; text: string }>(
      '#announce',
      `(() => {
        const a = document.getElementById('announce');
        window.wfsSaid = [];
        new MutationObserver(() => window.wfsSaid.push(a.textContent)).observe(a, { childList: true, characterData: true, subtree: true });
        return { live: a.getAttribute('aria-live'), role: a.getAttribute('role'), text: a.textContent };
      })()`,
    );
    assert.deepEqual(region, { live: 'polite', role: 'status', text: '' });
    const before = api.receiver.deliveries.all().length;
    await Promise.all([unsigned('burst/one'), unsigned('burst/two'), unsigned('burst/three')]);
    assert.equal(api.receiver.deliveries.all().length, before + 3);
    // Waits on the region (the panel's own timer says it once the burst's window closes), then on nothing more.
    const said = await inWebview<string[]>('#announce', 'window.wfsSaid', 'window.wfsSaid.length > 0');
    assert.deepEqual(said, [vscode.l10n.t('{0} new deliveries', 3)]);
    const shown = await inWebview<string>('#spacer', `document.getElementById('summary').textContent`);
    assert.equal(shown, vscode.l10n.t('{0} shown of {1}', 3, 3));
  });
});
