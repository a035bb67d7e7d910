// A small localtunnel-compatible server (docs/design.md), loopback only: GET /?new or /{id} opens a client slot
// with its own TCP port; a request whose Host is {id}.<anything> is written onto one of the client's sockets
// and the raw response is relayed back.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { untilTrue } from './eventLoop';

interface Client {
  id: string;
  tcp: TcpServer;
  idle: Socket[];
  waiting: ((s: Socket) => void)[];
}

export class LocaltunnelServer {
  private http?: Server;
  private readonly clients = new Map<string, Client>();
  openRequests = 0;
  /** When set, the opening request is answered with this status (a refusing server). */
  refuseWith?: number;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(port = 0): Promise<string> {
    this.http = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.http!.listen(port, '127.0.0.1', r));
    this.port = (this.http.address() as AddressInfo).port;
    return this.url;
  }

  /** Stops everything, dropping every client socket, as a server that disappears. */
  async stop(): Promise<void> {
    for (const c of this.clients.values()) {
      for (const s of c.idle) s.destroy();
      c.tcp.close();
    }
    this.clients.clear();
    this.http?.closeAllConnections();
    await new Promise<void>((r) => (this.http ? this.http.close(() => r()) : r()));
  }

  /** Resolves once the client `id` has at least one idle socket. */
  async ready(id: string): Promise<void> {
    await untilTrue(
      () => (this.clients.get(id)?.idle.length ?? 0) > 0,
      () => `tunnel client ${id} never connected`,
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = (req.headers.host ?? '').split(':')[0];
    const sub = host.split('.')[0];
    if (this.clients.has(sub) && host.includes('.')) return this.relay(this.clients.get(sub)!, req, res);
    if (req.method === 'GET' && (req.url === '/?new' || /^\/[a-z0-9-]+$/.test(req.url ?? ''))) {
      this.openRequests++;
      if (this.refuseWith) {
        res.writeHead(this.refuseWith, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ message: 'no tunnels for you' }));
      }
      const id = req.url === '/?new' ? randomBytes(4).toString('hex') : req.url!.slice(1);
      const client = this.clients.get(id) ?? (await this.newClient(id));
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({
          id,
          port: (client.tcp.address() as AddressInfo).port,
          max_conn_count: 2,
          url: `http://${id}.tunnel.test:${this.port}`,
        }),
      );
    }
    res.writeHead(404);
    res.end();
  }

  private async newClient(id: string): Promise<Client> {
    const client: Client = { id, tcp: createTcpServer(), idle: [], waiting: [] };
    client.tcp.on('connection', (s) => {
      s.on('error', () => undefined);
      s.once('close', () => (client.idle = client.idle.filter((x) => x !== s)));
      const w = client.waiting.shift();
      if (w) w(s);
      else client.idle.push(s);
    });
    await new Promise<void>((r) => client.tcp.listen(0, '127.0.0.1', r));
    this.clients.set(id, client);
    return client;
  }

  private async relay(client: Client, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const socket = client.idle.shift() ?? (await new Promise<Socket>((r) => client.waiting.push(r)));
    const headers = Object.entries(req.headers)
      .filter(([k]) => k !== 'connection')
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
      .join('\r\n');
    socket.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers}\r\nconnection: close\r\n\r\n`);
    socket.write(Buffer.concat(chunks));
    const out: Buffer[] = [];
    socket.on('data', (d: Buffer) => out.push(d));
    socket.once('close', () => {
      // Relay the raw HTTP response bytes as they came.
      res.socket?.end(Buffer.concat(out));
    });
  }
}
