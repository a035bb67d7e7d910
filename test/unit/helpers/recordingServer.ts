// A loopback HTTP server that records every request and answers as told; waiting is event-driven, never timed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the body had arrived. */
  arrivedAt: number;
}

export class RecordingServer {
  readonly requests: Recorded[] = [];
  private server?: Server;
  private waiters: { count: number; resolve: () => void }[] = [];
  /** Status to answer; a function sees the request number (1-based). */
  respond: (n: number, req: Recorded) => number = () => 200;
  /** While set, answers wait for it to resolve (a slow app, released by the test rather than by a timer). */
  gate?: Promise<void>;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const rec: Recorded = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
          arrivedAt: performance.now(),
        };
        this.requests.push(rec);
        const status = this.respond(this.requests.length, rec);
        void (this.gate ?? Promise.resolve()).then(() => {
          res.statusCode = status;
          res.end();
        });
        this.waiters = this.waiters.filter((w) => (this.requests.length >= w.count ? (w.resolve(), false) : true));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
