// "Audit a Webhook Receiver…" in a real VS Code host: the extension's own receiver passes every case; a broken
// receiver's failure is shown with its fix; the scorecard exports as Markdown.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension/extension';
import type { AuditSummary } from '../../../src/core/audit/receiverAudit';
import { BrokenReceiver } from '../../unit/helpers/brokenReceiver';
import { extensionApi } from './helpers';

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
    assert.deepEqual(s.results.filter((r) => !r.passed).map((r) => r.id), []);
    const report = await api.auditPanel.report();
    assert.equal(report.cases.length, 30);
    assert.ok(report.cases.every((c) => c.ok));
  });

  it('a receiver that follows jku fails that case, with the fix shown; the scorecard exports as Markdown', async () => {
    const info = api.sandbox.info!;
    const broken = new BrokenReceiver('follows-jku', { issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl });
    const url = await broken.start();
    try {
      const s = (await vscode.commands.executeCommand('wfs.auditReceiver', { target: url })) as AuditSummary;
      assert.deepEqual(s.results.filter((r) => !r.passed).map((r) => r.id), ['jku-header']);
      const report = await api.auditPanel.report();
      const jku = report.cases.find((c) => c.id === 'jku-header')!;
      assert.equal(jku.ok, false);
      assert.match(jku.text, /Fix: Ignore jku/);
      assert.equal(report.injected, 0);
      const file = vscode.Uri.file(join(mkdtempSync(join(tmpdir(), 'wfs-audit-')), 'audit.md'));
      assert.equal(await api.auditPanel.export('md', file), file.fsPath);
      assert.match(readFileSync(file.fsPath, 'utf8'), /^# Webhook receiver audit: 29\/30 passed/);
      assert.match((await api.auditPanel.copyCurl('jku-header'))!, /^curl -sS -i -X POST/);
    } finally {
      await broken.stop();
    }
  });

  it('a non-loopback target is not audited unless the modal is confirmed', async () => {
    // Nobody answers the modal in a test host (it is dismissed), so nothing may be sent.
    const before = api.auditPanel.summary;
    const result = await vscode.commands.executeCommand('wfs.auditReceiver', { target: 'http://192.0.2.10/webhooks' });
    assert.equal(result, undefined);
    assert.equal(api.auditPanel.summary, before, 'no audit ran');
  });
});
