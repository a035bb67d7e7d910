// The webhook panel in a real VS Code host: what the webview renders (reported from inside it) for one verified
// and one refused delivery, hostile payloads rendered as text, replay, jump to workflow, deliveries in the tree.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import type { TrackedWorkflow } from '../../../src/core/workflows/WorkflowStore';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { deliveryRow } from '../../../src/extension/panel/deliveryView';
import { deliveredBy, envValue, extensionApi, setSetting, until, freshSandboxAndReceiver } from './helpers';
import { chooseVerificationFilter, inWebview, typeFilterText, webhookPanelDom } from './webviewDom';
import { notificationButtons, notificationsInCenter } from './workbenchDom';

const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>';
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('webhook panel in a real VS Code host', () => {
  let api: ExtensionApi;
  let receiverUrl: string;

  before(async () => {
    api = await extensionApi();
    await setSetting('confirmBilledStart', false);
    await setSetting('sandbox.workflowDurationSeconds', 0);
    receiverUrl = await freshSandboxAndReceiver();
    await api.receiver.clearHistory();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('confirmBilledStart', undefined);
    await setSetting('sandbox.workflowDurationSeconds', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  /** A verified test webhook of this test's own, so that no test depends on another's deliveries. */
  function verifiedOwn(tenantId: string): Promise<DeliveryRecord> {
    return deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId,
        testData: 'template',
        address: receiverUrl,
      }),
    );
  }

  it('opens, and shows one verified and one refused delivery live, each with the right checks', async () => {
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    // As the user sees it: a tab of the panel's kind, active in its group.
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('wfs.webhookPanel'));
    assert.deepEqual(
      tabs.map((t) => [t.label, t.isActive]),
      [['Webhook Deliveries', true]],
    );
    const verified = await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId: 'tenant-panel',
        testData: 'template',
        address: receiverUrl,
      }),
    );
    // Forged: an unsigned token whose header and claims carry markup, markup in a header and in the body.
    const forged = `${b64url({ alg: 'none', kid: XSS })}.${b64url({ iss: XSS, aud: 'x', exp: 1 })}.`;
    const refused = await deliveredBy(api, () =>
      fetch(receiverUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${forged}`, 'x-svc-topic': XSS, 'content-type': 'application/json' },
        body: JSON.stringify({ topic: XSS, note: XSS }),
      }),
    );
    assert.equal(verified.verified, true);
    assert.equal(refused.status, 403);

    let dom = await webhookPanelDom(`document.getElementById('summary').textContent === '2 shown of 2'`);
    assert.match(dom.visibleRows[0]!, /refused/);
    assert.match(dom.visibleRows[1]!, /workflow\/completed.*200.*verified/);
    assert.match(dom.visibleRows[1]!, /\.\d{7}Z/, 'triggeredAt shown with its 7 digits');

    await vscode.commands.executeCommand('wfs.openWebhookPanel', verified.id);
    dom = await webhookPanelDom(`document.querySelectorAll('#detail .check').length === 7`);
    assert.deepEqual(
      dom.checks.map((c) => c.ok),
      [true, true, true, true, true, true, true],
    );
    assert.match(dom.detailText, /tenant-panel/);

    await vscode.commands.executeCommand('wfs.openWebhookPanel', refused.id);
    dom = await webhookPanelDom(`document.querySelectorAll('#detail .check').length === 3`);
    assert.deepEqual(
      dom.checks.map((c) => c.ok),
      [true, false, false],
      'step 1 passed, step 2 (issuer) failed, decision refused',
    );
    assert.match(dom.checks[1]!.text, /2\. trusted issuer/);
    assert.equal(dom.injected, 0, 'no element was created from payload markup');
    assert.ok(dom.detailText.includes(XSS), 'the markup is shown, as text');
  });

  it('filters in the extension: refused only', async () => {
    await verifiedOwn('filter-verified');
    await deliveredBy(api, () =>
      fetch(receiverUrl, { method: 'POST', headers: { authorization: 'Bearer not.a.jwt' }, body: '{}' }),
    );
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    const refused = api.receiver.deliveries.all().filter((r) => !r.verified).length;
    const all = api.receiver.deliveries.size;
    assert.ok(refused >= 1 && refused < all, 'both kinds are in the history');
    await chooseVerificationFilter('refused');
    const dom = await webhookPanelDom(
      `document.getElementById('summary').textContent === '${refused} shown of ${all}'`,
    );
    assert.ok(dom.visibleRows.length > 0);
    for (const row of dom.visibleRows) assert.match(row, /refused/);
    await chooseVerificationFilter('');
    await webhookPanelDom(`document.getElementById('summary').textContent === '${all} shown of ${all}'`);
  });

  it('filters by a topic pattern through the core matcher; a pattern it refuses is said, not matched', async () => {
    await verifiedOwn('topic-pattern');
    await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/failed',
        subTopic: 'event:workflow/failed',
        tenantId: 'topic-pattern',
        testData: 'template',
        address: receiverUrl,
      }),
    );
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    const all = api.receiver.deliveries.size;
    // Counted as the panel's rows show topics: the signed one, else an X-Svc-Topic header's.
    const completed = api.receiver.deliveries.all().filter((r) => deliveryRow(r).topic === 'workflow/completed').length;
    assert.ok(completed >= 1 && completed < all, 'the history holds other topics too');
    const typeTopic = (text: string) =>
      inWebview<boolean>(
        '#spacer',
        `(() => { const t = document.getElementById('f-topic'); t.value = ${JSON.stringify(text)}; t.dispatchEvent(new Event('input')); return true; })()`,
      );
    await typeTopic('workflow/complete?');
    await webhookPanelDom(`document.getElementById('summary').textContent === '${completed} shown of ${all}'`);
    await typeTopic('**a**a**a**a**a**a**c');
    await webhookPanelDom(`document.getElementById('summary').textContent === '0 shown of ${all}'`);
    await typeTopic('workflow/***');
    const said = await inWebview<string>(
      '#spacer',
      `document.getElementById('empty').textContent`,
      `/holds \\*\\*\\*/.test(document.getElementById('empty').textContent)`,
    );
    assert.match(said, /^The topic filter holds \*\*\* : use \*/);
    await typeTopic('');
    await webhookPanelDom(`document.getElementById('summary').textContent === '${all} shown of ${all}'`);
  });

  it('a text filter typed over stops reading bodies: the newer filter is shown, the older scan reads no further', async () => {
    await verifiedOwn('typing-over');
    for (const n of [1, 2])
      await deliveredBy(api, () =>
        fetch(receiverUrl, {
          method: 'POST',
          headers: { authorization: 'Bearer not.a.jwt' },
          body: `{"typed":"over ${n}"}`,
        }),
      );
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    const log = api.receiver.deliveries;
    const all = log.size;
    const refused = log.all().filter((r) => !r.verified).length;
    assert.ok(
      log.all().filter((r) => r.body.utf8 && r.body.kept > 0).length >= 3,
      'a scan for text nobody sent would read several bodies',
    );
    // Each body read waits at a gate the test opens, so the first scan is caught after its first read.
    const read = new vscode.EventEmitter<void>();
    const reads: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const own = log.body;
    log.body = async (id: string) => {
      reads.push(id);
      read.fire();
      await gate;
      return own.call(log, id);
    };
    try {
      await typeFilterText('no such text in any delivery');
      await until(read.event, () => reads.length === 1, 'the first body read of the scan');
      // Typed over: the text cleared and "refused" chosen, which needs no body, so its rows come at once.
      await typeFilterText('');
      await chooseVerificationFilter('refused');
      await webhookPanelDom(`document.getElementById('summary').textContent === '${refused} shown of ${all}'`);
      open();
      // The first scan goes on when its read returns: a round trip to the webview gives it every turn it would need.
      const dom = await webhookPanelDom(
        `document.getElementById('summary').textContent === '${refused} shown of ${all}'`,
      );
      for (const row of dom.visibleRows) assert.match(row, /refused/);
      assert.equal(reads.length, 1, 'no body read after the filter changed');
    } finally {
      open();
      delete (log as { body?: unknown }).body;
      read.dispose();
      await chooseVerificationFilter('');
    }
  });

  it('replays a delivery to the receiver with a fresh sandbox token: verified again, flagged duplicate', async () => {
    const original = await verifiedOwn('replay');
    const replayed = await deliveredBy(api, () => api.webhookPanel.runAction('replay-local', original.id));
    assert.equal(replayed.verified, true);
    assert.equal(replayed.duplicate, true);
    assert.deepEqual(
      await api.receiver.deliveries.body(replayed.id),
      await api.receiver.deliveries.body(original.id),
      'the same bytes',
    );
    assert.equal(replayed.body.sha256, original.body.sha256);
  });

  it('a refused delivery is never re-signed: no Replay button, and the action itself refuses, sending nothing', async () => {
    // A genuine sandbox token for one body, sent with another: refused at step 6.
    const token = await api.sandbox.signWebhookBody(Buffer.from('{"webhookId":"genuine"}'));
    const refused = await deliveredBy(api, () =>
      fetch(receiverUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"attacker":"body"}',
      }),
    );
    assert.equal(refused.status, 403);
    await vscode.commands.executeCommand('wfs.openWebhookPanel', refused.id);
    const buttons = await inWebview<string[]>(
      '#spacer',
      `[...document.querySelectorAll('#detail .actions button')].map((b) => b.textContent)`,
      `document.getElementById('detail').textContent.includes('body_sha256 does not match')`,
    );
    assert.deepEqual(buttons, ['Copy as curl', 'Copy as PowerShell', 'Copy as curl for cmd.exe', 'Export…']);
    await vscode.commands.executeCommand('notifications.clearAll');
    const count = api.receiver.deliveries.all().length;
    assert.equal(await api.webhookPanel.runAction('replay-local', refused.id), undefined);
    await notificationsInCenter(
      /^Replay to Receiver: This delivery was refused, so it is not replayed with a fresh signature/,
      1,
    );
    assert.equal(api.receiver.deliveries.all().length, count, 'nothing was sent');
    await vscode.commands.executeCommand('notifications.hideList');
  });

  it('a test webhook whose testData carries no ids shows its header topic marked unsigned', async () => {
    const r = await deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'orders/unsigned',
        subTopic: 'event:orders/unsigned',
        tenantId: 't-unsigned',
        testData: { plain: true },
        address: receiverUrl,
      }),
    );
    assert.equal(r.verified, true);
    assert.deepEqual([r.topic, r.unsigned?.topic], [undefined, 'orders/unsigned']);
    await vscode.commands.executeCommand('wfs.openWebhookPanel', r.id);
    const dom = await webhookPanelDom(`document.querySelectorAll('#detail .check').length === 7`);
    assert.match(
      dom.detailText,
      /orders\/unsigned \(unsigned: from a header, outside the signature; decides nothing\)/,
    );
  });

  it('copy as curl carries the body and never the token', async () => {
    const tenant = `tenant-curl-${Date.now()}`;
    const original = await verifiedOwn(tenant);
    const body = (await api.receiver.deliveries.body(original.id))!.toString('utf8');
    assert.ok(body.includes(tenant));
    const cmd = (await api.webhookPanel.runAction('copy-curl', original.id)) as string;
    assert.equal(await vscode.env.clipboard.readText(), cmd);
    // The body reaches curl on its standard input (--data-binary @-), never as an argument: run that part in a shell.
    assert.match(cmd, /--data-binary @-$/);
    assert.equal(execFileSync('sh', ['-c', cmd.split(' | curl')[0]!]).toString(), body, 'the exact body');
    assert.match(cmd, /\$WFS_WEBHOOK_TOKEN/);
    assert.ok(!cmd.includes('redacted'));
    assert.ok(!cmd.includes('Bearer ey'), 'no token of the original delivery');
  });

  it('an action on a delivery no longer in the history says so, instead of failing on it', async () => {
    const gone = await verifiedOwn('stale');
    await api.receiver.clearHistory();
    await vscode.commands.executeCommand('notifications.clearAll');
    const actions = ['replay-local', 'copy-curl', 'export-one', 'jump'] as const;
    for (const action of actions) assert.equal(await api.webhookPanel.runAction(action, gone.id), undefined, action);
    // What the user reads: one error per action, each saying why.
    const shown = await notificationsInCenter(/^[\w ]+: That delivery is no longer in the history\.$/, actions.length);
    assert.deepEqual(
      shown.map((m) => m.split(':')[0]).sort(),
      ['Copy as curl', 'Export', 'Go to Workflow', 'Replay to Receiver'],
      'titled as the buttons read',
    );
    await vscode.commands.executeCommand('notifications.hideList');
  });

  it("a workflow's webhook events appear under it in the tree, and the panel jumps to it", async () => {
    const info = api.sandbox.info!;
    await vscode.commands.executeCommand('wfs.explorer.focus');
    const w = (await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: info.sessions.staged,
      product: info.products[0],
      correlationId: `panel-${Date.now()}`,
    })) as TrackedWorkflow;
    await until(
      api.receiver.onDidReceive,
      () => api.receiver.deliveries.all().some((r) => r.runId === w.runId && r.verified),
      'the workflow event',
    );
    const node = { kind: 'workflow' as const, env: envValue(api, 'Sandbox'), workflowId: w.workflowId };
    const children = await api.explorer.getChildren(node);
    assert.ok(children.length >= 1);
    assert.equal(children[0]!.kind, 'delivery');
    const delivery = api.receiver.deliveries.all().find((r) => r.runId === w.runId)!;
    assert.equal(await api.webhookPanel.runAction('jump', delivery.id), w.workflowId);
  });

  it('exports one delivery and the whole history as JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-export-'));
    const one = await verifiedOwn('export');
    const file1 = vscode.Uri.file(join(dir, 'one.json'));
    assert.equal(await api.webhookPanel.runAction('export-one', one.id, file1), file1.fsPath);
    const exported = JSON.parse(readFileSync(file1.fsPath, 'utf8'));
    assert.deepEqual(
      exported.deliveries.map((d: DeliveryRecord) => d.id),
      [one.id],
    );
    assert.deepEqual(
      Buffer.from(exported.deliveries[0].bodyBase64, 'base64'),
      await api.receiver.deliveries.body(one.id),
      'with its body bytes',
    );
    const file2 = vscode.Uri.file(join(dir, 'all.json'));
    await api.webhookPanel.runAction('export-all', undefined, file2);
    assert.equal(JSON.parse(readFileSync(file2.fsPath, 'utf8')).count, api.receiver.deliveries.size);
    // Written one delivery at a time to a new file, then renamed: nothing half-written is left beside them.
    assert.deepEqual(readdirSync(dir).sort(), ['all.json', 'one.json']);
    // A folder that is not there: the export fails (said in an error message), and leaves nothing.
    assert.equal(
      await api.webhookPanel.runAction('export-all', undefined, vscode.Uri.file(join(dir, 'missing', 'all.json'))),
      undefined,
    );
    assert.deepEqual(readdirSync(dir).sort(), ['all.json', 'one.json']);
  });

  it('an export is readable by its owner only (0600), like the history file, whatever the umask and over an existing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-export-'));
    const one = await verifiedOwn('export-mode');
    const made = join(dir, 'one.json');
    const over = join(dir, 'over.json');
    writeFileSync(over, '{}');
    chmodSync(over, 0o644);
    const umask = process.umask(0o022);
    try {
      assert.equal(await api.webhookPanel.runAction('export-one', one.id, vscode.Uri.file(made)), made);
      assert.equal(await api.webhookPanel.runAction('export-all', undefined, vscode.Uri.file(over)), over);
    } finally {
      process.umask(umask);
    }
    assert.equal(statSync(made).mode & 0o777, 0o600);
    assert.equal(statSync(over).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(over, 'utf8')).count, api.receiver.deliveries.size);
  });

  it('an export to a symbolic link (dangling, or to a file that exists) is refused: the target is neither created nor changed (#74)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-export-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'wfs-elsewhere-'));
    const one = await verifiedOwn('export-link');
    const planted = join(elsewhere, 'planted.json');
    const victim = join(elsewhere, 'victim.json');
    writeFileSync(victim, 'precious');
    symlinkSync(planted, join(dir, 'dangling.json'));
    symlinkSync(victim, join(dir, 'existing.json'));
    await vscode.commands.executeCommand('notifications.clearAll');
    for (const name of ['dangling.json', 'existing.json']) {
      const to = vscode.Uri.file(join(dir, name));
      assert.equal(await api.webhookPanel.runAction('export-one', one.id, to), undefined, name);
      assert.equal(await api.webhookPanel.runAction('export-all', undefined, to), undefined, name);
      assert.ok(lstatSync(to.fsPath).isSymbolicLink());
    }
    assert.equal(existsSync(planted), false);
    assert.equal(readFileSync(victim, 'utf8'), 'precious');
    assert.deepEqual(readdirSync(dir).sort(), ['dangling.json', 'existing.json'], 'no temporary file left behind');
    const said = await notificationsInCenter(
      /dangling\.json is a symbolic link, and a file is never written through one/,
      1,
    );
    assert.ok(
      said.every((t) => !t.includes(elsewhere)),
      said.join('\n'),
    );
    await vscode.commands.executeCommand('notifications.hideList');
  });

  it("the palette: Clear Webhook History… asks first (unanswered, it clears nothing), Export Webhook History… saves it all; once cleared, the views and an open panel redraw, and both commands and the panel's Export All say there is nothing", async () => {
    await verifiedOwn('palette');
    const n = api.receiver.deliveries.size;
    // A test host refuses to show a modal (the command fails with that), where a user would answer Cancel: either
    // way the history stays.
    const asked = await Promise.resolve(vscode.commands.executeCommand('wfs.clearWebhookHistory')).then(
      String,
      (err: Error) => err.message,
    );
    assert.match(
      asked,
      /^(false|DialogService: refused to show dialog in tests\. Contents: Clear all \d+ deliveries from the history\?)$/,
    );
    assert.equal(api.receiver.deliveries.size, n, 'nothing cleared without the Clear button');
    const to = vscode.Uri.file(join(mkdtempSync(join(tmpdir(), 'wfs-export-')), 'all.json'));
    assert.equal(await vscode.commands.executeCommand('wfs.exportWebhookHistory', to), to.fsPath);
    assert.equal(JSON.parse(readFileSync(to.fsPath, 'utf8')).count, n);
    // Cleared as the confirmed modal clears it: the Webhook Receiver view, the explorer (whose workflows list their
    // deliveries) and an open panel are told to redraw, so none goes on showing deliveries that are gone.
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    await webhookPanelDom(`document.getElementById('summary').textContent.endsWith(' of ${n}')`);
    const redrawn = new Set<string>();
    const subscriptions = [
      api.receiverTree.onDidChangeTreeData(() => redrawn.add('receiver view')),
      api.explorer.onDidChangeTreeData(() => redrawn.add('explorer')),
    ];
    await api.receiver.clearHistory();
    subscriptions.forEach((d) => d.dispose());
    assert.deepEqual([...redrawn].sort(), ['explorer', 'receiver view']);
    assert.deepEqual(api.receiverTree.getChildren({ kind: 'deliveries' }), []);
    await webhookPanelDom(`document.getElementById('summary').textContent === '0 shown of 0'`);
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.equal(await vscode.commands.executeCommand('wfs.clearWebhookHistory'), false);
    assert.equal(await vscode.commands.executeCommand('wfs.exportWebhookHistory', to), undefined);
    const said = await notificationsInCenter(/^The webhook history is empty: nothing to (clear|export)\.$/, 2);
    assert.deepEqual([...new Set(said)].sort(), [
      'The webhook history is empty: nothing to clear.',
      'The webhook history is empty: nothing to export.',
    ]);
    // The panel's own Export All button, clicked as a user would, says the same (it used to offer to save an empty
    // file).
    await vscode.commands.executeCommand('notifications.clearAll');
    await inWebview('#export-all', `(document.getElementById('export-all').click(), true)`);
    assert.deepEqual(await notificationsInCenter(/^(The webhook history is empty|Export All)/, 1), [
      'The webhook history is empty: nothing to export.',
    ]);
  });

  it('forwards verified deliveries to the developer app, shows its answer, and replays to it with a fresh token', async () => {
    const app = new RecordingServer();
    app.respond = () => 202;
    const appUrl = await app.start();
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.forwardTo', appUrl);
    try {
      receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      const r = await deliveredBy(api, () =>
        vscode.commands.executeCommand('wfs.sendTestWebhook', {
          topic: 'workflow/completed',
          subTopic: 'event:workflow/completed',
          tenantId: 'fwd',
          testData: 'template',
          address: receiverUrl,
        }),
      );
      assert.equal(r.forwards?.[0]?.status, 202);
      assert.equal(r.status, 200, 'pass-through is off: the service is answered 200, whatever the app said');
      await vscode.commands.executeCommand('wfs.openWebhookPanel', r.id);
      const dom = await webhookPanelDom(`document.getElementById('detail').textContent.includes('forwarded to')`);
      assert.ok(
        dom.detailText.includes(`forwarded to${appUrl} → 202 in`),
        'the forward target, its answer and latency are shown',
      );
      const replay = (await api.webhookPanel.runAction('replay-forward', r.id)) as { status: number };
      assert.equal(replay.status, 202);
      assert.equal(app.requests.length, 2);
      const [first, second] = app.requests;
      assert.deepEqual(second!.body, first!.body, 'the same bytes');
      assert.notEqual(second!.headers.authorization, first!.headers.authorization, 'a fresh token');
    } finally {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.forwardTo', undefined);
      receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      await app.stop();
    }
  });

  it('Replay with New Id: after the app acknowledged a webhookId, a plain replay says it may be a duplicate and offers a new id, which reaches the handler', async () => {
    // The developer's app as the spec asks: it dedupes on the body's webhookId, and says whether it skipped one.
    const seen: string[] = [];
    const app = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { webhookId: string }).webhookId;
        const duplicate = seen.includes(id);
        seen.push(id);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, duplicate }));
      });
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.forwardTo', appUrl);
    const resultText = `document.getElementById('action-result-text').textContent`;
    const button = (label: string) =>
      `[...document.querySelectorAll('#detail .actions button')].find((b) => b.textContent === ${JSON.stringify(label)})`;
    try {
      receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      const r = await verifiedOwn('fresh-id');
      assert.equal(r.forwards?.[0]?.status, 200, 'the app acknowledged it');
      assert.deepEqual(seen, [r.webhookId]);
      await vscode.commands.executeCommand('wfs.openWebhookPanel', r.id);
      await webhookPanelDom(`!!${button('Replay to Forward Target')}`);

      // A plain replay, clicked as a user would: the app skips it, and the result says why and offers a new id.
      await inWebview('#detail', `(${button('Replay to Forward Target')}.click(), true)`);
      const plain = await inWebview<{ text: string; offered: boolean; live: string | null }>(
        '#action-result-text',
        `({ text: ${resultText}, offered: !document.getElementById('action-result-fresh').hidden, live: document.querySelector('.action-result').getAttribute('aria-live') })`,
        `${resultText}.includes('duplicate')`,
      );
      assert.deepEqual(seen, [r.webhookId, r.webhookId]);
      assert.equal(
        plain.text,
        `Replayed to ${appUrl}: 200. It answered: {"ok":true,"duplicate":true} Your app already answered 2xx for webhookId ${r.webhookId}: an app that dedupes on webhookId, as the spec asks, may have treated this replay as a duplicate and skipped its handler. To run the handler again, use Replay with New Id.`,
      );
      assert.equal(plain.offered, true, 'the result line offers Replay with New Id');
      assert.equal(plain.live, 'polite', 'said to a screen reader');

      // Replay with New Id: a button in the detail's toolbar, named by its text, in the Tab order; Enter on it clicks.
      const fresh = await inWebview<{ tag: string; tabIndex: number; disabled: boolean; focused: boolean }>(
        '#detail',
        `(() => { const b = ${button('Replay with New Id')}; b.focus(); const out = { tag: b.tagName, tabIndex: b.tabIndex, disabled: b.disabled, focused: document.activeElement === b }; b.click(); return out; })()`,
      );
      assert.deepEqual(fresh, { tag: 'BUTTON', tabIndex: 0, disabled: false, focused: true });
      const text = await inWebview<string>(
        '#action-result-text',
        resultText,
        `${resultText}.includes('new webhookId')`,
      );
      assert.equal(seen.length, 3);
      const newId = seen[2]!;
      assert.notEqual(newId, r.webhookId, 'the app saw a new id');
      assert.equal(
        text,
        `Replayed under the new webhookId ${newId} to ${appUrl}: 200. It answered: {"ok":true,"duplicate":false}`,
        "the app's answer: it ran its handler",
      );
      assert.equal(
        await inWebview<boolean>('#action-result-fresh', `document.getElementById('action-result-fresh').hidden`),
        true,
        'nothing more to offer',
      );
    } finally {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.forwardTo', undefined);
      receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      app.closeAllConnections();
      await new Promise<void>((r) => app.close(() => r()));
    }
  });

  it('replays count: forward 500, a replay answered 200, then the next replay says the app may take it for a duplicate', async () => {
    // The developer's app as the spec asks: it dedupes on webhookId, and forgets a failed one (the service resends).
    let broken = true;
    const seen = new Set<string>();
    const handled: string[] = [];
    const app = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { webhookId: string }).webhookId;
        const answer = (status: number, body: object) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (seen.has(id)) return answer(200, { ok: true, duplicate: true });
        handled.push(id);
        if (broken) return answer(500, { error: 'TypeError: boom' });
        seen.add(id);
        answer(200, { ok: true, duplicate: false });
      });
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.forwardTo', appUrl);
    const resultText = `document.getElementById('action-result-text').textContent`;
    try {
      receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      const r = await verifiedOwn('replays-count');
      assert.equal(r.forwards?.[0]?.status, 500, 'the forward failed');
      await vscode.commands.executeCommand('wfs.openWebhookPanel', r.id);
      const replay = () =>
        api.webhookPanel.runAction('replay-forward', r.id) as Promise<{ status: number; mayBeDuplicate: boolean }>;
      const failed = await replay();
      assert.deepEqual([failed.status, failed.mayBeDuplicate], [500, false], 'still failing: nothing acknowledged');
      broken = false; // the fix
      const fixed = await replay();
      assert.deepEqual([fixed.status, fixed.mayBeDuplicate], [200, false], 'the first 2xx for that webhookId');
      assert.deepEqual(handled, [r.webhookId, r.webhookId, r.webhookId], 'the handler ran each time');

      const third = await replay();
      assert.deepEqual([third.status, third.mayBeDuplicate], [200, true]);
      assert.equal(handled.length, 3, 'the app skipped it as a duplicate');
      // Waits for this replay's words (they name its webhookId): an earlier test's result may still be on the page,
      // and an app's answer may hold the word "duplicate" too.
      const text = await inWebview<string>(
        '#action-result-text',
        resultText,
        `${resultText}.includes(${JSON.stringify(`webhookId ${r.webhookId}`)})`,
      );
      assert.equal(
        text,
        `Replayed to ${appUrl}: 200. It answered: {"ok":true,"duplicate":true} Your app already answered 2xx for webhookId ${r.webhookId}: an app that dedupes on webhookId, as the spec asks, may have treated this replay as a duplicate and skipped its handler. To run the handler again, use Replay with New Id.`,
      );
      assert.equal(
        await inWebview<boolean>('#action-result-fresh', `document.getElementById('action-result-fresh').hidden`),
        false,
        'and offers Replay with New Id',
      );
    } finally {
      await vscode.commands.executeCommand('wfs.stopReceiver');
      await setSetting('receiver.forwardTo', undefined);
      receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
      app.closeAllConnections();
      await new Promise<void>((r) => app.close(() => r()));
    }
  });

  it('the response override answers verified deliveries with the chosen status', async () => {
    api.receiver.setResponseOverride(202);
    try {
      const r = await deliveredBy(api, () =>
        vscode.commands.executeCommand('wfs.sendTestWebhook', {
          topic: 'workflow/completed',
          subTopic: 'event:workflow/completed',
          tenantId: 't',
          testData: 'template',
          address: receiverUrl,
        }),
      );
      assert.equal(r.status, 202);
    } finally {
      api.receiver.setResponseOverride(undefined);
    }
  });

  it('says whether the receiver runs and where; stopped, it says so and its Start Receiver button starts it', async () => {
    const kept = await verifiedOwn('receiver-line');
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    const line = `document.getElementById('receiver-text').textContent`;
    const button = `document.getElementById('receiver-start')`;
    const read = (until: string) =>
      inWebview<{ text: string; buttonShown: boolean }>(
        '#receiver-text',
        `({ text: ${line}, buttonShown: !${button}.hidden })`,
        until,
      );
    const running = await read(`${line}.startsWith('Receiving at ')`);
    assert.equal(running.text.split(' · ')[0], `Receiving at ${api.receiver.info!.localUrl}`);
    assert.equal(running.buttonShown, false);

    await vscode.commands.executeCommand('wfs.stopReceiver');
    const stopped = await read(`${line}.startsWith('The receiver is stopped')`);
    assert.deepEqual(stopped, {
      text: 'The receiver is stopped: nothing is received until it starts. The history below is kept.',
      buttonShown: true,
    });

    // Replay needs the receiver: its error says so and offers to start it.
    await vscode.commands.executeCommand('notifications.clearAll');
    await api.webhookPanel.runAction('replay-local', kept.id);
    const needs = /^Replay to Receiver: The receiver is not running: start it, then replay\.$/;
    await notificationsInCenter(needs, 1);
    assert.deepEqual(await notificationButtons(needs), ['Start Receiver']);
    await vscode.commands.executeCommand('notifications.clearAll');

    // Clicked as a user would: the receiver starts, and the line follows.
    await inWebview('#receiver-start', `(${button}.click(), true)`);
    await until(api.receiver.onDidChange, () => api.receiver.info !== undefined, 'the receiver started from the panel');
    receiverUrl = api.receiver.info!.localUrl;
    const again = await read(`${line}.startsWith('Receiving at ')`);
    assert.equal(again.text.split(' · ')[0], `Receiving at ${receiverUrl}`);
    assert.equal(again.buttonShown, false);
  });
});
