// The CLI's face of the assistant's context: the environment from the same WFS_* variables as every `wfs` command
// (or, without WFS_BASE_URL, the signing sandbox itself), flags for where the app and the receiver are, --allow-remote
// for hosts off this machine, and the folder it runs in for fixtures. It never asks a person anything itself: the MCP
// layer asks through the client (elicitation), call by call.
import {
  type AssistantContext,
  type AssistantEnvironment,
  type AssistantWorkflows,
  type AuditSetup,
  checkToolReach,
  type DeliverySource,
  knownSecretValues,
  readFixtureIn,
  RecentSecrets,
  type SignedForTarget,
  type SignerInfo,
  type TargetTlsChoice,
  ToolRefused,
} from '../core/assistant';
import { forwardTargetTls, type ForwardRule } from '../core/webhooks';
import type { TokenManager } from '../core/auth';
import { type ProbeReport, runProbe } from '../core/probe';
import { startBilledWorkflow, type WorkflowClient } from '../core/workflows';
import { readServiceTarget, signIn, workflowClient, type ServiceTarget } from '../cli/cliEnvironment';
import type { CliIO } from '../cli/output';
import type { SigningSandbox } from './signingSandbox';
import { billedWords } from './chooseSigningSandbox';
import { SANDBOX_SECRET_ENV } from '../core/sandbox';

function sameOrigin(a: string | undefined, b: string): boolean {
  try {
    return a !== undefined && new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

export interface CliAssistantOptions {
  io: CliIO;
  deliveries: DeliverySource;
  sandbox: SigningSandbox;
  /** --forward-to: the user's app, as a rule for every delivery (with --forward-ca or --forward-insecure). */
  forward?: ForwardRule;
  /** The receiver's address: its own, or --receiver-url with --history. */
  receiverUrl?: string;
  allowRemote: boolean;
  /** Where fixtures may be read: the folder wfs mcp runs in. */
  workspace: string;
  /** Secrets of this process besides the service's (the --http token). */
  extraSecrets?: string[];
  /** WFS_BASE_URL proved to be a `wfs sandbox` of this machine whose secret is held (chooseSigningSandbox.ts). */
  baseUrlIsSandbox?: boolean;
  /** Why WFS_BASE_URL is not taken for the Sandbox. */
  billedBecause?: string;
}

/** The service in use: WFS_BASE_URL's, checked at start, or why it cannot be used. */
type Service = { target: ServiceTarget; isSandbox: boolean } | { problem: string; baseUrl: string };

export class CliAssistantContext implements AssistantContext {
  readonly clock;
  readonly deliveries: DeliverySource;
  private readonly service: Service;
  private signingIn?: Promise<{ tokens: TokenManager; client: WorkflowClient }>;
  private tokens?: TokenManager;
  /** The tokens this context signed most recently (bounded). */
  private readonly signed = new RecentSecrets();

  constructor(private readonly o: CliAssistantOptions) {
    this.clock = o.io.clock;
    this.deliveries = o.deliveries;
    this.service = this.readService();
  }

  /** Said on stderr at start when WFS_BASE_URL is set but cannot be used; the workflow tools refuse with it. */
  get serviceProblem(): string | undefined {
    return 'problem' in this.service ? this.service.problem : undefined;
  }

  private readService(): Service {
    const env = this.o.io.env;
    const sandbox = this.o.sandbox;
    if (!env.WFS_BASE_URL) {
      // The signing sandbox is the environment: its published demo account signs in.
      const target = readServiceTarget({
        WFS_BASE_URL: sandbox.baseUrl,
        WFS_USERNAME: sandbox.demo.username,
        WFS_PASSWORD: sandbox.demo.password,
      });
      return { target: { ...target, name: 'Sandbox' }, isSandbox: true };
    }
    try {
      // Only a sandbox that proved it holds the secret this process holds is the simulator; any other address may
      // bill, whatever it says of itself.
      const isSandbox = this.o.baseUrlIsSandbox === true || sameOrigin(env.WFS_BASE_URL, sandbox.baseUrl);
      const target = readServiceTarget(
        isSandbox && !env.WFS_USERNAME
          ? { ...env, WFS_USERNAME: sandbox.demo.username, WFS_PASSWORD: sandbox.demo.password }
          : env,
      );
      return { target: { ...target, name: isSandbox ? 'Sandbox' : new URL(target.baseUrl).origin }, isSandbox };
    } catch (err) {
      return {
        problem: `${(err as Error).message}; restart wfs mcp with WFS_BASE_URL, WFS_USERNAME and WFS_PASSWORD set (\`wfs mcp --help\` lists the variables), or without WFS_BASE_URL to use the sandbox`,
        baseUrl: env.WFS_BASE_URL,
      };
    }
  }

  environment(): AssistantEnvironment {
    const s = this.service;
    if ('problem' in s) return { name: s.baseUrl, baseUrl: s.baseUrl, isSandbox: false, toSandbox: this.toSandbox() };
    if (s.isSandbox) return { name: s.target.name, baseUrl: s.target.baseUrl, isSandbox: true };
    return { name: s.target.name, baseUrl: s.target.baseUrl, isSandbox: false, toSandbox: this.toSandbox() };
  }

  /** How to make the Sandbox the environment, and why WFS_BASE_URL is not. */
  private toSandbox(): string {
    const baseUrl = this.o.io.env.WFS_BASE_URL ?? '';
    return billedWords(baseUrl, this.o.billedBecause ?? `${SANDBOX_SECRET_ENV} is not set`) + '.';
  }

  checkSending(): void {
    // No workspace here: whoever started wfs mcp chose what it may reach (checkReach).
  }

  checkReach(url: string): void {
    checkToolReach(
      url,
      () => this.o.allowRemote === true,
      (u) =>
        `${u.host} is not on this machine, and wfs mcp sends signed deliveries only here unless allowed: restart it with --allow-remote if you run that host.`,
    );
  }

  appTarget(): string {
    if (this.o.forward) return this.o.forward.url;
    throw new ToolRefused(
      "No app is set: restart wfs mcp with --forward-to URL, your app's webhook address (e.g. http://localhost:3000/webhooks).",
    );
  }

  targetTls(url: string): TargetTlsChoice {
    // The rule's `ca` was read at start (the flags are the user's own): nothing is read here.
    return forwardTargetTls(this.o.forward ? [this.o.forward] : [], url, this.o.workspace);
  }

  receiverUrl(): string {
    if (this.o.receiverUrl) return this.o.receiverUrl;
    throw new ToolRefused(
      'The receiver that writes the history file is not known to wfs mcp: restart it with --receiver-url URL (the url `wfs listen` printed in its ready line) to send to it.',
    );
  }

  async signer(): Promise<SignerInfo> {
    const { issuer, audience, jwksUrl } = this.o.sandbox.signer;
    return { issuer, audience, jwksUrl };
  }

  async signFor(_url: string, body: Buffer): Promise<SignedForTarget> {
    // Its own receiver trusts the signing sandbox already; another process's receiver decides for itself.
    const token = await this.o.sandbox.signer.sign(body);
    // An app may echo it back: a token signed here is a secret every answer is cleared of (secrets()).
    this.signed.add(token);
    return { token, done: () => undefined };
  }

  async auditSetup(): Promise<AuditSetup> {
    return { signer: this.o.sandbox.audit, done: () => undefined };
  }

  private target(): ServiceTarget {
    const s = this.service;
    if ('problem' in s) throw new ToolRefused(`WFS_BASE_URL ${s.baseUrl} cannot be used: ${s.problem}.`);
    return s.target;
  }

  async workflows(): Promise<AssistantWorkflows> {
    const target = this.target();
    this.signingIn ??= this.signInOnce(target);
    const { client } = await this.signingIn.catch((err: unknown) => {
      this.signingIn = undefined; // the next call tries again
      throw err;
    });
    return {
      find: (correlationId) => client.find(correlationId),
      read: (workflowId) => client.read(workflowId),
      start: (req, stop) => startBilledWorkflow((r, options) => client.start(r, options), req, stop),
    };
  }

  private async signInOnce(target: ServiceTarget): Promise<{ tokens: TokenManager; client: WorkflowClient }> {
    // Backoffs go to stderr: on stdio, stdout carries the protocol.
    const io: CliIO = { ...this.o.io, emit: (line) => this.o.io.printError(JSON.stringify(line) + '\n') };
    const env = await signIn(target, io);
    this.tokens = env.tokens;
    const client = workflowClient(env, this.o.io.env.WFS_FIND_WORKFLOWS_URL || undefined);
    return { tokens: env.tokens, client };
  }

  async contractCheck(): Promise<ProbeReport> {
    const target = this.target();
    const isSandbox = this.environment().isSandbox;
    return runProbe(
      {
        baseUrl: target.baseUrl,
        testWebhookUrl: target.testWebhookUrl,
        credentials: target.credentials,
        aliasPlacement: target.aliasPlacement,
        problemsBase: this.o.io.env.WFS_PROBLEMS_BASE || undefined,
        findWorkflowsUrl: this.o.io.env.WFS_FIND_WORKFLOWS_URL || undefined,
        jwksUrls: isSandbox ? [this.o.sandbox.trust.jwksUrl] : [],
        isLocalSandbox: target.isLocalSandbox,
      },
      // The sandbox is on this machine: a short spacing keeps the check quick. A real service gets a second.
      { clock: this.clock, spacingMs: isSandbox ? 200 : 1000 },
    );
  }

  readFixture(path: string): Promise<{ file: string; text: string }> {
    return readFixtureIn(path, [this.o.workspace]);
  }

  async confirmBilledStart(): Promise<'cannot-ask'> {
    return 'cannot-ask';
  }

  async confirmAuditTarget(): Promise<'cannot-ask'> {
    return 'cannot-ask';
  }

  secrets(): readonly string[] {
    const s = this.service;
    const out = [this.o.sandbox.controlSecret, ...(this.o.extraSecrets ?? [])];
    const env = this.o.io.env;
    for (const v of [env.WFS_PASSWORD, env.WFS_SANDBOX_SECRET]) if (v) out.push(v);
    if (!('problem' in s)) out.push(s.target.credentials.password);
    const session = this.tokens?.current;
    if (session) out.push(session.accessToken, session.refreshToken);
    return knownSecretValues([...out, ...this.signed.values()]);
  }

  /** Signs out of the service (its tokens were only ever in memory). */
  dispose(): void {
    this.tokens?.dispose();
  }
}
