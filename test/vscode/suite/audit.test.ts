// "Audit a Webhook Receiver…" in a real VS Code host: the extension's own receiver passes every case; a broken
// receiver's failure is shown with its fix; the scorecard exports as Markdown.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { AUDIT_CASES } from '../../../src/core/audit/auditCases';
import type { ExtensionApi } from '../hostExtension/extension';
import type { AuditSummary } from '../../../src/core/audit/receiverAudit';
import { BrokenReceiver } from '../../unit/helpers/brokenReceiver';
import { extensionApi } from './helpers';
import { auditPanelDom } from './webviewDom';

describe('receiver audit in a real VS Code host', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.startSandbox');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it("the extension's own receiver passes all 30 cases, and the scorecard shows them", async () => {
    const { localUrl } = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string };
    const s = (await vscode.commands.executeCommand('wfs.auditReceiver', { target: localUrl })) as AuditSummary;
    assert.equal(s.total, 30);
    assert.deepEqual(
      s.results.filter((r) => !r.passed).map((r) => r.id),
      [],
    );
    const dom = await auditPanelDom(
      `document.querySelectorAll('.case').length === 30 && document.querySelectorAll('.case.ok').length === 30`,
    );
    assert.equal(dom.cases.length, 30);
    assert.ok(dom.cases.every((c) => c.ok));
  });

  it('a receiver that follows jku fails that case, with the fix shown; the scorecard exports as Markdown', async () => {
    const info = api.sandbox.info!;
    const broken = new BrokenReceiver('follows-jku', {
      issuer: info.issuer,
      audience: info.audience,
      jwksUrl: info.jwksUrl,
    });
    const url = await broken.start();
    try {
      const s = (await vscode.commands.executeCommand('wfs.auditReceiver', { target: url })) as AuditSummary;
      assert.deepEqual(
        s.results.filter((r) => !r.passed).map((r) => r.id),
        ['jku-header'],
      );
      const report = await auditPanelDom(
        `document.querySelectorAll('.case').length === 30 && document.querySelectorAll('.case.ok').length === 29`,
      );
      const jku = report.cases.find((c) => c.id === 'jku-header')!;
      assert.equal(jku.ok, false);
      assert.match(jku.text, /Fix: Ignore jku/);
      assert.equal(report.injected, 0);
      const file = vscode.Uri.file(join(mkdtempSync(join(tmpdir(), 'wfs-audit-')), 'audit.md'));
      assert.equal(await api.auditPanel.export('md', file), file.fsPath);
      assert.match(readFileSync(file.fsPath, 'utf8'), /^# Webhook receiver audit: 29\/30 passed/);
      assert.match((await api.auditPanel.copyCurl('jku-header'))!, /^printf %s .* \| curl -sS -i --globoff -X POST/);
    } finally {
      await broken.stop();
    }
  });

  it('saving the scorecard to a symbolic link (dangling, or to a file that exists) is refused: the target is neither created nor changed (#74)', async () => {
    const { localUrl } = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string };
    await vscode.commands.executeCommand('wfs.auditReceiver', { target: localUrl });
    const dir = mkdtempSync(join(tmpdir(), 'wfs-audit-link-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'wfs-elsewhere-'));
    const planted = join(elsewhere, 'planted.md');
    const victim = join(elsewhere, 'victim.md');
    writeFileSync(victim, 'precious');
    symlinkSync(planted, join(dir, 'dangling.md'));
    symlinkSync(victim, join(dir, 'existing.md'));
    // The path is the save dialog's answer; the dialog itself asked before replacing, so "replace" is what reaches
    // the writer, and still no link is written through.
    for (const name of ['dangling.md', 'existing.md']) {
      const to = vscode.Uri.file(join(dir, name));
      for (const format of ['md', 'json'] as const)
        await assert.rejects(
          api.auditPanel.export(format, to),
          new RegExp(`${name.replace('.', '\\.')} is a symbolic link, and a file is never written through one`),
        );
      assert.ok(lstatSync(to.fsPath).isSymbolicLink(), name);
    }
    assert.equal(existsSync(planted), false);
    assert.equal(readFileSync(victim, 'utf8'), 'precious');
    assert.deepEqual(readdirSync(dir).sort(), ['dangling.md', 'existing.md'], 'no temporary file left behind');
  });

  it('a non-loopback target is not audited unless the modal is confirmed', async () => {
    // Nobody answers the modal in a test host (it is dismissed), so nothing may be sent: the audit's panel, which
    // an audit brings to the front before its first delivery, stays behind the editor the user was in.
    const editor = await vscode.window.showTextDocument(
      await vscode.workspace.openTextDocument({ content: 'the user was here' }),
    );
    const result = await vscode.commands.executeCommand('wfs.auditReceiver', { target: 'http://192.0.2.10/webhooks' });
    assert.equal(result, undefined);
    assert.equal(vscode.window.activeTextEditor?.document, editor.document, 'no audit ran');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  describe("in VS Code's Testing view (a TestController)", () => {
    let server: Server;
    let target: string;
    let requests: string[];
    before(async () => {
      // A receiver that answers 200 to everything: it fails every case that must be refused.
      requests = [];
      server = createServer((req, res) => {
        requests.push(String(req.headers['x-svc-webhook-id'] ?? ''));
        req.resume();
        req.on('end', () => res.writeHead(200).end());
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    const leaves = () => {
      const out: vscode.TestItem[] = [];
      api.auditTests.controller.items.forEach((g) => g.children.forEach((t) => out.push(t)));
      return out;
    };
    const token = () => new vscode.CancellationTokenSource().token;

    it('one test item per case, grouped by the step of the rule it probes', () => {
      const groups: string[] = [];
      api.auditTests.controller.items.forEach((g) => groups.push(g.label));
      assert.ok(
        ['Step 1', 'Step 2', 'Step 3', 'Step 4', 'Step 5', 'Step 6', 'Step 7'].every((g) => groups.includes(g)),
        groups.join(', '),
      );
      assert.deepEqual(
        leaves()
          .map((t) => t.id)
          .sort(),
        AUDIT_CASES.map((c) => c.id).sort(),
      );
    });

    it('running one case sends the genuine delivery first (does the receiver trust the key at all?), then only it; its failure message is the fix', async () => {
      const item = leaves().find((t) => t.id === 'no-authorization')!;
      requests.length = 0;
      const outcomes = await api.auditTests.run(new vscode.TestRunRequest([item]), token(), target);
      assert.deepEqual(outcomes, [
        { id: 'no-authorization', passed: false, message: AUDIT_CASES.find((c) => c.id === 'no-authorization')!.fix },
      ]);
      assert.equal(requests.length, 2);
    });

    it('running a group runs its cases; re-running the failed ones sends only those', async () => {
      const step5 = api.auditTests.controller.items.get('group:Step 5')!;
      const outcomes = await api.auditTests.run(new vscode.TestRunRequest([step5]), token(), target);
      const inGroup: string[] = [];
      step5.children.forEach((t) => inGroup.push(t.id));
      assert.deepEqual(outcomes.map((o) => o.id).sort(), inGroup.sort());
      const failed = outcomes.filter((o) => !o.passed).map((o) => o.id);
      assert.ok(
        failed.length > 0 && failed.length < inGroup.length,
        `some fail, some pass: ${JSON.stringify(outcomes)}`,
      );
      requests.length = 0;
      const again = await api.auditTests.run(
        new vscode.TestRunRequest(leaves().filter((t) => failed.includes(t.id))),
        token(),
        target,
      );
      assert.deepEqual(again.map((o) => o.id).sort(), failed.slice().sort());
      assert.equal(requests.length, failed.length + 1, 'the failed ones, after the genuine delivery');
    });
  });
});
