// A loopback server that answers from a script (status, headers, body per request) and records every request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Recorded } from './recordingServer';

export interface ScriptedReply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export class ScriptedServer {
  readonly requests: Recorded[] = [];
  private server?: Server;
  /** Replies in order; the last one repeats. */
  script: ScriptedReply[] = [{ status: 200 }];
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        this.requests.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
          arrivedAt: performance.now(),
        });
        const reply = this.script[Math.min(this.requests.length - 1, this.script.length - 1)];
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

export const json = (status: number, body: unknown, type = 'application/json'): ScriptedReply => ({
  status,
  headers: { 'content-type': type },
  body: JSON.stringify(body),
});
