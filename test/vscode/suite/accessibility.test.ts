// The webviews against WCAG 2.1 A/AA (axe-core), in the light, dark and both high-contrast themes, as a user sees
// them in a real VS Code: the webhook panel holding many deliveries, the audit scorecard, the contract report, and
// Compare with Original (VS Code's diff editor). No serious or critical violation is allowed; and where the
// keyboard lands (list, buttons, case summaries), an outline shows in every theme.
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { BrokenReceiver } from '../../unit/helpers/brokenReceiver';
import {
  type AxeScan,
  axeViolations,
  blocking,
  describeViolations,
  type FocusLook,
  focusLooks,
  outlineShows,
  THEMES,
  useTheme,
} from './axeScan';
import { deliveredBy, extensionApi, setSetting, signInToSandbox } from './helpers';
import { inWebview } from './webviewDom';

/** What a view showed in each theme: every violation (for the record), and the focus outlines read. */
interface ThemeRun extends AxeScan {
  theme: string;
  focus: FocusLook[];
}

/** Keeps the measurements where WFS_AXE_REPORT says (a JSON line per view and theme), for docs and reports. */
function record(view: string, run: ThemeRun): void {
  const file = process.env.WFS_AXE_REPORT;
  if (file) appendFileSync(file, JSON.stringify({ view, ...run }) + '\n');
}

/** Fails with every theme's serious or critical violations, and every focus that shows no outline. */
function assertAccessible(view: string, runs: ThemeRun[]): void {
  // A scan that checked nothing (a frame not found, a selector that matched nothing) proves nothing.
  assert.ok(
    runs.every((r) => r.rulesPassed > 0),
    `${view}: axe checked nothing`,
  );
  const problems = runs.flatMap((r) => {
    const bad = blocking(r.violations);
    const unseen = r.focus.filter((f) => !f.focused || !f.focusVisible || !outlineShows(f));
    return [
      ...(bad.length ? [`${r.theme}: ${describeViolations(bad)}`] : []),
      ...unseen.map((f) => `${r.theme}: focus on ${f.selector} shows no outline: ${JSON.stringify(f)}`),
    ];
  });
  assert.deepEqual(problems, [], `${view}:\n${problems.join('\n')}`);
}

/** Scans the view in each theme: `has` finds its frame, `scan` and `focus` read it once the theme shows there. */
async function eachTheme(
  view: string,
  has: string,
  scan: () => Promise<AxeScan>,
  focus: () => Promise<FocusLook[]> = () => Promise.resolve([]),
  inWorkbench = false,
): Promise<ThemeRun[]> {
  const runs: ThemeRun[] = [];
  for (const theme of THEMES) {
    await useTheme(theme, has, inWorkbench);
    const run = { theme: theme.id, ...(await scan()), focus: await focus() };
    record(view, run);
    runs.push(run);
  }
  return runs;
}

describe('accessibility of the webviews (axe-core, WCAG 2.1 A/AA) in light, dark and high-contrast themes', function () {
  this.timeout(240_000);
  let api: ExtensionApi;
  let receiverUrl: string;

  before(async () => {
    api = await extensionApi();
    await setSetting('sandbox.workflowDurationSeconds', 0);
    await signInToSandbox();
    receiverUrl = ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace
      .getConfiguration('workbench')
      .update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    await setSetting('sandbox.workflowDurationSeconds', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  const sendVerified = (tenantId: string) =>
    deliveredBy(api, () =>
      vscode.commands.executeCommand('wfs.sendTestWebhook', {
        topic: 'workflow/completed',
        subTopic: 'event:workflow/completed',
        tenantId,
        testData: 'template',
        address: receiverUrl,
      }),
    );

  it('the webhook panel holding many deliveries (2xx, 4xx, 5xx; one selected, its detail shown)', async () => {
    await api.receiver.clearHistory();
    // Refused (no token) deliveries fill the list; verified ones, one answered 500 by the override, mix in.
    for (let i = 0; i < 60; i++)
      await fetch(receiverUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await sendVerified('tenant-a11y');
    api.receiver.setResponseOverride(500);
    try {
      await sendVerified('tenant-a11y-500');
    } finally {
      api.receiver.setResponseOverride(undefined);
    }
    await sendVerified('tenant-a11y');
    await vscode.commands.executeCommand('wfs.openWebhookPanel');
    // A verified delivery selected, as a click does: its detail (checks, actions, body) is scanned too.
    await inWebview<boolean>(
      '#spacer',
      `(() => { document.querySelector('#spacer .row:not(.refused)').click(); return true; })()`,
      `document.querySelectorAll('#spacer .row').length > 20 && !!document.querySelector('#spacer .row:not(.refused)')`,
    );
    const detailShown = `document.querySelectorAll('#detail .check').length === 7`;
    const runs = await eachTheme(
      'webhook panel',
      '#spacer',
      () => axeViolations('#spacer', { until: detailShown }),
      () =>
        focusLooks('#spacer', ['#list', '#list ', '#pause', '#detail .actions button'], {
          '#list ': '#list .row.selected',
        }),
    );
    assertAccessible('webhook panel', runs);
  });

  it('the audit scorecard, a failed case opened with its fix', async () => {
    const info = api.sandbox.info!;
    const broken = new BrokenReceiver('follows-jku', {
      issuer: info.issuer,
      audience: info.audience,
      jwksUrl: info.jwksUrl,
    });
    const url = await broken.start();
    try {
      await vscode.commands.executeCommand('wfs.auditReceiver', { target: url });
      const done = `document.querySelectorAll('.case').length === 30`;
      await inWebview<boolean>(
        '#cases',
        `(() => { document.querySelector('.case.bad').open = true; return true; })()`,
        `${done} && !!document.querySelector('.case.bad')`,
      );
      const runs = await eachTheme(
        'audit scorecard',
        '#cases',
        () => axeViolations('#cases', { until: done }),
        () => focusLooks('#cases', ['#rerun', '.case.bad > summary', '.case.bad button']),
      );
      assertAccessible('audit scorecard', runs);
    } finally {
      await broken.stop();
    }
  });

  it('the contract report (Check Environment Against the Contract…)', async () => {
    await vscode.commands.executeCommand('wfs.probeService', {
      environment: 'Sandbox',
      username: 'demo',
      password: 'demo-password',
      includeRefusal: true,
    });
    const runs = await eachTheme(
      'contract report',
      '#probe-rows',
      () => axeViolations('#probe-rows', { until: `document.querySelectorAll('#probe-rows tr').length > 10` }),
      () => focusLooks('#probe-rows', ['#export-md']),
    );
    assertAccessible('contract report', runs);
  });

  it("Compare with Original: VS Code's diff editor of an edited delivery", async () => {
    const original = await sendVerified('tenant-a11y-compare');
    await api.webhookPanel.runAction('edit-resend', original.id);
    const editor = vscode.window.activeTextEditor!;
    const text = editor.document.getText();
    const at = editor.document.positionAt(text.indexOf('actor-test'));
    await editor.edit((e) => e.replace(new vscode.Range(at, at.translate(0, 'actor-test'.length)), 'actor-edited'));
    assert.equal(await vscode.commands.executeCommand('wfs.compareWithOriginal', editor.document.uri), true);
    const diff = '.editor-group-container.active .monaco-diff-editor';
    const runs = await eachTheme(
      'compare view',
      '.monaco-workbench',
      () =>
        axeViolations('.monaco-workbench', {
          include: diff,
          until: `!!document.querySelector(${JSON.stringify(diff)})`,
        }),
      undefined,
      true,
    );
    assertAccessible('compare view', runs);
  });
});
