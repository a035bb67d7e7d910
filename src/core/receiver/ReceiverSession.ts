// The webhook receiver as every face runs it: the delivery history, the verifier and the receiver, the forwarder,
// the public address and the endpoints told where to send events, started and stopped in one order. `wfs listen`,
// the extension and the assistant's tools each configure one and render its events; none assembles these parts.
import { TypedEmitter } from '../events/TypedEmitter';
import type { Clock } from '../time/clock';
import type { TunnelState } from '../tunnel/Tunnel';
import { testPublicAddress, type PublicAddressTestResult } from '../tunnel/publicAddressTest';
import { DeliveryHistory, type DeliveryHistoryOptions } from '../webhooks/DeliveryHistory';
import type { DeliveryRecord } from '../webhooks/deliveryRecord';
import type { Forwarder } from '../webhooks/forwardFanOut';
import { Receiver } from '../webhooks/Receiver';
import { Verifier, type TrustedIssuer, type VerifierOptions } from '../webhooks/Verifier';
import type { PublicAddressProvider } from './publicAddressProvider';
import { watchPublicPath, type PublicPathChange, type PublicPathCheckOptions } from './publicPathRun';
import type { PublicPathState, PublicPathWatch } from '../tunnel/publicPathWatch';
import { addressChangedSaid } from '../tunnel/publicPathAdvice';
import { addressForOthers } from './addressForOthers';
import { english, said, saidOf, type Said } from '../presentation/said';

export interface ReceiverSessionOptions {
  clock: Clock;
  /** The delivery history: in memory only without a file. */
  history: Omit<DeliveryHistoryOptions, 'clock'>;
  issuers?: readonly TrustedIssuer[];
  /** Key sets given in-process (a key folder's public key), in place of fetching the entry's jwksUrl. */
  keySet?: VerifierOptions['keySet'];
}

/** One run of the receiver: what it listens on and what it does with verified deliveries. */
export interface ReceiverRunOptions {
  /** A loopback address (default 127.0.0.1), or every interface (0.0.0.0, ::) in a container. */
  host?: string;
  /** Host names answered besides loopback ones (the names other containers reach it by); others get 421. */
  allowedHosts?: readonly string[];
  port?: number;
  path?: string;
  maxBodyBytes?: number;
  respondWith?: number;
  forward?: Forwarder;
  publicAddress?: PublicAddressProvider;
  /** The end-to-end check of the public address while one is open (on by default); false turns it off. */
  pathCheck?: PublicPathCheckOptions | false;
  /** Told the receiver's local URL once it listens, and again when it stops (a sandbox sends it workflow events). */
  endpoints?: readonly EndpointRegistration[];
}

export interface EndpointRegistration {
  /** Who is told, for messages: e.g. "the sandbox at http://127.0.0.1:4010". */
  readonly name: string;
  register(url: string): Promise<void>;
  unregister(url: string): Promise<void>;
}

export interface ReceiverStarted {
  /** Its URL on this machine (loopback). */
  url: string;
  /** The URL the endpoints were given: `url`, or, bound to every interface, the first allowed name's. */
  registeredUrl: string;
  publicUrl?: string;
  /** Why there is no public address, or what to know about it. */
  publicNote?: string;
}

/** What signs a self-test delivery: the token, and the issuers the receiver trusts for that one token. */
export type SelfTestSigner = (body: Buffer) => Promise<{ token: string; issuers: readonly TrustedIssuer[] }>;

/** Every event a session emits, with its payload. */
export type ReceiverSessionEvents = {
  delivery: [record: DeliveryRecord];
  /** A verified delivery of a workflow event (its record carries the runId). */
  'verified-event': [record: DeliveryRecord];
  /** A request the receiver could not handle (answered 500). */
  failure: [record: DeliveryRecord];
  trust: [issuers: readonly TrustedIssuer[]];
  tunnel: [change: { state: TunnelState; publicUrl?: string; reconnected: boolean; changedFrom?: string }];
  /** The public path stopped carrying deliveries, carries them (first, or again), or is checked after a wake. */
  'public-path': [change: PublicPathChange];
  /** The public address moved (a tunnel reconnected under another name): the service must be told the new one. */
  'public-address-changed': [change: { from: string; to: string; message: string; said: Said }];
  'self-test': [result: PublicAddressTestResult];
  /** The history said something the user should know (a skipped line, a compaction that failed). */
  'history-warning': [message: Said];
  /** The history file cannot be written: verified deliveries are answered 503 until it can. */
  'history-write-failed': [error: Error];
  'history-written-again': [];
  /** An endpoint could not be told the receiver's address. `said`: the same as core's Said, for a face that words
   * it in the user's language (the message is its English). */
  'endpoint-warning': [message: string, said?: Said];
  warning: [message: string, said?: Said];
  started: [started: ReceiverStarted];
  stopped: [];
};

export class ReceiverSession extends TypedEmitter<ReceiverSessionEvents> {
  readonly history: DeliveryHistory;
  readonly verifier: Verifier;
  private receiver?: Receiver;
  private run?: { options: ReceiverRunOptions; url: string; registeredUrl: string; publicNote?: string };
  private lastSelfTest?: { signer: SelfTestSigner; timeoutMs?: number };
  private starting?: Promise<ReceiverStarted>;
  private pathWatch?: PublicPathWatch;
  /** The public address last seen open: a reconnection under another name is said. */
  private lastPublicUrl?: string;
  private stopping?: Promise<void>;

  constructor(private readonly options: ReceiverSessionOptions) {
    super();
    this.history = new DeliveryHistory({ ...options.history });
    this.history.on('warning', (m) => this.emit('history-warning', m));
    this.history.on('error-persisting', (e) => this.emit('history-write-failed', e));
    this.history.on('persisting-again', () => this.emit('history-written-again'));
    const { clock, keySet } = options;
    this.verifier = new Verifier({ issuers: [...(options.issuers ?? [])], clock, keySet });
  }

  /** Reads the stored history (a file another process holds, or cannot be read, rejects: see DeliveryHistory). */
  loadHistory(): ReturnType<DeliveryHistory['load']> {
    return this.history.load();
  }

  get running(): boolean {
    return this.receiver?.url !== undefined;
  }

  /** The receiver's loopback URL (with its webhook path) while it runs. */
  get url(): string | undefined {
    return this.receiver?.url;
  }

  get path(): string | undefined {
    return this.receiver?.path;
  }

  get publicUrl(): string | undefined {
    return this.run?.options.publicAddress?.url();
  }

  get publicNote(): string | undefined {
    return this.run?.publicNote;
  }

  get tunnelState(): TunnelState {
    return this.run?.options.publicAddress?.tunnelState ?? 'closed';
  }

  /** Whether the public address carries deliveries, as its last checks say; undefined when none is watched. */
  get publicPathState(): PublicPathState | undefined {
    return this.pathWatch?.state;
  }

  /** Checks the public address now (as after a wake); false when none is watched. */
  checkPublicPath(): boolean {
    this.pathWatch?.checkNow('asked');
    return this.pathWatch !== undefined;
  }

  get forwarder(): Forwarder | undefined {
    return this.run?.options.forward;
  }

  /** The issuers trusted from now on (settings changed, a sandbox restarted on another port). */
  setIssuers(issuers: readonly TrustedIssuer[]): void {
    this.verifier.setIssuers(issuers);
    this.emit('trust', this.verifier.issuers);
  }

  /** Trusts one token this toolkit signed (a replay, an edited resend, a fixture, the audit) for one delivery, judged
   * by its signer's key set alone; its record is marked signed here. The function returned withdraws it if unspent. */
  trustSignedHere(token: string, issuers: readonly TrustedIssuer[]): () => void {
    return this.verifier.trustToken(token, issuers, { once: true });
  }

  /** Sets or clears (undefined) the status answered to verified deliveries, for this run and the next. */
  setResponseOverride(status: number | undefined): void {
    this.receiver?.setResponseOverride(status);
    if (this.run) this.run.options = { ...this.run.options, respondWith: status };
  }

  /** Sets how this run's public address is watched: the watch starts again with it (its first check at once), and
   * `false` stops it. Before the address has opened, the start uses it. */
  setPathCheck(pathCheck: PublicPathCheckOptions | false): void {
    if (!this.run || !this.receiver) return;
    this.run.options = { ...this.run.options, pathCheck };
    if (this.starting && !this.pathWatch) return;
    this.pathWatch?.stop();
    this.pathWatch = undefined;
    this.startPathWatch(this.run.options, this.receiver);
  }

  /**
   * Starts the receiver, then its public address, then tells the endpoints. A receiver that listens but whose
   * public address failed stays up on loopback: the error is thrown after the session says `started`.
   */
  async start(run: ReceiverRunOptions = {}): Promise<ReceiverStarted> {
    // One at a time: a start waits for a stop under way (its port and registrations let go), and a stop for a start.
    await this.stopping;
    if (this.receiver || this.starting) throw new Error('the receiver is already running');
    this.starting = this.doStart(run);
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  private async doStart(run: ReceiverRunOptions): Promise<ReceiverStarted> {
    const receiver = new Receiver({
      verifier: this.verifier,
      clock: this.options.clock,
      host: run.host,
      allowedHosts: run.allowedHosts,
      port: run.port ?? 0,
      path: run.path ?? '/webhooks',
      maxBodyBytes: run.maxBodyBytes,
      respondWith: run.respondWith,
      forward: run.forward,
      history: this.history,
    });
    receiver.on('delivery', (r) => this.emit('delivery', r));
    receiver.on('verified-event', (e) => this.emit('verified-event', e.record));
    receiver.on('failure', (r) => this.emit('failure', r));
    const url = await receiver.start();
    const registeredUrl = addressForOthers(url, run.host, run.allowedHosts);
    this.receiver = receiver;
    this.run = { options: run, url, registeredUrl };
    let addressError: unknown;
    if (run.publicAddress) {
      try {
        const opened = await run.publicAddress.open({
          localUrl: url,
          path: receiver.path,
          setPublicHosts: (hosts) => receiver.setPublicHosts(hosts),
          tunnelChanged: (state, publicUrl, reconnected) => this.tunnelChanged(state, publicUrl, reconnected),
          warning: (m) =>
            typeof m === 'object' ? this.emit('warning', english(m), m) : this.emit('warning', String(m)),
        });
        this.run.publicNote = opened.note;
        this.startPathWatch(this.run.options, receiver);
      } catch (err) {
        addressError = err;
        this.run.publicNote = `did not open: ${(err as Error).message}`;
      }
    }
    for (const e of run.endpoints ?? [])
      await e.register(registeredUrl).catch((err: Error) => {
        const s = said("{0} was not told this receiver's address {1}: {2}", e.name, registeredUrl, saidOf(err));
        this.emit('endpoint-warning', english(s), s);
      });
    const started = { url, registeredUrl, publicUrl: this.publicUrl, publicNote: this.run.publicNote };
    // Healthy once it listens and every endpoint was told: a job that waits on /healthz misses no event.
    receiver.setReady(true);
    this.emit('started', started);
    if (addressError) throw addressError;
    return started;
  }

  /** Sends one signed delivery through the public address and watches it arrive; after a tunnel reconnects, the
   * last one run is run again. The receiver trusts that one token, whatever else it trusts. */
  async testPublicAddress(signer: SelfTestSigner, timeoutMs?: number): Promise<PublicAddressTestResult> {
    const receiver = this.receiver;
    const publicUrl = this.publicUrl;
    if (!receiver || !publicUrl)
      throw new Error(
        receiver
          ? `The receiver has no public address (${this.publicNote ?? 'none chosen'}).`
          : 'The webhook receiver is not running.',
      );
    this.lastSelfTest = { signer, timeoutMs };
    let untrust: (() => void) | undefined;
    const result = await testPublicAddress({
      publicUrl,
      receiver,
      clock: this.options.clock,
      timeoutMs,
      sign: async (body) => {
        const { token, issuers } = await signer(body);
        // Trusted for as long as the test runs (its probe is known by its signed id, never forwarded).
        untrust = this.verifier.trustToken(token, issuers);
        return token;
      },
    }).finally(() => untrust?.());
    this.emit('self-test', result);
    return result;
  }

  /** Stops the public address, tells the endpoints, then stops the receiver (its answers in flight finish). */
  stop(): Promise<void> {
    const starting = this.starting;
    this.stopping ??= (async () => {
      await starting?.catch(() => undefined);
      await this.doStop();
    })().finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  /** The end of the session: the receiver stopped, then the history written out and its file let go. */
  async close(): Promise<void> {
    await this.stop();
    await this.history.close();
  }

  private async doStop(): Promise<void> {
    const receiver = this.receiver;
    const run = this.run;
    this.receiver = undefined;
    this.run = undefined;
    this.lastSelfTest = undefined;
    this.pathWatch?.stop();
    this.pathWatch = undefined;
    this.lastPublicUrl = undefined;
    if (!receiver || !run) return;
    run.options.publicAddress?.close();
    receiver.setReady(false);
    for (const e of run.options.endpoints ?? [])
      await e.unregister(run.registeredUrl).catch((err: Error) => {
        const s = said('{0} was not told that {1} stopped: {2}', e.name, run.registeredUrl, saidOf(err));
        this.emit('endpoint-warning', english(s), s);
      });
    await receiver.stop();
    await run.options.forward?.close();
    this.emit('stopped');
  }

  /** Watches the public address end to end while this run has one. */
  private startPathWatch(run: ReceiverRunOptions, receiver: Receiver): void {
    this.lastPublicUrl = this.publicUrl;
    if (!run.publicAddress || !this.publicUrl || run.pathCheck === false) return;
    this.pathWatch = watchPublicPath({
      clock: this.options.clock,
      address: run.publicAddress,
      probes: receiver.pathProbes,
      options: run.pathCheck ?? {},
      changed: (change) => this.emit('public-path', change),
    });
    this.pathWatch.start();
  }

  private tunnelChanged(state: TunnelState, publicUrl: string | undefined, reconnected: boolean): void {
    const from = this.lastPublicUrl;
    const changedFrom = reconnected && from && publicUrl && publicUrl !== from ? from : undefined;
    if (state === 'open' && publicUrl) this.lastPublicUrl = publicUrl;
    this.emit('tunnel', { state, publicUrl, reconnected, ...(changedFrom ? { changedFrom } : {}) });
    if (changedFrom && publicUrl)
      this.emit('public-address-changed', {
        from: changedFrom,
        to: publicUrl,
        message: english(addressChangedSaid(changedFrom, publicUrl)),
        said: addressChangedSaid(changedFrom, publicUrl),
      });
    // A new path: checked at once, whether or not its name changed.
    if (reconnected) this.pathWatch?.checkNow('asked');
    // A reconnected tunnel is a new path, maybe a new name: a self-test that ran is run again.
    const last = this.lastSelfTest;
    if (reconnected && last)
      void this.testPublicAddress(last.signer, last.timeoutMs).catch((err: Error) => {
        const s = said('the public address test after the tunnel reconnected failed: {0}', saidOf(err));
        this.emit('warning', english(s), s);
      });
  }
}
