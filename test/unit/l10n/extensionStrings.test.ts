// The extension's user-facing strings go through vscode.l10n.t, so the l10n bundle holds them and a language pack
// can translate them: a bare literal in a notification, a quick pick (title, placeholder, item label or detail), an
// input box, a progress title, a thrown error's message, an output channel line, or a tree or status bar item's
// label, description or tooltip fails here with its file and line.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findBareStrings } from './bareStrings';

const ROOT = join(__dirname, '../../../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('l10n: the extension shows no bare string', () => {
  it('every notification, quick pick, input box, progress, thrown error, output channel line and tree or status bar item text in src/extension is vscode.l10n.t', () => {
    const files = tsFiles(join(ROOT, 'src/extension'));
    assert.ok(files.length > 50, `${files.length} files read`);
    const bare = files.flatMap((f) => findBareStrings(relative(ROOT, f), readFileSync(f, 'utf8')));
    assert.deepEqual(
      bare.map((b) => `${b.file}:${b.line} ${b.where}: ${b.text}`),
      [],
      "wrap these in vscode.l10n.t('… {0} …', value)",
    );
  });

  it('the check finds each kind of bare string, and passes translated ones and variables', () => {
    const bad = `
      import * as vscode from 'vscode';
      vscode.window.showErrorMessage('Nothing was sent.');
      vscode.window.showWarningMessage(\`Sent to \${url}\`, 'Show Log');
      vscode.window.showInformationMessage('Saved ' + name);
      vscode.window.showQuickPick(items, { title: 'Pick one', placeHolder: ok ? 'Type a name' : x });
      vscode.window.showInputBox({ prompt: 'A name', title: vscode.l10n.t('Fine') });
      const qp = vscode.window.createQuickPick();
      qp.title = 'Start workflow';
      qp.placeholder = vscode.l10n.t('Fine');
      new vscode.TreeItem('(removed)');
      throw new Error(\`There is no environment "\${name}".\`);
      throw new SettingError(SETTINGS.receiverForward, 'must be a list');
      item.description = 'stopped';
      item.tooltip = new vscode.MarkdownString('**Session**');
      vscode.window.showQuickPick([{ label: 'None', detail: 'Loopback only', value: 1 }]);
      vscode.window.withProgress({ location, title: 'Starting the receiver…' }, run);
      this.s.output.warn(\`Webhook panel: ignored \${what}\`);
      deps.output[ok ? 'info' : 'warn']('Public address test: ok');
      log.appendLine('Receiver stopped');
      return { invocationMessage: \`Reading \${what}\`, confirmationMessages: { title: 'Send?', message: m } };
      vscode.window.setStatusBarMessage('Copied the delivery', 4000);
      void showError(output, \`Contract check of \${name}\`, err);
      vscode.window.showInputBox({ validateInput: (v) => (v ? undefined : 'A name is required') });
      new vscode.Diagnostic(range, 'the field is missing', vscode.DiagnosticSeverity.Error);
      run.failed(item, new vscode.TestMessage('expected 403'));
    `;
    const found = findBareStrings('bad.ts', bad).map((b) => `${b.line} ${b.where}`);
    assert.deepEqual(found, [
      '3 showErrorMessage',
      '4 showWarningMessage',
      '4 showWarningMessage',
      '5 showInformationMessage',
      '6 showQuickPick title',
      '6 showQuickPick placeHolder',
      '7 showInputBox prompt',
      '9 qp.title',
      '11 new TreeItem',
      '12 new Error',
      '13 new SettingError',
      '14 .description =',
      '15 new MarkdownString',
      '16 item label',
      '16 item detail',
      '17 withProgress title',
      '18 output warn',
      '19 output info',
      '20 output appendLine',
      '21 invocationMessage',
      '21 confirmationMessages title',
      '22 setStatusBarMessage',
      '23 showError operation',
      '24 validateInput',
      '25 new Diagnostic',
      '26 new TestMessage',
    ]);
    const good = `
      vscode.window.showErrorMessage(vscode.l10n.t('Nothing was sent to {0}.', url), vscode.l10n.t('Show Log'));
      vscode.window.showErrorMessage(err.message);
      vscode.window.showQuickPick(items, { title: title, placeHolder: '' });
      new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
      new vscode.TreeItem('$(check)');
      throw new Error(vscode.l10n.t('There is no environment "{0}".', name));
      throw new SettingError(SETTINGS.receiverForward, err.message);
      item.description = \`\${count}\`;
      item.tooltip = new vscode.MarkdownString(vscode.l10n.t('**Session**'));
      vscode.window.showQuickPick([{ label: vscode.l10n.t('None'), detail: info.url }]);
      this.s.output.warn(vscode.l10n.t('Webhook panel: ignored {0}', what));
      output.info(line);
      console.error('not the output channel');
    `;
    assert.deepEqual(findBareStrings('good.ts', good), []);
  });
});
