// The webhook receiver inside VS Code: loopback Receiver + Verifier (trusting every environment's issuers) +
// optional public Tunnel + a persisted DeliveryLog. While the sandbox runs, the receiver's address is
// registered with it, so the sandbox's workflow events arrive here too.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { SANDBOX_ENVIRONMENT } from '../../core/environments/environmentConfig';
import type { Clock } from '../../core/time/clock';
import { Tunnel, type TunnelState } from '../../core/tunnel/Tunnel';
import { DeliveryLog, type DeliveryRecord } from '../../core/webhooks/DeliveryLog';
import { Receiver } from '../../core/webhooks/Receiver';
import { Verifier } from '../../core/webhooks/Verifier';
import { isLoopbackHost } from '../../core/http/loopback';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';

export type TunnelMode = 'auto' | 'always' | 'never';

/** Origins outside this machine the user agreed to forward deliveries to (kept outside settings). */
const CONFIRMED_FORWARD_KEY = 'wfs.confirmedForwardOrigins';

export interface ReceiverInfo {
  localUrl: string;
  publicUrl?: string;
  tunnelState: TunnelState;
}

export class ReceiverHost implements vscode.Disposable {
  private receiver?: Receiver;
  private tunnel?: Tunnel;
  private starting?: Promise<ReceiverInfo>;
  private override?: number;
  readonly log: DeliveryLog;
  /** Where the history is kept on disk; undefined when it lives in memory only. */
  readonly historyFile?: string;
  private loaded?: Promise<unknown>;
  private readonly verifier: Verifier;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly delivered = new vscode.EventEmitter<DeliveryRecord>();
  readonly onDidReceive = this.delivered.event;
  private readonly verifiedEvent = new vscode.EventEmitter<{ runId?: string; record: DeliveryRecord }>();
  readonly onVerifiedEvent = this.verifiedEvent.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    storageDir: string,
    private readonly state: vscode.Memento,
    private readonly environments: EnvironmentRegistry,
    private readonly sandbox: SandboxHost,
    private readonly extLog: ExtensionLog,
    private readonly clock: Clock,
  ) {
    const config = vscode.workspace.getConfiguration('wfs');
    const mib = (key: string, fallback: number) => Math.max(1, Math.floor(config.get<number>(key) ?? fallback)) * 1024 * 1024;
    // Deliveries from real environments may carry customer data: the user may keep them in memory only.
    this.historyFile = config.get<string>('receiver.historyStorage') === 'memory' ? undefined : join(storageDir, 'deliveries.jsonl');
    this.log = new DeliveryLog({
      file: this.historyFile,
      memoryBudgetBytes: mib('receiver.historyMemoryMiB', 64),
      diskBudgetBytes: mib('receiver.historyDiskMiB', 256),
    });
    this.log.on('error-persisting', (e: Error) => this.extLog.warn(`The delivery history could not be written (${e.message}); verified deliveries are answered 503 until it can.`));
    this.log.on('warning', (text: string) => this.extLog.warn(`Delivery history: ${text}`));
    this.loaded = mkdir(storageDir, { recursive: true }).then(() => this.log.load()).catch((e: Error) => this.extLog.warn(`The delivery history could not be read: ${e.message}`));
    this.verifier = new Verifier({ issuers: environments.trustedIssuers(), clock });
    this.disposables.push(
      environments.onDidChange(() => this.verifier.setIssuers(environments.trustedIssuers())),
      sandbox.onDidChange((info) => {
        if (info && this.receiver?.url) sandbox.setWebhookEndpoint(this.receiver.url, true);
      }),
    );
  }

  /** Resolves once the stored history is read (the panel waits for it). */
  ready(): Promise<unknown> {
    return this.loaded ?? Promise.resolve();
  }

  get info(): ReceiverInfo | undefined {
    const url = this.receiver?.url;
    return url ? { localUrl: url, publicUrl: this.tunnel?.publicUrl ? this.tunnel.publicUrl + this.receiver!.path : undefined, tunnelState: this.tunnel?.state ?? 'closed' } : undefined;
  }

  /** The status answered to verified deliveries instead of 200; kept across receiver restarts. */
  get responseOverride(): number | undefined {
    return this.override;
  }

  setResponseOverride(status: number | undefined): void {
    this.receiver?.setResponseOverride(status);
    this.override = status;
    this.extLog.info(status === undefined ? 'Receiver answers verified deliveries normally' : `Receiver answers verified deliveries with ${status}`);
  }

  /** The forward target, once it may be used: a loopback address, or a host the user confirmed (never otherwise:
   * a verified delivery may carry customer data). */
  get forwardTo(): string | undefined {
    const target = vscode.workspace.getConfiguration('wfs').get<string>('receiver.forwardTo') || undefined;
    return target && this.forwardAllowed(target) ? target : undefined;
  }

  private forwardAllowed(target: string): boolean {
    try {
      const u = new URL(target);
      return isLoopbackHost(u.hostname) || (this.state.get<string[]>(CONFIRMED_FORWARD_KEY) ?? []).includes(u.origin);
    } catch {
      return false;
    }
  }

  /** The configured forward target after asking, once per origin, when it is not on this machine. */
  private async confirmedForwardTarget(): Promise<string | undefined> {
    const target = vscode.workspace.getConfiguration('wfs').get<string>('receiver.forwardTo') || undefined;
    if (!target || this.forwardAllowed(target)) return target;
    const origin = new URL(target).origin;
    // A dialog that cannot be shown (it fails, or is dismissed) is a "no".
    const answer = await Promise.resolve(
      vscode.window.showWarningMessage(
        `Forward verified deliveries to ${origin}?`,
        { modal: true, detail: `wfs.receiver.forwardTo sends every verified delivery, which may carry customer loan data, on to ${target}. That host is not on this machine: forward to it only if you run it. Your answer is remembered for ${origin}.` },
        'Forward',
      ),
    ).catch(() => undefined);
    if (answer !== 'Forward') {
      this.extLog.warn(`Not forwarding deliveries to ${origin}: not confirmed.`);
      return undefined;
    }
    await this.state.update(CONFIRMED_FORWARD_KEY, [...(this.state.get<string[]>(CONFIRMED_FORWARD_KEY) ?? []), origin]);
    return target;
  }

  get running(): Receiver | undefined {
    return this.receiver;
  }

  /** Whether a tunnel is wanted: "auto" opens one except for the sandbox, which reaches loopback directly. */
  private wantsTunnel(): boolean {
    const mode = vscode.workspace.getConfiguration('wfs').get<TunnelMode>('receiver.tunnel') ?? 'auto';
    return mode === 'always' || (mode === 'auto' && this.environments.currentName !== SANDBOX_ENVIRONMENT);
  }

  start(): Promise<ReceiverInfo> {
    if (this.receiver?.url) return Promise.resolve(this.info!);
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async doStart(): Promise<ReceiverInfo> {
    await this.ready();
    const cfg = vscode.workspace.getConfiguration('wfs');
    this.verifier.setIssuers(this.environments.trustedIssuers());
    const receiver = new Receiver({
      verifier: this.verifier,
      clock: this.clock,
      port: cfg.get<number>('receiver.port') ?? 0,
      path: '/webhooks',
      log: this.log,
      forwardTo: await this.confirmedForwardTarget(),
      respondWith: this.override,
    });
    receiver.on('delivery', (r: DeliveryRecord) => {
      this.extLog.info(`Webhook ${r.method} ${r.path} → ${r.status} ${r.verified ? 'verified' : 'refused'}${r.duplicate ? ' (duplicate)' : ''}${r.topic ? ` topic ${r.topic}` : ''}`);
      this.delivered.fire(r);
    });
    receiver.on('verified-event', (e: { record: DeliveryRecord }) => this.verifiedEvent.fire({ runId: e.record.runId, record: e.record }));
    const localUrl = await receiver.start();
    this.receiver = receiver;
    this.extLog.info(`Receiver listening at ${localUrl}`);
    this.sandbox.setWebhookEndpoint(localUrl, true);
    this.changed.fire();
    if (this.wantsTunnel()) {
      const tunnel = new Tunnel({ localPort: Number(new URL(localUrl).port), host: cfg.get<string>('receiver.tunnelHost') || undefined, clock: this.clock });
      tunnel.on('state', (s: TunnelState) => {
        if (tunnel.publicUrl) receiver.setPublicHosts([new URL(tunnel.publicUrl).hostname]);
        this.extLog.info(`Tunnel ${s}${tunnel.publicUrl ? ` (${tunnel.publicUrl})` : ''}`);
        this.changed.fire();
      });
      tunnel.on('warning', (e: Error) => this.extLog.warn(`Tunnel: ${e.message}`));
      this.tunnel = tunnel;
      try {
        await tunnel.open();
      } catch (err) {
        // The receiver stays up on loopback; the user is told the tunnel failed and why.
        this.tunnel = undefined;
        tunnel.close();
        this.changed.fire();
        throw Object.assign(new Error(`The receiver runs at ${localUrl}, but the public tunnel did not open: ${(err as Error).message}`), { receiverUp: true });
      }
    }
    return this.info!;
  }

  async stop(): Promise<void> {
    const r = this.receiver;
    this.receiver = undefined;
    this.tunnel?.close();
    this.tunnel = undefined;
    if (r) {
      if (r.url) this.sandbox.setWebhookEndpoint(r.url, false);
      await r.stop();
      this.extLog.info('Receiver stopped');
    }
    this.changed.fire();
  }

  dispose(): void {
    void this.stop();
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
    this.delivered.dispose();
    this.verifiedEvent.dispose();
  }
}
