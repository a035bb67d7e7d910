// The public tunnel in front of the loopback receiver, as a state machine: closed → opening → open →
// reconnecting → (open | closed). We send the opening request ourselves (with a timeout) and use the
// localtunnel client's TunnelCluster only for the TCP piping: the client's own opening loop retries forever
// when the server refuses, and its cluster gives up for good when the server disappears (docs/design.md).
// local_host is never set: it routes bodies through a text transform that corrupts non-UTF-8 bytes.
import { getDefaultAutoSelectFamily, type Socket } from 'node:net';
import { lookup } from 'node:dns/promises';
import type TunnelCluster from '@n8n/localtunnel/lib/TunnelCluster';
import { httpRequest } from '../http/request';
import type { Clock, TimerHandle } from '../time/clock';
import { TypedEmitter } from '../events/TypedEmitter';
import { said, saidOf, SaidError, type Said, type SaidValue } from '../presentation/said';

export type TunnelState = 'closed' | 'opening' | 'open' | 'reconnecting';

export interface TunnelOptions {
  localPort: number;
  /** The localtunnel server; a self-hosted one, or the public default. */
  host?: string;
  subdomain?: string;
  clock: Clock;
  openTimeoutMs?: number;
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
}

const DEFAULT_TUNNEL_HOST = 'https://localtunnel.me';

interface OpenInfo {
  id: string;
  port: number;
  max_conn_count?: number;
  url: string;
}

/** The tunnel's own failure: core's Said (English in the CLI, worded in the extension). */
export class TunnelError extends SaidError {
  constructor(message: Said) {
    super(message);
    this.name = 'TunnelError';
  }
}

/** The tunnel client connects to "localhost" while the receiver listens on 127.0.0.1 only. Where localhost
 * resolves to ::1 first, only Node's happy-eyeballs connect (autoSelectFamily, on by default since Node 20) falls
 * back to 127.0.0.1. Returns the warning to show when that fallback is off and ::1 comes first, else undefined. */
export async function localhostFallbackWarning(
  resolve: (host: string) => Promise<{ family: number }> = (host) => lookup(host),
  autoSelectFamily: boolean = getDefaultAutoSelectFamily(),
): Promise<Said | undefined> {
  if (autoSelectFamily) return undefined;
  const first = await resolve('localhost').catch(() => undefined);
  if (first?.family !== 6) return undefined;
  return said(
    '"localhost" resolves to ::1 first here and Node\'s happy-eyeballs connect (autoSelectFamily) is off, so the tunnel cannot reach the receiver on 127.0.0.1: deliveries through it will fail. Map localhost to 127.0.0.1 first in the hosts file, or run without --no-network-family-autoselection.',
  );
}

export interface TunnelEvents {
  state: [TunnelState];
  /** Something the user should know, the tunnel going on (a dropped connection, a failed reconnect). */
  warning: [Error];
  /** The next reconnect, in milliseconds. */
  'reconnect-scheduled': [number];
  /** A request that came through the tunnel. */
  request: [{ method: string; path: string }];
}

export class Tunnel extends TypedEmitter<TunnelEvents> {
  private currentState: TunnelState = 'closed';
  private cluster?: TunnelCluster;
  private readonly sockets = new Set<Socket>();
  private reconnectTimer?: TimerHandle;
  private attempt = 0;
  private clientId?: string;
  publicUrl?: string;

  constructor(private readonly options: TunnelOptions) {
    super();
  }

  get state(): TunnelState {
    return this.currentState;
  }

  get host(): string {
    return (this.options.host ?? DEFAULT_TUNNEL_HOST).replace(/\/+$/, '');
  }

  /** Opens the tunnel; resolves with the public URL, or rejects (timeout, refusal) and returns to closed. */
  async open(): Promise<string> {
    if (this.currentState === 'open' && this.publicUrl) return this.publicUrl;
    this.setState('opening');
    void localhostFallbackWarning().then((w) => w && this.emit('warning', new TunnelError(w)));
    try {
      return await this.connect(this.options.subdomain);
    } catch (err) {
      this.teardown();
      this.setState('closed');
      throw err;
    }
  }

  close(): void {
    this.options.clock.clearTimeout(this.reconnectTimer);
    this.teardown();
    this.publicUrl = undefined;
    this.setState('closed');
  }

  private async connect(subdomain: string | undefined): Promise<string> {
    const url = `${this.host}/${subdomain ? encodeURIComponent(subdomain) : '?new'}`;
    let res;
    try {
      res = await httpRequest({
        method: 'GET',
        url,
        timeoutMs: this.options.openTimeoutMs ?? 15_000,
        maxResponseBytes: 64 * 1024,
      });
    } catch (err) {
      throw new TunnelError(said('the tunnel server {0} did not open a tunnel: {1}', this.host, saidOf(err)));
    }
    let info: OpenInfo;
    try {
      info = JSON.parse(res.body.toString('utf8')) as OpenInfo;
    } catch {
      throw new TunnelError(said('the tunnel server {0} answered {1} without JSON', this.host, res.status));
    }
    if (res.status !== 200 || typeof info.url !== 'string' || typeof info.port !== 'number')
      throw new TunnelError(
        said(
          'the tunnel server {0} refused ({1}): {2}',
          this.host,
          res.status,
          String((info as { message?: string }).message ?? '') || said('no tunnel information'),
        ),
      );
    // Loaded when a tunnel opens, not with the receiver: localtunnel's client and its dependencies are read only by
    // those who chose it (wfs mcp and wfs listen without --tunnel start sooner).
    const { default: Cluster } = await import('@n8n/localtunnel/lib/TunnelCluster');
    if (this.currentState === 'closed') throw new TunnelError(said('the tunnel was closed while opening'));
    this.clientId = info.id;
    const remoteHost = new URL(this.host).hostname;
    const cluster = new Cluster({
      name: info.id,
      url: info.url,
      max_conn: Math.max(1, Math.min(info.max_conn_count ?? 1, 10)),
      remote_host: remoteHost,
      remote_port: info.port,
      local_port: this.options.localPort,
    });
    this.cluster = cluster;
    // An error listener is always attached: an unhandled 'error' would crash the extension host.
    cluster.on('error', (err) => this.dropped(cluster, err));
    cluster.on('dead', () => {
      if (this.cluster === cluster && this.currentState !== 'closed') cluster.open();
    });
    cluster.on('request', (r) => this.emit('request', r));
    await new Promise<void>((resolve, reject) => {
      let opened = false;
      cluster.on('open', (socket) => {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        if (!opened) {
          opened = true;
          resolve();
        }
      });
      cluster.once('error', (err) => {
        if (!opened)
          reject(new TunnelError(said("cannot connect to the tunnel server's port {0}: {1}", info.port, err.message)));
      });
      for (let i = 0; i < Math.max(1, Math.min(info.max_conn_count ?? 1, 10)); i++) cluster.open();
    });
    this.attempt = 0;
    this.publicUrl = info.url;
    this.setState('open');
    return info.url;
  }

  /** The path through the tunnel stopped carrying requests though no socket failed (a server that dropped this client
   * while the machine slept): reconnect as after a drop, with the same backoff. */
  renew(why: SaidValue): void {
    if (this.cluster && this.currentState === 'open')
      this.dropped(this.cluster, new TunnelError(typeof why === 'object' ? why : said('{0}', why)));
  }

  /** The server went away or a socket failed: reconnect with backoff, keeping the same id when the server allows. */
  private dropped(cluster: TunnelCluster, err: Error): void {
    if (this.cluster !== cluster || this.currentState !== 'open') return;
    this.emit('warning', err);
    this.teardown();
    this.setState('reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = Math.min(
      this.options.reconnectMaxMs ?? 30_000,
      (this.options.reconnectBaseMs ?? 1000) * 2 ** this.attempt++,
    );
    this.emit('reconnect-scheduled', delay);
    this.reconnectTimer = this.options.clock.setTimeout(() => {
      if (this.currentState !== 'reconnecting') return;
      this.connect(this.options.subdomain ?? this.clientId).catch((e: Error) => {
        this.emit('warning', e);
        this.teardown();
        if (this.currentState === 'reconnecting') this.scheduleReconnect();
      });
    }, delay);
  }

  private teardown(): void {
    const cluster = this.cluster;
    this.cluster = undefined;
    cluster?.removeAllListeners('open');
    cluster?.removeAllListeners('dead');
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  private setState(state: TunnelState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.emit('state', state);
  }
}
