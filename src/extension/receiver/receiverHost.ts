// The webhook receiver inside VS Code, its lifecycle: a loopback Receiver started and stopped, its Verifier trusting
// every configured environment's issuers (and the Sandbox's only while it is the environment in use), and its
// address registered with the sandbox while that runs, so the sandbox's workflow events arrive here too. The
// history (receiverHistory.ts), the public address (publicAddress.ts) and its self-test
// (publicAddressSelfTest.ts) are their own files; forward consent is here.
import * as vscode from 'vscode';
import { SANDBOX_ENVIRONMENT } from '../../core/environments/environmentConfig';
import type { Clock } from '../../core/time/clock';
import type { TunnelState } from '../../core/tunnel/Tunnel';
import type { DeliveryHistory } from '../../core/webhooks/DeliveryHistory';
import type { DeliveryRecord } from '../../core/webhooks/deliveryRecord';
import { Receiver } from '../../core/webhooks/Receiver';
import type { Forwarder } from '../../core/webhooks/forwardFanOut';
import { ForwardConsent } from './forwardConsent';
import { Verifier, type TrustedIssuer } from '../../core/webhooks/Verifier';
import type { HistoryInUse } from '../../core/webhooks/historyLock';
import { ReceiverSettingsWatch } from './receiverSettingsWatch';
import type { PublicAddressTestResult } from '../../core/tunnel/publicAddressTest';
import { linkDerivedDelivery } from '../fixtures/derivedFrom';
import { LocaltunnelConsent } from './localtunnelConsent';
import type { PublicAddressSource } from './publicAddressSettings';
import { PublicAddress } from './publicAddress';
import { PublicAddressSelfTest } from './publicAddressSelfTest';
import { ReceiverHistory } from './receiverHistory';
import type { Environment } from '../../core/environments/environment';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { EnvironmentFollower } from '../environments/environmentSync';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';

export { PublicAddressError } from './publicAddress';

export interface ReceiverInfo {
  localUrl: string;
  publicUrl?: string;
  /** Where the public address comes from (wfs.receiver.publicAddress). */
  publicSource: PublicAddressSource;
  /** Why there is no public address, or what to know about it (e.g. Codespaces ports are private). */
  publicNote?: string;
  tunnelState: TunnelState;
  /** The last "Test Public Address" result, while the address is the same. */
  selfTest?: PublicAddressTestResult;
  /** The public address of the previous start, when this start's differs: registered with the service, it is stale. */
  publicChangedFrom?: string;
  /** Forwarded deliveries are answered with the apps' status. */
  passThrough?: boolean;
  /** How many forward rules are in use. */
  forwardRules?: number;
}

export class ReceiverHost implements vscode.Disposable, EnvironmentFollower {
  private receiver?: Receiver;
  private readonly publicAddress: PublicAddress;
  private readonly selfTest: PublicAddressSelfTest;
  readonly consent: LocaltunnelConsent;
  /** Where verified deliveries may be forwarded (wfs.receiver.forward, forwardTo; the receiver task's rules). */
  readonly forwardConsent: ForwardConsent;
  private forwarder?: Forwarder;
  /** Says when a receiver setting changed while it runs; our own commands write through it. */
  readonly settings: ReceiverSettingsWatch;
  private starting?: Promise<ReceiverInfo>;
  private override?: number;
  private readonly history: ReceiverHistory;
  private readonly verifier: Verifier;
  /** What the receiver trusts, as last logged; and of it, the configured environments' issuers. */
  private trustText?: string;
  private configuredTrust?: string;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** The history was emptied: whatever lists its deliveries lists none now. */
  readonly onDidClearHistory: vscode.Event<void>;
  private readonly delivered = new vscode.EventEmitter<DeliveryRecord>();
  readonly onDidReceive = this.delivered.event;
  private readonly verifiedEvent = new vscode.EventEmitter<{ runId?: string; record: DeliveryRecord }>();
  readonly onVerifiedEvent = this.verifiedEvent.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    storageDir: string,
    state: vscode.Memento,
    private readonly environments: EnvironmentRegistry,
    private readonly sandbox: SandboxHost,
    private readonly extLog: ExtensionLog,
    private readonly clock: Clock,
  ) {
    this.history = new ReceiverHistory(storageDir, extLog);
    this.onDidClearHistory = this.history.onDidClear;
    this.disposables.push(this.history);
    this.verifier = new Verifier({ issuers: [], clock });
    this.applyTrust();
    // Switching environments changes whether the Sandbox's issuer is trusted.
    this.disposables.push(environments.onDidChange(() => this.applyTrust()));
    this.consent = new LocaltunnelConsent(state);
    this.forwardConsent = new ForwardConsent(state, extLog);
    this.publicAddress = new PublicAddress({
      state,
      environments,
      consent: this.consent,
      clock,
      extLog,
      changed: () => this.changed.fire(),
      // A reconnected tunnel is a new path: a self-test the user ran is run again.
      reconnected: () => void (this.selfTest.last ? this.testPublicAddress().catch(() => undefined) : undefined),
    });
    this.selfTest = new PublicAddressSelfTest({
      sandbox,
      environments,
      verifier: this.verifier,
      clock,
      extLog,
      sandboxStarted: () => this.applyTrust(),
    });
    // Through the commands, so a restart says what it did (or why it failed) as the palette's would.
    this.settings = new ReceiverSettingsWatch(
      () => this.receiver?.url !== undefined,
      () =>
        Promise.resolve(vscode.commands.executeCommand('wfs.stopReceiver')).then(() =>
          vscode.commands.executeCommand('wfs.startReceiver'),
        ),
    );
    this.disposables.push(this.settings);
  }

  /** The delivery history: every delivery this window's receiver answered, bounded in bytes. */
  get log(): DeliveryHistory {
    return this.history.log;
  }

  /** Where the history is kept on disk; undefined when it lives in memory only (chosen, or the file is another
   * window's: see historyInUse). */
  get historyFile(): string | undefined {
    return this.history.file;
  }

  /** Set when another process (most often another window) holds the history file: this window's history is in
   * memory only. */
  get historyInUse(): HistoryInUse | undefined {
    return this.history.inUse;
  }

  /** Trusts the issuers of the environments resolving now; a (re)started sandbox learns where to send its events. */
  retain(current: readonly Environment[]): void {
    this.applyTrust(current);
    if (this.receiver?.url) this.sandbox.setWebhookEndpoint(this.receiver.url, true);
  }

  /** The issuers trusted: every configured environment's, and the Sandbox's only while the Sandbox is the environment
   * in use. Anything on this machine may have the sandbox sign (and its sign-in is a published demo account), so a
   * delivery to a real environment's address signed by it proves nothing. Test Public Address trusts its own probe
   * by its token. */
  private trusted(current: readonly Environment[]): { issuers: TrustedIssuer[]; text: string; configured: string } {
    const sandboxInUse = this.environments.currentName === SANDBOX_ENVIRONMENT;
    const envs = current.filter((e) => e.trustedIssuers.length > 0 && (sandboxInUse || e.name !== SANDBOX_ENVIRONMENT));
    const describe = (list: readonly Environment[]) =>
      list
        .map(
          (e) =>
            `${e.name} (${e.trustedIssuers.map((t) => `${t.issuer}, key set ${t.jwksUrl}, audience ${t.audience}`).join('; ')})`,
        )
        .join('; ');
    return {
      issuers: envs.flatMap((e) => e.trustedIssuers),
      text: describe(envs) || 'no issuer',
      configured: describe(envs.filter((e) => e.name !== SANDBOX_ENVIRONMENT)),
    };
  }

  /** Applies the trust of the environments resolving now, and says so when it changed: in the log, and, while the
   * receiver runs and a configured environment's issuers changed (not the sandbox restarting on another port), in a
   * notification naming those now trusted. */
  private applyTrust(current: readonly Environment[] = this.environments.all()): void {
    const { issuers, text, configured } = this.trusted(current);
    if (text === this.trustText) return;
    const configuredBefore = this.configuredTrust;
    this.trustText = text;
    this.configuredTrust = configured;
    this.verifier.setIssuers(issuers);
    const inUse = this.environments.currentName;
    this.extLog.info(
      `Receiver trusts: ${text}${inUse === SANDBOX_ENVIRONMENT ? '' : ` (not the Sandbox's issuer: ${inUse} is the environment in use)`}`,
    );
    if (configuredBefore !== undefined && configured !== configuredBefore && this.receiver?.url)
      void Promise.resolve(
        vscode.window.showInformationMessage(
          `The webhook receiver now trusts: ${configured || "no configured environment's issuer"}.`,
          'Show Log',
        ),
      ).then((a) => (a ? vscode.commands.executeCommand('wfs.showLog') : undefined));
    this.changed.fire();
  }

  /** Trusts one token this toolkit signed (Edit and Resend, a fixture, Replay, the audit) for one delivery, whatever
   * environment is in use; the function returned withdraws it if still unspent (Verifier.trustToken, once). */
  trustSignedHere(token: string, issuers: readonly TrustedIssuer[]): () => void {
    return this.verifier.trustToken(token, issuers, { once: true });
  }

  /** Empties the history and erases its file; the views that list deliveries redraw at once. */
  async clearHistory(): Promise<void> {
    await this.history.clear();
    this.changed.fire();
  }

  /** Resolves once the stored history is read (the panel waits for it). */
  ready(): Promise<unknown> {
    return this.history.ready();
  }

  get info(): ReceiverInfo | undefined {
    const url = this.receiver?.url;
    if (!url) return undefined;
    const p = this.publicAddress;
    return {
      localUrl: url,
      publicUrl: p.url(this.receiver!.path),
      publicSource: p.source,
      publicNote: p.note,
      tunnelState: p.tunnelState,
      selfTest: this.selfTest.last,
      publicChangedFrom: p.changedFrom,
      passThrough: this.forwarder?.passThrough,
      forwardRules: this.forwarder?.options.rules.length,
    };
  }

  /** The status answered to verified deliveries instead of 200; kept across receiver restarts. */
  get responseOverride(): number | undefined {
    return this.override;
  }

  setResponseOverride(status: number | undefined): void {
    this.receiver?.setResponseOverride(status);
    this.override = status;
    this.extLog.info(
      status === undefined
        ? 'Receiver answers verified deliveries normally'
        : `Receiver answers verified deliveries with ${status}`,
    );
  }

  /** The first forward target that may be used now (never one off this machine the user did not confirm). */
  get forwardTo(): string | undefined {
    return this.forwardConsent.forwardTo;
  }

  start(): Promise<ReceiverInfo> {
    if (this.receiver?.url) return Promise.resolve(this.info!);
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Starts the receiver with the receiver task's forward rules in place of the settings' (until it stops). */
  startWithForward(forward?: { rules: unknown[]; passThrough: boolean }): Promise<ReceiverInfo> {
    if (!this.receiver?.url && !this.starting) this.forwardConsent.useTaskRules(forward);
    return this.start();
  }

  private async doStart(): Promise<ReceiverInfo> {
    await this.history.loadedForStart();
    const cfg = vscode.workspace.getConfiguration('wfs');
    this.applyTrust();
    const receiver = new Receiver({
      verifier: this.verifier,
      clock: this.clock,
      port: cfg.get<number>('receiver.port') ?? 0,
      path: '/webhooks',
      history: this.log,
      forward: (this.forwarder = await this.forwardConsent.forwarder()),
      respondWith: this.override,
    });
    receiver.on('delivery', (r: DeliveryRecord) => {
      linkDerivedDelivery(r);
      this.extLog.info(
        `Webhook ${r.method} ${r.path} → ${r.status} ${r.verified ? 'verified' : r.status >= 500 ? 'not verified yet (the service sends it again)' : 'refused'}${r.duplicate ? ' (duplicate)' : ''}${r.topic ? ` topic ${r.topic}` : r.unsigned?.topic ? ` topic ${r.unsigned.topic} (unsigned)` : ''}`,
      );
      this.delivered.fire(r);
    });
    receiver.on('verified-event', (e: { record: DeliveryRecord }) =>
      this.verifiedEvent.fire({ runId: e.record.runId, record: e.record }),
    );
    receiver.on('failure', (r: DeliveryRecord) =>
      this.extLog.error(`Webhook ${r.method} ${r.path} answered 500: ${r.note}`),
    );
    const localUrl = await receiver.start();
    this.receiver = receiver;
    this.extLog.info(`Receiver listening at ${localUrl}`);
    this.sandbox.setWebhookEndpoint(localUrl, true);
    this.changed.fire();
    try {
      await this.publicAddress.open(receiver, localUrl);
    } finally {
      this.changed.fire();
    }
    return this.info!;
  }

  /** Sends one sandbox-signed delivery through the public address and records the result (shown in the view). */
  testPublicAddress(timeoutMs?: number): Promise<PublicAddressTestResult> {
    const receiver = this.receiver;
    const publicUrl = this.info?.publicUrl;
    if (!receiver || !publicUrl)
      return Promise.reject(
        new Error(
          receiver
            ? `The receiver has no public address (${this.info?.publicNote ?? this.info?.publicSource}).`
            : 'The webhook receiver is not running.',
        ),
      );
    return this.selfTest
      .run(receiver, publicUrl, () => this.receiver === receiver, timeoutMs)
      .finally(() => this.changed.fire());
  }

  async stop(): Promise<void> {
    const r = this.receiver;
    this.receiver = undefined;
    this.publicAddress.close();
    this.selfTest.last = undefined;
    this.forwarder = undefined;
    this.forwardConsent.useTaskRules(undefined);
    if (r) {
      if (r.url) this.sandbox.setWebhookEndpoint(r.url, false);
      await r.stop();
      this.extLog.info('Receiver stopped');
    }
    this.changed.fire();
  }

  /** Deactivation: the receiver and tunnel stopped, and the history written out and its file closed. */
  async shutdown(): Promise<void> {
    await this.stop();
    await this.history.close();
  }

  dispose(): void {
    void this.stop();
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
    this.delivered.dispose();
    this.verifiedEvent.dispose();
  }
}
