// "Check Environment Against the Contract…" in a real VS Code host, against the built-in sandbox: every row reads as
// the spec says or as the sandbox's own choice, the report is read from its webview as a user sees it, it exports
// as Markdown, and wfs.sandbox.profile makes the sandbox imitate a profile's refusal.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ProbeReport } from '../../../src/core/probe/probeTypes';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { extensionApi, setSetting, until } from './helpers';
import { inWebview } from './webviewDom';

interface ReportDom {
  rows: { id: string | null; cls: string; text: string }[];
  summary: string;
  injected: number;
}

const REPORT_DOM = `(() => ({
  rows: [...document.querySelectorAll('#probe-rows tr')].map((r) => ({ id: r.getAttribute('data-id'), cls: r.className, text: r.textContent })),
  summary: document.getElementById('summary').textContent,
  injected: document.querySelectorAll('#probe-rows script, #probe-rows img, #probe-rows iframe, [onerror]').length,
}))()`;

/** The contract check of the built-in sandbox as its demo user, the sign-in refusal included. */
async function probeSandbox(): Promise<ProbeReport> {
  return (await vscode.commands.executeCommand('wfs.probeService', {
    environment: 'Sandbox',
    username: 'demo',
    password: 'demo-password',
    includeRefusal: true,
  })) as ProbeReport;
}

/** The report's rows and summary as its webview shows them, read once `ready` (run in the webview) holds. */
const reportDom = (ready: string): Promise<ReportDom> => inWebview<ReportDom>('#probe-rows', REPORT_DOM, ready);

/** The row with this id, from the report or from its webview. */
function row<R extends { id: string | null }>(rows: R[], id: string): R {
  const found = rows.find((r) => r.id === id);
  if (!found) throw new Error(`no row ${id} among ${rows.map((r) => r.id).join(', ')}`);
  return found;
}

/** A sandbox profile (the file wfs.sandbox.profile names) in `dir`, with these parts. */
function profileFile(dir: string, parts: object): string {
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify({ format: 'wfs-sandbox-profile', version: 1, ...parts }));
  return file;
}

describe('Check Environment Against the Contract in a real VS Code host', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-probe-host-'));
  before(async () => {
    await extensionApi();
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.startSandbox');
  });
  after(async () => {
    await setSetting('sandbox.profile', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it("probes the sandbox: every row as the spec says or the sandbox's own choice, shown in the report and exported", async () => {
    const report = await probeSandbox();
    assert.equal(report.outcome.ended, 'complete');
    assert.deepEqual([report.counts.differs, report.counts['not-probed']], [0, 0]);
    for (const r of report.rows)
      assert.ok(r.verdict === 'as-spec' || (r.verdict === 'silent' && r.matchesSandbox), `${r.id}: ${r.verdictText}`);
    const dom = await reportDom(`document.querySelectorAll('#probe-rows tr').length === 20`);
    assert.equal(dom.rows.length, 20);
    assert.match(
      dom.summary,
      /^Nothing differs from the spec\. 11 as the spec says, 9 where the spec is silent \(9 as the sandbox does\)/,
    );
    const refusal = row(dom.rows, 'sign-in-refusal');
    assert.match(refusal.cls, /\bsilent\b/);
    assert.match(refusal.text, /the spec is silent: the service chose 401 · application\/problem\+json · problem/);
    assert.ok(dom.rows.filter((r) => /\bas-spec\b/.test(r.cls)).every((r) => r.text.endsWith('as the spec says')));
    assert.equal(dom.injected, 0);
    assert.ok(!JSON.stringify(dom).includes('demo-password'), 'no password on screen');
    const file = vscode.Uri.file(join(dir, 'contract.md'));
    assert.equal(await vscode.commands.executeCommand('wfs.probeService.export', 'md', file), file.fsPath);
    const md = readFileSync(file.fsPath, 'utf8');
    assert.match(md, /^# Contract check of http:\/\/127\.0\.0\.1:\d+\n/);
    assert.ok(!md.includes('demo-password') && !/eyJ[\w-]+\.eyJ/.test(md));
  });

  it('saving the contract-check report to a symbolic link (dangling, or to a file that exists) is refused: the target is neither created nor changed (#74)', async () => {
    await probeSandbox();
    // The path is the save dialog's answer; the dialog asked before replacing, and still no link is written through.
    const links = mkdtempSync(join(tmpdir(), 'wfs-probe-link-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'wfs-elsewhere-'));
    const planted = join(elsewhere, 'planted.md');
    const victim = join(elsewhere, 'victim.md');
    writeFileSync(victim, 'precious');
    symlinkSync(planted, join(links, 'dangling.md'));
    symlinkSync(victim, join(links, 'existing.md'));
    for (const name of ['dangling.md', 'existing.md']) {
      const to = vscode.Uri.file(join(links, name));
      for (const format of ['md', 'json'])
        await assert.rejects(
          Promise.resolve(vscode.commands.executeCommand('wfs.probeService.export', format, to)),
          new RegExp(`${name.replace('.', '\\.')} is a symbolic link, and a file is never written through one`),
        );
      assert.ok(lstatSync(to.fsPath).isSymbolicLink(), name);
    }
    assert.equal(existsSync(planted), false);
    assert.equal(readFileSync(victim, 'utf8'), 'precious');
    assert.deepEqual(readdirSync(links).sort(), ['dangling.md', 'existing.md'], 'no temporary file left behind');
  });

  it("wfs.sandbox.profile: the restarted sandbox answers a wrong password in the profile's shape", async () => {
    const profile = profileFile(dir, {
      signInRefusal: {
        status: 400,
        contentType: 'application/json',
        bodyKind: 'json',
        fields: { error: 'string', error_description: 'string' },
        errorCode: 'invalid_grant',
      },
      refresh: { rotatesRefreshToken: true },
    });
    await setSetting('sandbox.profile', profile);
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await vscode.commands.executeCommand('wfs.startSandbox');
    const report = await probeSandbox();
    const refusal = row(report.rows, 'sign-in-refusal');
    assert.deepEqual(
      [refusal.service?.status, refusal.service?.errorCode, refusal.matchesSandbox],
      [400, 'invalid_grant', false],
    );
    // The divergence in the profile is not imitated: the refresh token is still reused.
    assert.equal(row(report.rows, 'refresh').verdict, 'as-spec');
    const dom = await reportDom(
      `[...document.querySelectorAll('#probe-rows tr')].some((r) => r.getAttribute('data-id') === 'sign-in-refusal' && r.textContent.includes('invalid_grant'))`,
    );
    assert.ok(dom.rows.some((r) => r.id === 'sign-in-refusal' && /error invalid_grant/.test(r.text)));
  });
});

// runOffline.mjs's untrusted window runs the suites named "Restricted Mode"; the trusted run skips this one.
describe('Restricted Mode: the contract check', function () {
  let recorder: RecordingServer;
  let recorderUrl: string;
  const dir = mkdtempSync(join(tmpdir(), 'wfs-probe-restricted-'));
  before(async function () {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    assert.equal(vscode.workspace.isTrusted, false, 'this window must open the folder untrusted');
    const api = await extensionApi();
    recorder = new RecordingServer();
    recorderUrl = await recorder.start();
    await setSetting('environments', [{ name: 'Probed', baseUrl: recorderUrl }]);
    await until(
      api.environments.onDidChange,
      () => api.environments.get('Probed')?.baseUrl === recorderUrl,
      'the setting',
    );
  });
  after(async () => {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return;
    await setSetting('environments', undefined);
    await setSetting('sandbox.profile', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await recorder.stop();
  });

  it('checking a real environment waits for trust: nothing is sent', async () => {
    const report = await vscode.commands.executeCommand('wfs.probeService', {
      environment: 'Probed',
      username: 'demo',
      password: 'demo-password',
      includeRefusal: false,
    });
    assert.equal(report, undefined);
    assert.equal(recorder.requests.length, 0, 'no password left the machine');
  });

  it('the sandbox can be checked, and wfs.sandbox.profile is ignored: it answers as itself', async () => {
    const profile = profileFile(dir, {
      signInRefusal: { status: 400, contentType: 'application/json', bodyKind: 'json', fields: { error: 'string' } },
    });
    await setSetting('sandbox.profile', profile);
    await vscode.commands.executeCommand('wfs.stopSandbox');
    const report = await probeSandbox();
    const refusal = row(report.rows, 'sign-in-refusal');
    assert.deepEqual([refusal.service?.status, refusal.matchesSandbox], [401, true]);
  });
});
