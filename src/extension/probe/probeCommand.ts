// "Check Environment Against the Contract…": runs the probe against a configured environment (waiting for
// workspace trust for a real one, as sign-in does) and shows the report in a webview with Export.
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';
import { joinUrl, testEndpointIsLocal } from '../../core/http';
import { MAX_KEY_SETS, probeMarkdown, type ProbeReport, runProbe, summaryLine, WebhookCapture } from '../../core/probe';
import { DEFAULT_FIND_WORKFLOWS_PATH } from '../../core/workflows';
import { showError } from '../errors/showError';
import { newNonce } from '../panel/panelHtml';
import type { Services } from '../services';
import { restrictedModeRefusal } from '../trust/restrictedMode';
import { writeUriSafely } from '../writeUriSafely';
import { probeHtml } from './probeHtml';
import { COMMANDS, INTERNAL_COMMANDS } from '../commandIds';

interface ProbeArgs {
  environment?: string;
  username?: string;
  password?: string;
  includeRefusal?: boolean;
}

/** The sandbox is on this machine: a short spacing keeps the check quick. A real service gets a second. */
const SANDBOX_SPACING_MS = 200;

class ProbePanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  last?: ProbeReport;

  constructor(private readonly s: Services) {}

  async run(args: ProbeArgs = {}): Promise<ProbeReport | undefined> {
    const name = args.environment ?? this.s.environments.currentName;
    // The probe signs in: a real environment waits for trust exactly as a sign-in does.
    const refusal = restrictedModeRefusal('sign-in', name, vscode.workspace.isTrusted);
    if (refusal) {
      void vscode.window
        .showWarningMessage(refusal, 'Manage Workspace Trust')
        .then((a) => a && vscode.commands.executeCommand('workbench.trust.manage'));
      return undefined;
    }
    if (name === SANDBOX_ENVIRONMENT && !this.s.sandbox.info && !(await this.s.sandbox.startWithUi())) return undefined;
    const env = this.s.environments.get(name);
    if (!env) {
      void vscode.window.showErrorMessage(`There is no environment "${name}": add it to the wfs.environments setting.`);
      return undefined;
    }
    const sandboxInfo = env.builtIn ? this.s.sandbox.info : undefined;
    const username =
      args.username ??
      (await vscode.window.showInputBox({
        title: `Check ${name} against the contract (1/3)`,
        prompt: 'Username (the probe signs in with it; nothing is stored)',
        value: sandboxInfo?.username ?? this.s.auth.peek(env)?.current?.username,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'A username is required'),
      }));
    if (!username) return undefined;
    const password =
      args.password ??
      (await vscode.window.showInputBox({
        title: `Check ${name} against the contract (2/3)`,
        prompt: sandboxInfo
          ? `Password (the sandbox password is "${sandboxInfo.password}")`
          : `Password for ${username}`,
        password: true,
        ignoreFocusOut: true,
      }));
    if (!password) return undefined;
    let includeRefusal = args.includeRefusal;
    if (includeRefusal === undefined && args.username === undefined) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'No wrong password', include: false },
          {
            label: 'Also sign in once with a wrong password',
            detail:
              'Shows the shape of a refused sign-in. Refused credentials weigh on the throttle: do not repeat it.',
            include: true,
          },
        ],
        { title: `Check ${name} against the contract (3/3)` },
      );
      if (!pick) return undefined;
      includeRefusal = pick.include;
    }
    // The built-in sandbox sends its test webhook to loopback: the probe receives it itself. A real service needs a
    // public address: the CLI's --webhook-address does that.
    const capture = env.builtIn ? new WebhookCapture() : undefined;
    try {
      const port = await capture?.listen(0);
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Checking ${name} against the contract…` },
        () =>
          runProbe(
            {
              baseUrl: env.baseUrl,
              testWebhookUrl: env.testWebhookUrl,
              credentials: { username: username.trim(), password, userAlias: env.userAlias },
              aliasPlacement: env.aliasPlacement,
              problemsBase: env.problemsBase,
              findWorkflowsUrl:
                env.findWorkflowsUrl ?? (env.builtIn ? joinUrl(env.baseUrl, DEFAULT_FIND_WORKFLOWS_PATH) : undefined),
              jwksUrls: env.trustedIssuers.map((t) => t.jwksUrl).slice(0, MAX_KEY_SETS),
              isLocalSandbox: testEndpointIsLocal(env.testWebhookUrl),
            },
            {
              clock: this.s.clock,
              spacingMs: env.builtIn ? SANDBOX_SPACING_MS : undefined,
              includeRefusal,
              webhook: capture && port ? { address: `http://127.0.0.1:${port}/probe-hook`, capture } : undefined,
            },
          ),
      );
      this.last = report;
      this.s.output.info(`Contract check of ${name}: ${summaryLine(report)}`);
      this.show(name, report);
      return report;
    } catch (err) {
      void showError(this.s.output, `Contract check of ${name}`, err);
      return undefined;
    } finally {
      await capture?.close();
    }
  }

  private show(name: string, report: ProbeReport): void {
    this.panel?.dispose();
    const panel = vscode.window.createWebviewPanel(
      'wfs.probeReport',
      `Contract Check: ${name}`,
      vscode.ViewColumn.Active,
      {
        enableScripts: true,
        localResourceRoots: [],
      },
    );
    this.panel = panel;
    panel.webview.onDidReceiveMessage((m: { type?: string; format?: string }) => {
      if (m?.type === 'export') void this.export(m.format === 'json' ? 'json' : 'md');
    });
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    panel.webview.html = probeHtml({
      cspSource: panel.webview.cspSource,
      nonce: newNonce(),
      report: { ...report, summary: summaryLine(report) },
    });
  }

  /** Writes the last report; asks where unless `target` is given. */
  async export(format: 'md' | 'json', target?: vscode.Uri): Promise<string | undefined> {
    const report = this.last;
    if (!report) return undefined;
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.joinPath(
          vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir()),
          `contract-check.${format}`,
        ),
        filters: format === 'md' ? { Markdown: ['md'] } : { JSON: ['json'] },
      }));
    if (!uri) return undefined;
    const text = format === 'md' ? probeMarkdown(report) : JSON.stringify(report, null, 2) + '\n';
    // The save dialog asked before replacing a file; a link at the path is refused, never written through.
    await writeUriSafely(uri, text, { existing: 'replace' });
    return uri.fsPath;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

export function registerProbeCommand(s: Services): vscode.Disposable[] {
  const panel = new ProbePanel(s);
  return [
    panel,
    vscode.commands.registerCommand(COMMANDS.probeService, (args?: ProbeArgs) =>
      panel.run(args && typeof args === 'object' ? args : {}),
    ),
    // Export without the dialog (the page's buttons use the dialog): for scripts and tests.
    vscode.commands.registerCommand(INTERNAL_COMMANDS.probeServiceExport, (format?: string, to?: vscode.Uri) =>
      panel.export(format === 'json' ? 'json' : 'md', to instanceof vscode.Uri ? to : undefined),
    ),
  ];
}
