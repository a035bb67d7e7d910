// The extension's face of the assistant's context: this window's receiver and its history, the environment in use
// and its sign-in, the sandbox that signs, the user's forward settings and the origins they confirmed, workspace
// trust, and a modal that asks the user before any billed start, whatever wfs.confirmBilledStart says.
import * as vscode from 'vscode';
import {
  type AssistantContext,
  type AssistantEnvironment,
  type AssistantWorkflows,
  type AuditSetup,
  auditTargetAsked,
  type BilledStartDetails,
  billedStartAsked,
  checkToolReach,
  type DeliverySource,
  knownSecretValues,
  readFixtureIn,
  RecentSecrets,
  type SignedForTarget,
  type SignerInfo,
  type TargetTlsChoice,
  ToolRefused,
} from '../../core/assistant';
import { type Environment, SANDBOX_ENVIRONMENT } from '../../core/environments';
import type { ProbeReport } from '../../core/probe';
import { ruleMatches, type ForwardRule } from '../../core/webhooks';
import type { TrackedWorkflow, Workflow } from '../../core/workflows';
import { SettingError } from '../receiver/addressSetting';
import type { Services } from '../services';
import { restrictedModeRefusal } from '../trust/restrictedMode';
import { COMMANDS } from '../commandIds';
import { inUserWords } from '../coreWords';

/** The workflow a tracked one stands for: the service's own, when the explorer kept its envelope. */
function workflowOf(t: TrackedWorkflow): Workflow {
  return (
    t.envelope?.workflow ?? {
      workflowId: t.workflowId,
      runId: t.runId,
      status: t.status,
      sessionId: t.sessionId,
      correlationId: t.correlationId,
      product: t.product,
      productType: t.product.service,
      productName: t.productName ?? t.product.model,
      reconfirmAvailable: t.reconfirmAvailable,
    }
  );
}

export class ExtensionAssistantContext implements AssistantContext {
  readonly deliveries: DeliverySource;
  /** The tokens this context signed most recently (bounded). */
  private readonly signed = new RecentSecrets();

  constructor(private readonly s: Services) {
    const receiver = s.receiver;
    this.deliveries = {
      get description() {
        const file = receiver.historyFile;
        return `this window's webhook receiver${file ? ` (history kept in ${file})` : ' (history in memory)'}`;
      },
      records: async () => {
        await receiver.ready();
        return receiver.deliveries.all();
      },
      body: (id) => receiver.deliveries.body(id),
      replays: () => receiver.deliveries.replayAnswers(),
      replayed: (answer) => receiver.replayAnswered(answer),
      onChange: (listener) => {
        const sub = receiver.onDidReceive(() => listener());
        return () => sub.dispose();
      },
    };
  }

  get clock() {
    return this.s.clock;
  }

  private current(): Environment | undefined {
    return this.s.environments.current;
  }

  environment(): AssistantEnvironment {
    const env = this.current();
    const name = env?.name ?? this.s.environments.currentName;
    const isSandbox = name === SANDBOX_ENVIRONMENT;
    const baseUrl = env?.baseUrl || (isSandbox ? (this.s.sandbox.info?.baseUrl ?? '') : '');
    if (isSandbox) return { name, baseUrl, isSandbox };
    // Said to the model, which relays it: the CLI and MCP tools speak English (docs/agents.md).
    const toSandbox = 'To start one for free, the user picks the Sandbox with "Workflow Service: Switch Environment…".';
    return { name, baseUrl, isSandbox, toSandbox };
  }

  checkSending(): void {
    if (!vscode.workspace.isTrusted)
      throw new ToolRefused(
        'This workspace is in Restricted Mode: tools that send or start wait until you trust it (Workspaces: Manage Workspace Trust). Reading deliveries works meanwhile.',
      );
  }

  checkReach(url: string): void {
    checkToolReach(
      url,
      () => this.s.receiver.forwardConsent.allowed(url),
      (u) =>
        `${u.origin} is not on this machine and you have not allowed deliveries to go there: set it as your forward target (wfs.receiver.forwardTo) and confirm it when the receiver starts, then ask again.`,
    );
  }

  private rules(): ForwardRule[] {
    return settingsRefused(() => this.s.receiver.forwardConsent.configuredRules());
  }

  appTarget(signed: { topic?: string; subTopic?: string }): string {
    const rules = this.rules();
    if (rules.length === 0)
      throw new ToolRefused(
        "No app is set to receive deliveries: set wfs.receiver.forwardTo to your app's webhook address (e.g. http://localhost:3000/webhooks), or rules in wfs.receiver.forward.",
      );
    const consent = this.s.receiver.forwardConsent;
    const matching = signed.topic === undefined ? rules : rules.filter((r) => ruleMatches(r, signed));
    if (matching.length === 0)
      throw new ToolRefused(
        `No forward rule takes ${signed.topic}: add one to wfs.receiver.forward (or set wfs.receiver.forwardTo for every topic).`,
      );
    const usable = matching.find((r) => consent.allowed(r.url));
    if (usable) return usable.url;
    throw new ToolRefused(
      `Your forward target ${matching[0]!.url} is off this machine and not confirmed yet: start the webhook receiver and confirm it, then ask again.`,
    );
  }

  targetTls(url: string): TargetTlsChoice {
    // The rules in use only: a workspace's `ca` is read once trusted and agreed to, never in Restricted Mode.
    return settingsRefused(() => this.s.receiver.forwardConsent.tlsFor(url));
  }

  receiverUrl(): string {
    const url = this.s.receiver.info?.localUrl;
    if (url) return url;
    throw new ToolRefused(
      'The webhook receiver is not running: start it (Workflow Service: Start Webhook Receiver), then ask again.',
    );
  }

  async signer(): Promise<SignerInfo> {
    const info = await this.s.sandbox.ensureStarted();
    return { issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl };
  }

  /** As the editor signs what it sends (sandboxSigning.ts): sent to this window's receiver, that one token is
   * accepted whatever environment is in use; sent to an app, the notice of what it must trust. */
  async signFor(url: string, body: Buffer): Promise<SignedForTarget> {
    await this.s.sandbox.ensureStarted();
    const signed = await this.s.signing.signFor(url, body);
    // An app may echo it back: a token signed here is a secret every answer is cleared of (secrets()).
    this.signed.add(signed.token);
    return signed;
  }

  async auditSetup(target: string): Promise<AuditSetup> {
    const info = await this.s.sandbox.ensureStarted();
    const { beforeSend, done } = this.s.signing.forAudit(target);
    return { signer: { sandboxUrl: info.baseUrl, sandboxSecret: info.controlSecret }, beforeSend, done };
  }

  /** The environment in use, when a tool may use the user's sign-in there now. */
  private signedInEnvironment(): Environment {
    const name = this.s.environments.currentName;
    const refusal = restrictedModeRefusal('sign-in', name, vscode.workspace.isTrusted);
    if (refusal)
      throw new ToolRefused(`${refusal} Trust the workspace (Workspaces: Manage Workspace Trust), then ask again.`);
    const env = this.current();
    if (!env)
      throw new ToolRefused(
        `The environment ${name} is not configured: choose one (Workflow Service: Switch Environment…).`,
      );
    return env;
  }

  async workflows(): Promise<AssistantWorkflows> {
    const env = this.signedInEnvironment();
    // Throws the sign-in error (its advice says Sign In) rather than prompting from inside a tool.
    await this.s.auth.require(env);
    const w = this.s.workflows;
    return {
      find: async (correlationId) => (await w.find(env, correlationId)).map(workflowOf),
      read: async (workflowId) => {
        const t = await w.refresh(env, workflowId);
        return t.envelope ?? { workflow: workflowOf(t) };
      },
      start: async (req, stop) => {
        const o = await w.start(env, req, stop);
        return o.kind === 'started' ? { ...o, result: { workflow: workflowOf(o.result) } } : o;
      },
    };
  }

  async contractCheck(): Promise<ProbeReport> {
    const env = this.signedInEnvironment();
    const sandbox = env.name === SANDBOX_ENVIRONMENT ? await this.s.sandbox.ensureStarted() : undefined;
    // The command asks the user for a real environment's username and password itself: they never reach the model.
    const report = await vscode.commands.executeCommand<ProbeReport | undefined>(COMMANDS.probeService, {
      environment: env.name,
      includeRefusal: false,
      ...(sandbox ? { username: sandbox.username, password: sandbox.password } : {}),
    });
    if (!report)
      throw new ToolRefused(`The contract check of ${env.name} did not run: it was cancelled, or could not sign in.`);
    return report;
  }

  readFixture(path: string): Promise<{ file: string; text: string }> {
    const folders = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath);
    return readFixtureIn(path, folders);
  }

  /** A modal naming the environment and the product, always, whatever wfs.confirmBilledStart says: the start was
   * asked for by an assistant, not by the user's own click. */
  async confirmBilledStart(d: BilledStartDetails): Promise<boolean> {
    // Built (and its values checked) before the modal opens: a value that cannot be shown is refused, not asked.
    const question = inUserWords(billedStartAsked(d));
    const answer = await Promise.resolve(
      vscode.window.showWarningMessage(
        vscode.l10n.t('An assistant asks to start a BILLED workflow.'),
        {
          modal: true,
          detail: vscode.l10n.t('{0}\n\nOnly you can confirm it: the assistant cannot.', question),
        },
        vscode.l10n.t('Start (Billed)'),
      ),
    ).catch(() => undefined);
    return answer === vscode.l10n.t('Start (Billed)');
  }

  /** A modal naming the address, always: the assistant named it, not the user. */
  async confirmAuditTarget(url: string): Promise<boolean> {
    const question = inUserWords(auditTargetAsked(url));
    const send = vscode.l10n.t('Send the Audit');
    const answer = await Promise.resolve(
      vscode.window.showWarningMessage(
        vscode.l10n.t('An assistant asks to audit an address it named.'),
        { modal: true, detail: vscode.l10n.t('{0}\n\nOnly you can confirm it: the assistant cannot.', question) },
        send,
      ),
    ).catch(() => undefined);
    return answer === send;
  }

  secrets(): readonly string[] {
    const out: string[] = [];
    const info = this.s.sandbox.info;
    if (info) out.push(info.controlSecret, info.password);
    const env = this.current();
    const session = env ? this.s.auth.peek(env)?.current : undefined;
    if (session) out.push(session.accessToken, session.refreshToken);
    return knownSecretValues([...out, ...this.signed.values()]);
  }
}

/** What `read` gives, or a ToolRefused naming the setting it could not be read from. */
function settingsRefused<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof SettingError)
      throw new ToolRefused(`${err.message} (setting ${err.setting}): fix it, then ask again.`);
    throw err;
  }
}
