// Where the service reaches a loopback receiver from: a provider opens the public address for one run of the
// receiver and closes it at the end. Core ships a fixed URL (the user's own tunnel or proxy) and localtunnel; the
// extension adds VS Code's port forwarding and its consent prompts.
import { saidOf, type SaidValue } from '../presentation/said';
import type { Clock } from '../time/clock';
import { Tunnel, type TunnelState } from '../tunnel/Tunnel';

/** What a provider may do to the run it serves. */
export interface PublicAddressContext {
  /** The receiver's loopback address (with its webhook path). */
  localUrl: string;
  /** The webhook path, appended to a tunnel's public origin. */
  path: string;
  /** Requests naming these hosts are answered too (the receiver checks Host). */
  setPublicHosts(hosts: readonly string[]): void;
  /** The tunnel changed state; `reconnected` when it is open again after a drop (a new path: test it again). */
  tunnelChanged(state: TunnelState, publicUrl: string | undefined, reconnected: boolean): void;
  /** Something the user should know: core's Said, or English from a caller outside core's messages. */
  warning(message: SaidValue): void;
}

export interface PublicAddressOpened {
  /** The public URL of the webhook path, when there is one. */
  url?: string;
  /** Why there is none, or what to know about it. */
  note?: string;
}

export interface PublicAddressProvider {
  /** What kind of address this is, as the user chose it (e.g. `url`, `localtunnel`, `vscode`). */
  readonly source: string;
  open(ctx: PublicAddressContext): Promise<PublicAddressOpened>;
  /** The public URL of the webhook path now (a tunnel may move), or undefined. */
  url(): string | undefined;
  readonly tunnelState: TunnelState;
  /** The path through it stopped carrying deliveries though nothing failed that it saw (a tunnel server that forgot
   * this client while the machine slept): open it anew, when it can. */
  renew?(why: SaidValue): void;
  close(): void;
}

/** A public address of the user's own (ngrok, cloudflared, a reverse proxy) that forwards to the receiver's port. */
export class FixedPublicAddress implements PublicAddressProvider {
  readonly source = 'url';
  readonly tunnelState: TunnelState = 'closed';
  constructor(private readonly publicUrl: string) {}

  async open(ctx: PublicAddressContext): Promise<PublicAddressOpened> {
    ctx.setPublicHosts([new URL(this.publicUrl).hostname]);
    return { url: this.publicUrl };
  }

  url(): string | undefined {
    return this.publicUrl;
  }

  close(): void {}
}

export interface LocaltunnelAddressOptions {
  /** The localtunnel server (a self-hosted one, or the public default). */
  host?: string;
  subdomain?: string;
  clock: Clock;
}

/** A localtunnel in front of the receiver, reconnecting when it drops (a third-party relay: opened only by consent). */
export class LocaltunnelAddress implements PublicAddressProvider {
  readonly source = 'localtunnel';
  private tunnel?: Tunnel;
  private path = '';

  constructor(private readonly options: LocaltunnelAddressOptions) {}

  get tunnelState(): TunnelState {
    return this.tunnel?.state ?? 'closed';
  }

  url(): string | undefined {
    return this.tunnel?.publicUrl ? this.tunnel.publicUrl + this.path : undefined;
  }

  async open(ctx: PublicAddressContext): Promise<PublicAddressOpened> {
    this.path = ctx.path;
    const tunnel = new Tunnel({
      localPort: Number(new URL(ctx.localUrl).port),
      host: this.options.host,
      subdomain: this.options.subdomain,
      clock: this.options.clock,
    });
    let dropped = false;
    tunnel.on('state', (state: TunnelState) => {
      if (tunnel.publicUrl) ctx.setPublicHosts([new URL(tunnel.publicUrl).hostname]);
      const reconnected = state === 'open' && dropped;
      if (state === 'reconnecting') dropped = true;
      ctx.tunnelChanged(state, this.url(), reconnected);
    });
    tunnel.on('warning', (err: Error) => ctx.warning(saidOf(err)));
    this.tunnel = tunnel;
    try {
      await tunnel.open();
    } catch (err) {
      this.tunnel = undefined;
      tunnel.close();
      throw err;
    }
    return { url: this.url() };
  }

  renew(why: SaidValue): void {
    this.tunnel?.renew(why);
  }

  close(): void {
    this.tunnel?.close();
    this.tunnel = undefined;
  }
}
