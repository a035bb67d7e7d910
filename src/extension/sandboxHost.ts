// Runs the embedded sandbox inside the extension host, on demand.
import { signedHereClaims } from '../core/webhooks';
import * as vscode from 'vscode';
import { errorInUserWords } from './coreWords';
import { Disposable } from './disposable';
import type { EndpointRegistration } from '../core/receiver';
import {
  Sandbox,
  type SandboxInfo,
  withDeliveryFault,
  type DeliveryFaultRequest,
  type DeliveryFaults,
} from '../core/sandbox';
import type { ExtensionLog } from './log/extensionLog';
import { sandboxProfile } from './probe/sandboxProfileSetting';
import { setting } from './settings';

export class SandboxHost extends Disposable {
  private sandbox?: Sandbox;
  private starting?: Promise<SandboxInfo>;
  /** Addresses registered for workflow events: kept across a stop and start, which a new sandbox would forget. */
  private readonly registered = new Set<string>();
  private readonly changed = this.register(new vscode.EventEmitter<SandboxInfo | undefined>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly output: ExtensionLog) {
    super();
  }

  get info(): SandboxInfo | undefined {
    return this.sandbox ? this.sandbox.info() : undefined;
  }

  /** Starts the sandbox once; concurrent callers share the same start. */
  ensureStarted(): Promise<SandboxInfo> {
    if (this.sandbox) return Promise.resolve(this.sandbox.info());
    this.starting ??= (async () => {
      const seconds = setting('sandboxWorkflowDurationSeconds');
      const sandbox = new Sandbox({
        port: 0,
        workflowDurationSeconds: seconds,
        profile: await sandboxProfile(this.output),
      });
      sandbox.on('request', (e: { method: string; path: string; status: number }) =>
        this.output.debug(vscode.l10n.t('sandbox {0} {1} → {2}', e.method, e.path, e.status)),
      );
      sandbox.on('webhook', (e: { address: string; attempt: number; status?: number; error?: string }) =>
        this.output.info(
          vscode.l10n.t('sandbox webhook to {0} attempt {1}: {2}', e.address, e.attempt, e.status ?? e.error ?? ''),
        ),
      );
      try {
        const info = await sandbox.start();
        this.sandbox = sandbox;
        this.registerAgain(sandbox);
        this.output.info(vscode.l10n.t('Sandbox listening at {0}', info.baseUrl));
        this.changed.fire(info);
        return info;
      } finally {
        this.starting = undefined;
      }
    })();
    return this.starting;
  }

  /** Registers (or, with false, removes) an address the sandbox sends its workflow events to. */
  setWebhookEndpoint(url: string, registered: boolean): void {
    if (registered) this.registered.add(url);
    else this.registered.delete(url);
    const endpoints = this.sandbox?.context.webhookEndpoints;
    if (!endpoints) return;
    if (registered) endpoints.add(url);
    else endpoints.delete(url);
  }

  /** A sandbox started again: the receivers registered with the one before are registered with it, and it is said. */
  private registerAgain(sandbox: Sandbox): void {
    if (this.registered.size === 0) return;
    for (const url of this.registered) sandbox.context.webhookEndpoints.add(url);
    this.output.info(
      vscode.l10n.t(
        'Sandbox started: registered {0} with it again, so its workflow events arrive there',
        [...this.registered].join(', '),
      ),
    );
  }

  /** The receiver's registration with this sandbox: its workflow events go to the receiver while it runs. */
  webhookEndpoint(): EndpointRegistration {
    return {
      name: vscode.l10n.t('the sandbox'),
      register: async (url) => this.setWebhookEndpoint(url, true),
      unregister: async (url) => this.setWebhookEndpoint(url, false),
    };
  }

  /** Lays a delivery fault over the setting in force (starting the sandbox first); the whole setting. Throws
   * RangeError naming a bad option, with nothing changed. */
  async addDeliveryFault(request: DeliveryFaultRequest): Promise<DeliveryFaults> {
    await this.ensureStarted();
    const deliveries = this.sandbox!.context.deliveries;
    const next = withDeliveryFault(deliveries.faults, request);
    deliveries.set(next);
    return next;
  }

  /** Clears the delivery faults; whether any were set. */
  clearDeliveryFaults(): boolean {
    const deliveries = this.sandbox?.context.deliveries;
    const had = deliveries?.faults !== undefined;
    deliveries?.set(undefined);
    return had;
  }

  /** A fresh sandbox token for a body (replaying a delivery); undefined while the sandbox is stopped. */
  async signWebhookBody(body: Buffer): Promise<string | undefined> {
    return this.sandbox?.context.signer.sign(body, { claims: signedHereClaims() });
  }

  async startWithUi(): Promise<SandboxInfo | undefined> {
    try {
      const info = await this.ensureStarted();
      void vscode.window.showInformationMessage(vscode.l10n.t('Workflow Service sandbox running at {0}', info.baseUrl));
      return info;
    } catch (err) {
      this.output.error(vscode.l10n.t('Sandbox failed to start: {0}', errorInUserWords(err)));
      void vscode.window
        .showErrorMessage(
          vscode.l10n.t('The sandbox could not start: {0}', errorInUserWords(err)),
          vscode.l10n.t('Show Log'),
        )
        .then((a) => a && this.output.show());
      return undefined;
    }
  }

  async stop(): Promise<void> {
    const s = this.sandbox;
    this.sandbox = undefined;
    if (s) {
      await s.stop();
      this.output.info(vscode.l10n.t('Sandbox stopped'));
      this.changed.fire(undefined);
    }
  }

  override dispose(): void {
    void this.stop();
    super.dispose();
  }
}
