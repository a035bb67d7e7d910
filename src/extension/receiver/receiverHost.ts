// The webhook receiver inside VS Code: a core ReceiverSession configured from the settings (its history, trust,
// forward rules and public address), started and stopped by the commands, and rendered: the log, the views'
// events. The sandbox is told its address while it runs, so the sandbox's workflow events arrive here too.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { Clock } from '../../core/time';
import type { DeliveryRecord, HistoryInUse, ReplayAnswer, TrustedIssuer } from '../../core/webhooks';
import { ReceiverSession, type PublicPathCheckOptions } from '../../core/receiver';
import type { PublicAddressTestResult } from '../../core/tunnel';
import type { Environment } from '../../core/environments';
import { ForwardConsent } from './forwardConsent';
import { ReceiverSettingsWatch } from './receiverSettingsWatch';
import { LocaltunnelConsent } from './localtunnelConsent';
import { receiverInfo, renderReceiverEvents, type ReceiverInfo } from './receiverInfo';
import { PublicAddress } from './publicAddress';
import { PublicAddressSelfTest } from './publicAddressSelfTest';
import { historySettings, ReceiverHistory } from './receiverHistory';
import { deliverySource, type DeliverySource } from './deliverySource';
import { ReceiverTrust } from './receiverTrust';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { EnvironmentFollower } from '../environments/environmentSync';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';
import { onDidChangeSettings, setting } from '../settings';
import { SETTINGS } from '../settingKeys';

export { PublicAddressError } from './publicAddress';
export type { ReceiverInfo } from './receiverInfo';

export class ReceiverHost extends Disposable implements EnvironmentFollower {
  private readonly session: ReceiverSession;
  /** Every delivery this window's receiver answered, bounded in bytes: to read; only the receiver changes it. */
  readonly deliveries: DeliverySource;
  private readonly publicAddress: PublicAddress;
  private readonly selfTest: PublicAddressSelfTest;
  readonly consent: LocaltunnelConsent;
  /** Where verified deliveries may be forwarded (wfs.receiver.forward, forwardTo; the receiver task's rules). */
  readonly forwardConsent: ForwardConsent;
  /** Says when a receiver setting changed while it runs; our own commands write through it. */
  readonly settings: ReceiverSettingsWatch;
  private starting?: Promise<ReceiverInfo>;
  private override?: number;
  private readonly stored: ReceiverHistory;
  private readonly trust: ReceiverTrust;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  readonly onDidClearHistory: vscode.Event<void>;
  private readonly delivered = this.register(new vscode.EventEmitter<DeliveryRecord>());
  readonly onDidReceive = this.delivered.event;
  private readonly verifiedEvent = this.register(new vscode.EventEmitter<{ runId?: string; record: DeliveryRecord }>());
  readonly onVerifiedEvent = this.verifiedEvent.event;

  constructor(
    storageDir: string,
    state: vscode.Memento,
    environments: EnvironmentRegistry,
    private readonly sandbox: SandboxHost,
    private readonly output: ExtensionLog,
    clock: Clock,
  ) {
    super();
    const stored = historySettings(storageDir);
    this.session = new ReceiverSession({ clock, history: stored });
    this.deliveries = deliverySource(this.session.history);
    this.stored = new ReceiverHistory(this.session, storageDir, stored, output);
    this.onDidClearHistory = this.stored.onDidClear;
    this.register(this.stored);
    this.trust = new ReceiverTrust(this.session, environments, output, () => this.changed.fire());
    this.trust.apply();
    // Switching environments changes whether the Sandbox's issuer is trusted.
    this.register(environments.onDidChange(() => this.trust.apply()));
    this.consent = new LocaltunnelConsent(state);
    this.forwardConsent = new ForwardConsent(state, output);
    this.publicAddress = new PublicAddress({ state, environments, consent: this.consent, clock, output });
    this.selfTest = new PublicAddressSelfTest({
      session: this.session,
      sandbox,
      environments,
      output,
      sandboxStarted: () => this.trust.apply(),
    });
    renderReceiverEvents(this.session, output, {
      delivered: (r) => this.delivered.fire(r),
      verified: (record) => this.verifiedEvent.fire({ runId: record.runId, record }),
      changed: () => this.changed.fire(),
    });
    this.settings = ReceiverSettingsWatch.restartingThroughCommands(() => this.session.running);
    this.register(this.settings);
    // The watch's interval applies at once: a running watch starts again with it (0 stops it).
    this.register(
      onDidChangeSettings((affects) => {
        if (!affects(SETTINGS.receiverPublicPathCheckSeconds)) return;
        this.session.setPathCheck(pathCheckSetting());
        this.changed.fire();
      }),
    );
  }

  /** Where the history is kept on disk; undefined when in memory only (chosen, or another window's: historyInUse). */
  get historyFile(): string | undefined {
    return this.stored.file;
  }

  /** Set when another process (most often another window) holds the history file. */
  get historyInUse(): HistoryInUse | undefined {
    return this.stored.inUse;
  }

  /** Trusts the issuers of the environments resolving now; a (re)started sandbox learns where to send its events. */
  retain(current: readonly Environment[]): void {
    this.trust.apply(current);
    if (this.session.url) this.sandbox.setWebhookEndpoint(this.session.url, true);
  }

  /** Keeps what an app answered to a replay sent to it directly (the panel's, the assistant's), so the next replay
   * under an acknowledged webhookId is said to be a possible duplicate. */
  replayAnswered(answer: ReplayAnswer): void {
    this.session.history.replayAnswered(answer);
  }

  /** Trusts one token this toolkit signed (Edit and Resend, a fixture, Replay, the audit) for one delivery. */
  trustSignedHere(token: string, issuers: readonly TrustedIssuer[]): () => void {
    return this.session.trustSignedHere(token, issuers);
  }

  /** Empties the history and erases its file; the views that list deliveries redraw at once. */
  async clearHistory(): Promise<void> {
    await this.stored.clear();
    this.changed.fire();
  }

  /** Resolves once the stored history is read (the panel waits for it). */
  ready(): Promise<unknown> {
    return this.stored.ready();
  }

  get info(): ReceiverInfo | undefined {
    return receiverInfo(this.session, this.publicAddress, this.selfTest.last);
  }

  /** The status answered to verified deliveries instead of 200; kept across receiver restarts. */
  get responseOverride(): number | undefined {
    return this.override;
  }

  setResponseOverride(status: number | undefined): void {
    this.session.setResponseOverride(status);
    this.override = status;
    this.output.info(
      vscode.l10n.t(
        'Receiver answers verified deliveries {0}',
        status === undefined ? vscode.l10n.t('normally') : vscode.l10n.t('with {0}', status),
      ),
    );
  }

  /** The first forward target that may be used now (never one off this machine the user did not confirm). */
  get forwardTo(): string | undefined {
    return this.forwardConsent.forwardTo;
  }

  start(): Promise<ReceiverInfo> {
    if (this.session.running) return Promise.resolve(this.info!);
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Starts the receiver with the receiver task's forward rules in place of the settings' (until it stops). */
  startWithForward(forward?: { rules: unknown[]; passThrough: boolean }): Promise<ReceiverInfo> {
    if (!this.session.running && !this.starting) this.forwardConsent.useTaskRules(forward);
    return this.start();
  }

  private async doStart(): Promise<ReceiverInfo> {
    await this.stored.loadedForStart();
    this.trust.apply();
    try {
      await this.session.start({
        port: setting('receiverPort'),
        path: '/webhooks',
        forward: await this.forwardConsent.forwarder(),
        respondWith: this.override,
        publicAddress: this.publicAddress,
        pathCheck: pathCheckSetting(),
        endpoints: [this.sandbox.webhookEndpoint()],
      });
    } finally {
      this.changed.fire();
    }
    return this.info!;
  }

  /** Sends one sandbox-signed delivery through the public address and records the result (shown in the view). */
  testPublicAddress(timeoutMs?: number): Promise<PublicAddressTestResult> {
    return this.selfTest.run(timeoutMs).finally(() => this.changed.fire());
  }

  /** Checks the public address end to end now; false when none is watched (the status bar shows the outcome). */
  checkPublicPath(): boolean {
    return this.session.checkPublicPath();
  }

  async stop(): Promise<void> {
    const wasRunning = this.session.running;
    this.selfTest.last = undefined;
    this.forwardConsent.useTaskRules(undefined);
    await this.session.stop();
    this.publicAddress.close();
    if (wasRunning) this.output.info(vscode.l10n.t('Receiver stopped'));
    this.changed.fire();
  }

  /** Deactivation: the receiver and tunnel stopped, and the history written out and its file closed. */
  async shutdown(): Promise<void> {
    await this.stop();
    await this.stored.close();
  }

  override dispose(): void {
    void this.stop();
    super.dispose();
  }
}

/** wfs.receiver.publicPathCheckSeconds as the session takes it: false when 0 (no watch). */
function pathCheckSetting(): PublicPathCheckOptions | false {
  const seconds = setting('receiverPublicPathCheckSeconds');
  return seconds === 0 ? false : { intervalMs: seconds * 1000 };
}
