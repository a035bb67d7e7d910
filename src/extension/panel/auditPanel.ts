// "Audit a Webhook Receiver…": asks for the target (confirming anything not on loopback), runs the audit with
// the embedded sandbox as the signing issuer, and shows the scorecard in a webview styled like the panel.
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { isLoopbackHost } from '../../core/http';
import { waitsForTrustText } from '../trust/restrictedMode';
import {
  AUDIT_CASES,
  AUDIT_GENUINE_DELIVERY,
  type AuditCaseResult,
  auditCurl,
  auditJson,
  auditMarkdown,
  AuditRefused,
  auditResultWorded,
  type AuditSummary,
  auditWorded,
  checkTarget,
  matchAdviceSaid,
  refusalSaid,
  runAudit,
} from '../../core/audit';
import { errorInUserWords, inUserWords, userWording } from '../coreWords';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';
import { auditHtml } from './auditHtml';
import { parseAuditRequest, type AuditExportFormat, type AuditUpdate } from './auditProtocol';
import { newNonce } from './panelHtml';
import type { Services } from '../services';
import type { SandboxInfo } from '../../core/sandbox';
import { writeUriSafely } from '../writeUriSafely';

const LAST_TARGET = 'wfs.audit.lastTarget';

export interface AuditArgs {
  target?: string;
  /** The caller already confirmed a non-loopback target. */
  confirmedRemote?: boolean;
  /** Only these cases (VS Code's Testing view runs one, a group, or the failed ones). */
  caseIds?: string[];
  /** Each case's result as it comes. */
  onResult?: (r: AuditCaseResult) => void;
  cancellation?: vscode.CancellationToken;
}

export class AuditPanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private last?: AuditSummary;
  /** The editor's words on the last run's trust mismatch, if it stopped at one. */
  private lastAdvice?: string;
  private lastArgs?: AuditArgs;
  private ready?: Promise<void>;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly s: Services,
  ) {}

  async run(args: AuditArgs = {}): Promise<AuditSummary | undefined> {
    const target = args.target || (await this.askTarget());
    if (!target) return undefined;
    const confirmed = await this.maySend(target, args.confirmedRemote === true);
    if (confirmed === undefined) return undefined;
    await this.s.state.update(LAST_TARGET, target);
    const sandbox = this.s.sandbox.info ?? (await this.s.sandbox.startWithUi());
    if (!sandbox) return undefined;
    this.lastArgs = { target, confirmedRemote: confirmed };
    await this.show();
    this.post({ type: 'running', target });
    // This window's own receiver trusts each token the audit sends, once, on any environment (as it trusts what the
    // editor signs): its verdicts are its verification's, not the environment's trust.
    const { beforeSend, done } = this.s.signing.forAudit(target);
    try {
      const summary = await this.audit({ target, sandbox, confirmed, beforeSend }, args);
      this.report(target, summary);
      return summary;
    } catch (err) {
      const message =
        err instanceof AuditRefused
          ? errorInUserWords(err)
          : vscode.l10n.t('The audit could not run: {0}', errorInUserWords(err));
      this.post({ type: 'error', message });
      void vscode.window.showErrorMessage(message, vscode.l10n.t('Show Log')).then((a) => a && this.s.output.show());
      return undefined;
    } finally {
      done();
    }
  }

  /** The receiver's URL, asked for (the last one offered); undefined when dismissed. */
  private askTarget(): Thenable<string | undefined> {
    return vscode.window.showInputBox({
      title: vscode.l10n.t('Audit a webhook receiver'),
      prompt: vscode.l10n.t(
        'The URL of your receiver. It must trust the sandbox issuer (shown with the results); the audit sends it forged deliveries.',
      ),
      value: this.s.state.get<string>(LAST_TARGET) ?? 'http://localhost:3000/webhooks',
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          checkTarget(v, true);
          return undefined;
        } catch (err) {
          return errorInUserWords(err);
        }
      },
    });
  }

  /** Whether forged deliveries may go to the target: true when it is off this machine and confirmed (here or by the
   * caller), false on loopback, undefined when they may not (said). */
  private async maySend(target: string, confirmedRemote: boolean): Promise<boolean | undefined> {
    try {
      const url = checkTarget(target, true);
      if (isLoopbackHost(url.hostname)) return confirmedRemote;
      // Off this machine, in Restricted Mode: nothing is sent, whatever a workspace or an argument says.
      if (!vscode.workspace.isTrusted) {
        void vscode.window
          .showWarningMessage(
            waitsForTrustText(vscode.l10n.t('Auditing {0}, off this machine,', url.host)),
            vscode.l10n.t('Manage Workspace Trust'),
          )
          .then((a) => a && vscode.commands.executeCommand('workbench.trust.manage'));
        return undefined;
      }
      if (confirmedRemote) return true;
      const ok = await vscode.window.showWarningMessage(
        vscode.l10n.t('Send forged webhook deliveries to {0}?', url.host),
        {
          modal: true,
          detail: vscode.l10n.t(
            'The audit sends {0} deliveries, most of them forged (bad signatures, wrong audiences, tampered bodies). Only do this to a receiver you own.',
            AUDIT_CASES.length,
          ),
        },
        vscode.l10n.t('Send Forged Deliveries'),
      );
      return ok === vscode.l10n.t('Send Forged Deliveries') ? true : undefined;
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Receiver audit: {0}', errorInUserWords(err)));
      return undefined;
    }
  }

  /** Runs the audit's cases (those asked for) under a progress notification, each result told as it comes. */
  private audit(
    run: {
      target: string;
      sandbox: SandboxInfo;
      confirmed: boolean;
      beforeSend?: (authorization: string | undefined) => void;
    },
    args: AuditArgs,
  ): Thenable<AuditSummary> {
    // The duplicate case repeats the genuine delivery: asked for alone, it brings the genuine one along.
    const wanted = args.caseIds
      ? new Set(args.caseIds.includes('duplicate') ? [...args.caseIds, 'genuine'] : args.caseIds)
      : undefined;
    const cases = wanted ? AUDIT_CASES.filter((c) => wanted.has(c.id)) : AUDIT_CASES;
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Auditing {0}…', run.target),
        cancellable: false,
      },
      (progress) =>
        runAudit({
          target: run.target,
          sandboxUrl: run.sandbox.baseUrl,
          sandboxSecret: run.sandbox.controlSecret,
          beforeSend: run.beforeSend,
          clock: this.s.clock,
          allowNonLocal: run.confirmed,
          cases,
          shouldStop: () => args.cancellation?.isCancellationRequested === true,
          onResult: (r) => {
            progress.report({ message: auditResultWorded(r, userWording).title, increment: 100 / cases.length });
            args.onResult?.(r);
          },
        }),
    );
  }

  /** The summary kept (a reopened panel shows it), logged with a trust mismatch's advice, and shown. */
  private report(target: string, summary: AuditSummary): void {
    this.last = summary;
    this.lastAdvice = summary.trustMismatch ? this.trustAdvice(summary) : undefined;
    if (summary.trustMismatch)
      this.s.output.warn(vscode.l10n.t('Receiver audit of {0}: {1}', target, this.lastAdvice ?? ''));
    const failedIds = summary.results
      .filter((r) => !r.passed)
      .map((r) => r.id)
      .join(', ');
    this.s.output.info(
      summary.failed
        ? vscode.l10n.t(
            'Receiver audit of {0}: {1}/{2} passed; failed: {3}',
            target,
            summary.passed,
            summary.total,
            failedIds,
          )
        : vscode.l10n.t('Receiver audit of {0}: {1}/{2} passed', target, summary.passed, summary.total),
    );
    this.postSummary();
  }

  /** The last summary, in the user's words, to the page (which shows text as given). */
  private postSummary(): void {
    if (this.last)
      this.post({ type: 'summary', summary: auditWorded(this.last, userWording), advice: this.lastAdvice });
  }

  /** The audit stopped at a refused genuine delivery: what it signed with and how to make the receiver trust it, in
   * the editor's words (which environment is in use, and whom this window's receiver trusts). */
  trustAdvice(s: AuditSummary): string | undefined {
    const m = s.trustMismatch;
    if (!m) return undefined;
    const what = vscode.l10n.t(
      '{0} The other {1} cases were not sent: a refusal of theirs would say nothing.',
      inUserWords(refusalSaid(m, AUDIT_GENUINE_DELIVERY, s.target)),
      s.notSent ?? 0,
    );
    if (!m.trust) return `${what} ${inUserWords(matchAdviceSaid(m))}`;
    const env = this.s.environments.currentName;
    const sandbox = env === SANDBOX_ENVIRONMENT;
    const inUse = sandbox
      ? vscode.l10n.t('The Sandbox is the environment in use.')
      : vscode.l10n.t(
          "{0} is the environment in use: this window's receiver trusts the Sandbox's key only while the Sandbox is in use (and each delivery the editor signs for it, once).",
          env,
        );
    const signsWith = vscode.l10n.t(
      "The audit signs with the Sandbox's key, served while the sandbox runs in this window.",
    );
    const { issuer, jwksUrl, audience } = m.signedWith;
    const match = sandbox
      ? vscode.l10n.t(
          'Make them match: have {0} trust issuer {1} with key set {2} (audience {3}) for development.',
          s.target,
          issuer,
          jwksUrl,
          audience,
        )
      : vscode.l10n.t(
          'Make them match: have {0} trust issuer {1} with key set {2} (audience {3}) for development, or switch to the Sandbox (Workflow Service: Switch Environment…) if {0} trusts the environment in use.',
          s.target,
          issuer,
          jwksUrl,
          audience,
        );
    return `${what} ${signsWith} ${inUse} ${match}`;
  }

  private async show(): Promise<void> {
    if (this.panel) return this.panel.reveal();
    const root = vscode.Uri.joinPath(this.extensionUri, 'media', 'panel');
    const panel = vscode.window.createWebviewPanel(
      'wfs.auditPanel',
      vscode.l10n.t('Receiver Audit'),
      vscode.ViewColumn.Active,
      {
        enableScripts: true,
        localResourceRoots: [root],
      },
    );
    this.panel = panel;
    const media = (f: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(root, f)).toString();
    let resolveReady!: () => void;
    this.ready = new Promise((r) => (resolveReady = r));
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const m = parseAuditRequest(raw);
      if ('invalid' in m) return this.s.output.warn(vscode.l10n.t('Receiver audit panel: ignored {0}', m.invalid));
      switch (m.type) {
        case 'ready':
          resolveReady();
          this.postSummary();
          return;
        case 'rerun':
          if (this.lastArgs) void this.run(this.lastArgs);
          return;
        case 'export':
          void this.export(m.format);
          return;
        case 'copy-curl':
          void this.copyCurl(m.id);
          return;
      }
    });
    panel.onDidDispose(() => (this.panel = undefined));
    panel.webview.html = auditHtml({
      cspSource: panel.webview.cspSource,
      nonce: newNonce(),
      domUri: media('dom.js'),
      scriptUri: media('audit.js'),
      styleUri: media('panel.css'),
      l10n: vscode.l10n,
      lang: vscode.env.language,
    });
    await this.ready;
  }

  private post(m: AuditUpdate): void {
    void this.panel?.webview.postMessage(m);
  }

  async copyCurl(id: string): Promise<string | undefined> {
    const r = this.last?.results.find((x) => x.id === id);
    if (!r) return undefined;
    const cmd = auditCurl(r);
    await vscode.env.clipboard.writeText(cmd);
    vscode.window.setStatusBarMessage(
      vscode.l10n.t('Copied the "{0}" request as curl', auditResultWorded(r, userWording).title),
      4000,
    );
    return cmd;
  }

  async export(format: AuditExportFormat, target?: vscode.Uri): Promise<string | undefined> {
    if (!this.last) return undefined;
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.joinPath(
          vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir()),
          `receiver-audit.${format}`,
        ),
        filters: format === 'md' ? { Markdown: ['md'] } : { JSON: ['json'] },
      }));
    if (!uri) return undefined;
    // The save dialog asked before replacing a file; a link at the path is refused, never written through.
    await writeUriSafely(uri, format === 'md' ? auditMarkdown(this.last) : auditJson(this.last), {
      existing: 'replace',
    });
    return uri.fsPath;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
