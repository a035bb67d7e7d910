// An HTTP proxy on loopback that records what it is asked to reach: CONNECT tunnels (what undici's ProxyAgent uses
// for http and https targets alike) and absolute-form requests. Hosts under .test resolve to 127.0.0.1 here only,
// so a client that reaches one through it proves it used the proxy: nothing else can resolve that name.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export class RecordingProxy {
  /** CONNECT targets, as host:port. */
  readonly connects: string[] = [];
  /** Absolute-form requests, as METHOD url. */
  readonly forwarded: string[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => this.tunnel(req, client, head));
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return this.url;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private resolve(host: string): string {
    return host.endsWith('.test') || host === 'localhost' ? '127.0.0.1' : host;
  }

  private tunnel(req: IncomingMessage, client: Socket, head: Buffer): void {
    const target = req.url ?? '';
    this.connects.push(target);
    const i = target.lastIndexOf(':');
    const upstream = connect(Number(target.slice(i + 1)), this.resolve(target.slice(0, i)), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.sockets.add(upstream);
    upstream.once('close', () => this.sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    this.forwarded.push(`${req.method} ${req.url}`);
    const u = new URL(req.url ?? '');
    const up = request(
      {
        host: this.resolve(u.hostname),
        port: u.port || 80,
        path: u.pathname + u.search,
        method: req.method,
        headers: req.headers,
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  }
}
