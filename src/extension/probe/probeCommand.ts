// "Check Environment Against the Contract…": runs the probe against a configured environment (waiting for
// workspace trust for a real one, as sign-in does) and shows the report in a webview with Export.
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { SANDBOX_ENVIRONMENT, type Environment } from '../../core/environments';
import { joinUrl, testEndpointIsLocal } from '../../core/http';
import {
  MAX_KEY_SETS,
  probeMarkdown,
  type ProbeReport,
  probeSummarySaid,
  runProbe,
  WebhookCapture,
} from '../../core/probe';
import { inUserWords } from '../coreWords';
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

interface SignInAnswers {
  username: string;
  password: string;
  includeRefusal?: boolean;
}

/** Whether to also sign in once with a wrong password; null when the question was dismissed. */
async function askWrongPassword(name: string): Promise<boolean | null> {
  const pick = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('No wrong password'), include: false },
      {
        label: vscode.l10n.t('Also sign in once with a wrong password'),
        detail: vscode.l10n.t(
          'Shows the shape of a refused sign-in. Refused credentials weigh on the throttle: do not repeat it.',
        ),
        include: true,
      },
    ],
    { title: vscode.l10n.t('Check {0} against the contract (3/3)', name) },
  );
  return pick ? pick.include : null;
}

/** The sandbox is on this machine: a short spacing keeps the check quick. A real service gets a second. */
const SANDBOX_SPACING_MS = 200;

class ProbePanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  last?: ProbeReport;

  constructor(private readonly s: Services) {}

  async run(args: ProbeArgs = {}): Promise<ProbeReport | undefined> {
    const name = args.environment ?? this.s.environments.currentName;
    const env = await this.environmentToCheck(name);
    if (!env) return undefined;
    const sign = await this.signInAnswers(name, env, args);
    if (!sign) return undefined;
    // The built-in sandbox sends its test webhook to loopback: the probe receives it itself. A real service needs a
    // public address: the CLI's --webhook-address does that.
    const capture = env.builtIn ? new WebhookCapture() : undefined;
    try {
      const port = await capture?.listen(0);
      const webhook = capture && port ? { address: `http://127.0.0.1:${port}/probe-hook`, capture } : undefined;
      const report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Checking {0} against the contract…', name),
        },
        () => this.probe(env, sign, webhook),
      );
      this.last = report;
      this.s.output.info(vscode.l10n.t('Contract check of {0}: {1}', name, inUserWords(probeSummarySaid(report))));
      this.show(name, report);
      return report;
    } catch (err) {
      void showError(this.s.output, vscode.l10n.t('Contract check of {0}', name), err);
      return undefined;
    } finally {
      await capture?.close();
    }
  }

  /** The environment named, once it may be checked: a real one waits for trust (the probe signs in, as a sign-in
   * does), the Sandbox is started first. Undefined when it may not, or does not exist (said). */
  private async environmentToCheck(name: string): Promise<Environment | undefined> {
    const refusal = restrictedModeRefusal('sign-in', name, vscode.workspace.isTrusted);
    if (refusal) {
      void vscode.window
        .showWarningMessage(refusal, vscode.l10n.t('Manage Workspace Trust'))
        .then((a) => a && vscode.commands.executeCommand('workbench.trust.manage'));
      return undefined;
    }
    if (name === SANDBOX_ENVIRONMENT && !this.s.sandbox.info && !(await this.s.sandbox.startWithUi())) return undefined;
    const env = this.s.environments.get(name);
    if (!env)
      void vscode.window.showErrorMessage(
        vscode.l10n.t('There is no environment "{0}": add it to the wfs.environments setting.', name),
      );
    return env;
  }

  /** The username, password and whether to try a wrong password: given, or asked (nothing is stored). */
  private async signInAnswers(name: string, env: Environment, args: ProbeArgs): Promise<SignInAnswers | undefined> {
    const sandboxInfo = env.builtIn ? this.s.sandbox.info : undefined;
    const username =
      args.username ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Check {0} against the contract (1/3)', name),
        prompt: vscode.l10n.t('Username (the probe signs in with it; nothing is stored)'),
        value: sandboxInfo?.username ?? this.s.auth.peek(env)?.current?.username,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A username is required')),
      }));
    if (!username) return undefined;
    const password =
      args.password ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Check {0} against the contract (2/3)', name),
        prompt: sandboxInfo
          ? vscode.l10n.t('Password (the sandbox password is "{0}")', sandboxInfo.password)
          : vscode.l10n.t('Password for {0}', username),
        password: true,
        ignoreFocusOut: true,
      }));
    if (!password) return undefined;
    const includeRefusal =
      args.includeRefusal ?? (args.username === undefined ? await askWrongPassword(name) : undefined);
    if (includeRefusal === null) return undefined;
    return { username, password, includeRefusal };
  }

  private probe(
    env: Environment,
    sign: SignInAnswers,
    webhook: { address: string; capture: WebhookCapture } | undefined,
  ): Promise<ProbeReport> {
    return runProbe(
      {
        baseUrl: env.baseUrl,
        testWebhookUrl: env.testWebhookUrl,
        credentials: { username: sign.username.trim(), password: sign.password, userAlias: env.userAlias },
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
        includeRefusal: sign.includeRefusal,
        webhook,
      },
    );
  }

  private show(name: string, report: ProbeReport): void {
    this.panel?.dispose();
    const panel = vscode.window.createWebviewPanel(
      'wfs.probeReport',
      vscode.l10n.t('Contract Check: {0}', name),
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
      report: { ...report, summary: inUserWords(probeSummarySaid(report)) },
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
