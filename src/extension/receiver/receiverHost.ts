// The webhook receiver inside VS Code: loopback Receiver + Verifier (trusting every configured environment's
// issuers, and the Sandbox's only while it is the environment in use) + optional public Tunnel + a persisted
// DeliveryLog. While the sandbox runs, the receiver's address is
// registered with it, so the sandbox's workflow events arrive here too.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { SANDBOX_ENVIRONMENT } from '../../core/environments/environmentConfig';
import type { Clock } from '../../core/time/clock';
import { tunnelNameProblem } from '../../core/tunnel/tunnelName';
import { Tunnel, type TunnelState } from '../../core/tunnel/Tunnel';
import { DeliveryLog } from '../../core/webhooks/DeliveryLog';
import type { DeliveryRecord } from '../../core/webhooks/deliveryRecord';
import { Receiver } from '../../core/webhooks/Receiver';
import type { Forwarder } from '../../core/webhooks/forwardFanOut';
import { ForwardConsent } from './forwardConsent';
import { Verifier, type TrustedIssuer } from '../../core/webhooks/Verifier';
import { HistoryInUse, historyHolder } from '../../core/webhooks/historyLock';
import { addressSetting, SettingError } from './addressSetting';
import { eraseHistoryFile } from '../../core/webhooks/eraseHistory';
import { ReceiverSettingsWatch } from './receiverSettingsWatch';
import { HistoryWriteNotice } from './historyWriteNotice';
import { byteSize } from '../panel/historyStorage';
import { isLoopbackHost } from '../../core/http/loopback';
import { testPublicAddress, type PublicAddressTestResult } from '../../core/tunnel/publicAddressTest';
import { LocaltunnelConsent } from './localtunnelConsent';
import { publicAddressSource, type PublicAddressSource } from './publicAddressSettings';
import type { Environment } from '../../core/environments/environment';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { EnvironmentFollower } from '../environments/environmentSync';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';

/** The public address of the last start: a new one must be registered with the service again. */
const LAST_PUBLIC_URL_KEY = 'wfs.receiver.lastPublicUrl';

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

/** A public address that could not be opened; the receiver itself runs. */
/** The receiver runs, but its public address did not open; `setting` names the setting at fault, when one is. */
export class PublicAddressError extends Error {
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(message);
  }
}

export class ReceiverHost implements vscode.Disposable, EnvironmentFollower {
  private receiver?: Receiver;
  private tunnel?: Tunnel;
  private publicAddress?: { source: PublicAddressSource; url?: string; note?: string };
  private selfTest?: PublicAddressTestResult;
  private publicChangedFrom?: string;
  private selfTesting?: Promise<PublicAddressTestResult>;
  readonly consent: LocaltunnelConsent;
  /** Where verified deliveries may be forwarded (wfs.receiver.forward, forwardTo; the receiver task's rules). */
  readonly forwardConsent: ForwardConsent;
  private forwarder?: Forwarder;
  /** Says when a receiver setting changed while it runs; our own commands write through it. */
  readonly settings: ReceiverSettingsWatch;
  private starting?: Promise<ReceiverInfo>;
  private override?: number;
  readonly log: DeliveryLog;
  /** Where the history is kept on disk; undefined when it lives in memory only (chosen, or the file is another
   * window's: see historyInUse). */
  get historyFile(): string | undefined {
    return this.log.file;
  }

  /** Set when another process (most often another window) holds the history file: this window's history is in
   * memory only. */
  get historyInUse(): HistoryInUse | undefined {
    return this.log.fileInUse;
  }
  private loaded?: Promise<unknown>;
  /** Why the history file could not be loaded when the window started (not because another window keeps it). */
  private loadFailed?: Error;
  private readonly verifier: Verifier;
  /** What the receiver trusts, as last logged; and of it, the configured environments' issuers. */
  private trustText?: string;
  private configuredTrust?: string;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly cleared = new vscode.EventEmitter<void>();
  /** The history was emptied: whatever lists its deliveries lists none now. */
  readonly onDidClearHistory = this.cleared.event;
  private readonly delivered = new vscode.EventEmitter<DeliveryRecord>();
  readonly onDidReceive = this.delivered.event;
  private readonly verifiedEvent = new vscode.EventEmitter<{ runId?: string; record: DeliveryRecord }>();
  readonly onVerifiedEvent = this.verifiedEvent.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly writeNotice: HistoryWriteNotice;

  constructor(
    storageDir: string,
    private readonly state: vscode.Memento,
    private readonly environments: EnvironmentRegistry,
    private readonly sandbox: SandboxHost,
    private readonly extLog: ExtensionLog,
    private readonly clock: Clock,
  ) {
    const config = vscode.workspace.getConfiguration('wfs');
    const mib = (key: string, fallback: number) =>
      Math.max(1, Math.floor(config.get<number>(key) ?? fallback)) * 1024 * 1024;
    // Deliveries from real environments may carry customer data: the user may keep them in memory only.
    const diskFile = join(storageDir, 'deliveries.jsonl');
    const memoryOnly = config.get<string>('receiver.historyStorage') === 'memory';
    const holderName = `a ${vscode.env.appName} window`;
    this.log = new DeliveryLog({
      file: memoryOnly ? undefined : diskFile,
      memoryBudgetBytes: mib('receiver.historyMemoryMiB', 64),
      diskBudgetBytes: mib('receiver.historyDiskMiB', 256),
      holderName,
    });
    this.writeNotice = new HistoryWriteNotice(
      (text) =>
        void Promise.resolve(vscode.window.showWarningMessage(text, 'Open Webhook Panel', 'Show Log')).then((a) =>
          a ? vscode.commands.executeCommand(a === 'Show Log' ? 'wfs.showLog' : 'wfs.openWebhookPanel') : undefined,
        ),
    );
    this.log.on('error-persisting', (e: Error) => {
      this.extLog.warn(
        `The delivery history could not be written (${e.message}); verified deliveries are answered 503 until it can.`,
      );
      this.writeNotice.failed(e);
    });
    this.log.on('persisting-again', () => {
      this.extLog.info('The delivery history is written again.');
      this.writeNotice.written();
    });
    this.log.on('warning', (text: string) => this.extLog.warn(`Delivery history: ${text}`));
    this.loaded = mkdir(storageDir, { recursive: true })
      .then((): Promise<unknown> => (memoryOnly ? this.eraseEarlierHistory(diskFile, holderName) : this.log.load()))
      .catch((e: Error) => {
        if (this.inUseElsewhere(e)) return;
        // A full disk, a file another user owns: tried again when the receiver starts, which says why it cannot.
        this.loadFailed = e;
        this.extLog.warn(
          `The delivery history file ${diskFile} could not be opened (${e.message}): it is tried again when the receiver starts.`,
        );
      });
    this.verifier = new Verifier({ issuers: [], clock });
    this.applyTrust();
    // Switching environments changes whether the Sandbox's issuer is trusted.
    this.disposables.push(environments.onDidChange(() => this.applyTrust()));
    this.consent = new LocaltunnelConsent(state);
    this.forwardConsent = new ForwardConsent(state, extLog);
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

  /** Every window shares the global storage; the first to load the file keeps it, and the others say so. */
  private inUseElsewhere(e: Error): boolean {
    if (!(e instanceof HistoryInUse)) return false;
    this.extLog.warn(
      `The delivery history file ${e.file} is kept by ${historyHolder(e)}: this window keeps its deliveries in memory only, until it is reloaded after that one closes.`,
    );
    return true;
  }

  /** Before the receiver starts: a history that could not be loaded is loaded now, or the start says why not.
   * Started without it, the receiver would append to a file it never read, and a compaction would drop the
   * records it holds. */
  private async historyLoaded(): Promise<void> {
    await this.ready();
    if (!this.loadFailed || !this.log.file) return;
    const file = this.log.file;
    try {
      await (this.loaded = this.log.load());
      this.loadFailed = undefined;
      this.extLog.info(`The delivery history file ${file} is open now.`);
    } catch (e) {
      this.loaded = Promise.resolve();
      if (this.inUseElsewhere(e as Error)) return;
      throw new SettingError(
        'wfs.receiver.historyStorage',
        `its delivery history file ${file} could not be opened (${(e as Error).message}): free space on its disk or fix its access, or set wfs.receiver.historyStorage to memory`,
      );
    }
  }

  /** In memory only: the file kept before the setting changed is erased, so no earlier delivery stays on disk. */
  private async eraseEarlierHistory(file: string, holderName: string): Promise<void> {
    const outcome = await eraseHistoryFile(file, holderName);
    if ('heldBy' in outcome)
      this.extLog.warn(
        `wfs.receiver.historyStorage is memory, but the earlier delivery history file ${file} is still kept by ${historyHolder(outcome.heldBy)}: it is erased when a window starts after that one closes.`,
      );
    else if (outcome.erased > 0)
      this.extLog.info(
        `wfs.receiver.historyStorage is memory: the earlier delivery history file ${file} (${byteSize(outcome.erased)}) was erased.`,
      );
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

  /** Empties the history and erases its file; the views that list deliveries redraw at once. */
  async clearHistory(): Promise<void> {
    await this.log.clear();
    this.cleared.fire();
    this.changed.fire();
  }

  /** Resolves once the stored history is read (the panel waits for it). */
  ready(): Promise<unknown> {
    return this.loaded ?? Promise.resolve();
  }

  get info(): ReceiverInfo | undefined {
    const url = this.receiver?.url;
    if (!url) return undefined;
    const p = this.publicAddress;
    const tunnelUrl = this.tunnel?.publicUrl ? this.tunnel.publicUrl + this.receiver!.path : undefined;
    return {
      localUrl: url,
      publicUrl: p?.source === 'localtunnel' ? tunnelUrl : p?.url,
      publicSource: p?.source ?? publicAddressSource(),
      publicNote: p?.note,
      tunnelState: this.tunnel?.state ?? 'closed',
      selfTest: this.selfTest,
      publicChangedFrom: this.publicChangedFrom,
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

  get running(): Receiver | undefined {
    return this.receiver;
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
    await this.historyLoaded();
    const cfg = vscode.workspace.getConfiguration('wfs');
    this.applyTrust();
    const receiver = new Receiver({
      verifier: this.verifier,
      clock: this.clock,
      port: cfg.get<number>('receiver.port') ?? 0,
      path: '/webhooks',
      log: this.log,
      forward: (this.forwarder = await this.forwardConsent.forwarder()),
      respondWith: this.override,
    });
    receiver.on('delivery', (r: DeliveryRecord) => {
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
      this.publicAddress = await this.openPublicAddress(receiver, localUrl);
      await this.rememberPublicUrl(this.info?.publicUrl);
    } catch (err) {
      // The receiver stays up on loopback; the user is told why the public address did not open, and where to choose.
      this.publicAddress = { source: publicAddressSource(), note: `did not open: ${(err as Error).message}` };
      this.changed.fire();
      throw new PublicAddressError(
        `The receiver runs at ${localUrl}, but its public address (${this.publicAddress.source}) did not open: ${(err as Error).message}`,
        err instanceof SettingError ? err.setting : undefined,
      );
    }
    this.changed.fire();
    return this.info!;
  }

  /** Compares this start's public address with the last one, then remembers it (outside settings). */
  private async rememberPublicUrl(url: string | undefined): Promise<void> {
    const last = this.state.get<string>(LAST_PUBLIC_URL_KEY);
    this.publicChangedFrom = url && last && last !== url ? last : undefined;
    if (url && url !== last) await this.state.update(LAST_PUBLIC_URL_KEY, url);
  }

  /** Opens the public address the settings choose. Only localtunnel reaches a third party: for the sandbox it opens
   * none (the sandbox reaches loopback), and for a real environment only with the user's consent. */
  private async openPublicAddress(
    receiver: Receiver,
    localUrl: string,
  ): Promise<{ source: PublicAddressSource; url?: string; note?: string }> {
    const cfg = vscode.workspace.getConfiguration('wfs');
    const source = publicAddressSource();
    const env = this.environments.currentName;
    switch (source) {
      case 'none':
        return { source, note: 'none (wfs.receiver.publicAddress): loopback only' };
      case 'vscode': {
        // VS Code's own port forwarding: under remote development (SSH, WSL, containers, Codespaces, code-server) the
        // receiver runs on the remote machine, and this is the address that reaches it.
        const external = new URL((await vscode.env.asExternalUri(vscode.Uri.parse(localUrl))).toString(true));
        const local = new URL(localUrl);
        if (isLoopbackHost(external.hostname) && external.port === local.port && external.pathname === local.pathname)
          return {
            source,
            note: 'VS Code forwards nothing in a local window: for an address the service can reach, choose "url" (your own tunnel) or "localtunnel" in wfs.receiver.publicAddress',
          };
        receiver.setPublicHosts([external.hostname]);
        const codespaces = vscode.env.remoteName === 'codespaces' || external.hostname.endsWith('.app.github.dev');
        const note = codespaces
          ? `Codespaces forwards port ${local.port} privately: in the Ports view, right-click it, Port Visibility → Public, so the service can reach it`
          : isLoopbackHost(external.hostname)
            ? `forwarded by VS Code to ${external.host}: your browser reaches it, the service does not`
            : undefined;
        return { source, url: external.toString(), note };
      }
      case 'url': {
        const url = addressSetting('receiver.publicUrl');
        if (!url)
          throw new SettingError(
            'wfs.receiver.publicUrl',
            'wfs.receiver.publicUrl is not set: give the public http(s) URL your tunnel or proxy serves',
          );
        if (!cfg.get<number>('receiver.port'))
          throw new Error(
            'wfs.receiver.port is 0 (a free port each time): fix it to the port your tunnel or proxy forwards to',
          );
        receiver.setPublicHosts([new URL(url).hostname]);
        return { source, url };
      }
      case 'localtunnel': {
        if (env === SANDBOX_ENVIRONMENT)
          return { source, note: 'not opened for the Sandbox, which reaches the receiver on loopback' };
        const host = addressSetting('receiver.tunnelHost') ?? 'https://localtunnel.me';
        const subdomain = cfg.get<string>('receiver.tunnelSubdomain')?.trim() || undefined;
        const nameProblem = subdomain === undefined ? undefined : tunnelNameProblem(subdomain);
        if (nameProblem)
          throw new SettingError('wfs.receiver.tunnelSubdomain', `wfs.receiver.tunnelSubdomain ${nameProblem}`);
        const answer = await this.consent.answer(env, new URL(host).host);
        if (answer === 'declined')
          return {
            source,
            note: `not opened: you declined localtunnel for ${env} (choose localtunnel again in "Choose Public Address Source…" to be asked again)`,
          };
        if (answer === 'unanswered')
          return {
            source,
            note: `not opened: you did not answer whether to open localtunnel for ${env}; you are asked again at the next start`,
          };
        const tunnel = new Tunnel({ localPort: Number(new URL(localUrl).port), host, subdomain, clock: this.clock });
        let reconnected = false;
        tunnel.on('state', (s: TunnelState) => {
          if (tunnel.publicUrl) receiver.setPublicHosts([new URL(tunnel.publicUrl).hostname]);
          this.extLog.info(`Tunnel ${s}${tunnel.publicUrl ? ` (${tunnel.publicUrl})` : ''}`);
          if (s === 'reconnecting') reconnected = true;
          // A reconnected tunnel is a new path: a self-test the user ran is run again.
          if (s === 'open' && reconnected && this.selfTest) void this.testPublicAddress().catch(() => undefined);
          this.changed.fire();
        });
        tunnel.on('warning', (e: Error) => this.extLog.warn(`Tunnel: ${e.message}`));
        this.tunnel = tunnel;
        try {
          await tunnel.open();
        } catch (err) {
          this.tunnel = undefined;
          tunnel.close();
          throw err;
        }
        return { source };
      }
    }
  }

  /** Sends one sandbox-signed delivery through the public address and records the result (shown in the view). */
  testPublicAddress(timeoutMs?: number): Promise<PublicAddressTestResult> {
    this.selfTesting ??= (async () => {
      const receiver = this.receiver;
      const publicUrl = this.info?.publicUrl;
      if (!receiver || !publicUrl)
        throw new Error(
          this.receiver
            ? `The receiver has no public address (${this.info?.publicNote ?? this.info?.publicSource}).`
            : 'The webhook receiver is not running.',
        );
      // The sandbox signs the probe, and the receiver trusts that one token (whichever environment is in use).
      await this.sandbox.ensureStarted();
      this.applyTrust();
      let untrust: (() => void) | undefined;
      const result = await testPublicAddress({
        publicUrl,
        receiver,
        clock: this.clock,
        timeoutMs,
        sign: async (body) => {
          const token = await this.sandbox.signWebhookBody(body);
          const sandboxIssuers = this.environments.get(SANDBOX_ENVIRONMENT)?.trustedIssuers;
          if (!token || !sandboxIssuers) throw new Error('the sandbox stopped');
          untrust = this.verifier.trustToken(token, sandboxIssuers);
          return token;
        },
      }).finally(() => untrust?.());
      this.extLog[result.ok ? 'info' : 'warn'](
        `Public address test: ${result.ok ? 'ok' : `failed at ${result.failedHop}`}: ${result.detail}`,
      );
      if (this.receiver === receiver) this.selfTest = result;
      this.changed.fire();
      return result;
    })().finally(() => (this.selfTesting = undefined));
    return this.selfTesting;
  }

  async stop(): Promise<void> {
    const r = this.receiver;
    this.receiver = undefined;
    this.tunnel?.close();
    this.tunnel = undefined;
    this.publicAddress = undefined;
    this.publicChangedFrom = undefined;
    this.selfTest = undefined;
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
    await this.loaded;
    await this.log.close();
  }

  dispose(): void {
    void this.stop();
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
    this.cleared.dispose();
    this.delivered.dispose();
    this.verifiedEvent.dispose();
  }
}
