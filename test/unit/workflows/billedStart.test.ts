// The billed start, judged by what happened to its own request on a real loopback socket: started, not sent, or
// outcome unknown (a stop after it was written, a lost answer, a 5xx). Each face only renders these.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AccessTokenProvider } from '../../../src/core/auth/TokenManager';
import { ManualClock } from '../helpers/manualClock';
import { WorkflowClient } from '../../../src/core/workflows/WorkflowClient';
import { startBilledWorkflow, type SendStart } from '../../../src/core/workflows/billedStart';
import type { StartResult } from '../../../src/core/workflows/WorkflowClient';
import { NotEntitled } from '../../../src/core/http/serviceErrors';
import { TransportError } from '../../../src/core/http/request';
import { untilTrue as until } from '../helpers/eventLoop';

const tokens: AccessTokenProvider = {
  getAccessToken: async () => 'token',
  freshAccessToken: async () => 'token',
};

const WORKFLOW = {
  workflow: {
    workflowId: 'wf_1',
    runId: 'wfrun_1',
    status: 'processing',
    sessionId: 'sess-1',
    product: { service: 'Appraisal', model: 'Standard' },
    productType: 'Appraisal',
    productName: 'Standard',
    reconfirmAvailable: false,
  },
  messages: [{ code: 'ACCEPTED', text: 'ok', timestamp: '2026-01-15T12:00:00Z' }],
  links: { self: { href: 'x' }, reconfirm: { href: 'x', method: 'POST' } },
};

/** A server whose handler the test sets per case; it records the bodies that arrived whole. */
class StartServer {
  server!: Server;
  url = '';
  bodies: string[] = [];
  sockets = new Set<Socket>();
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_q, res) => res.end();
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.bodies.push(body);
        this.handle(req, res, body);
      });
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/workflow-services-ws`;
  }
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

describe('startBilledWorkflow: started, not sent, or outcome unknown, from its own request', () => {
  let server: StartServer;
  let client: WorkflowClient;
  const req = {
    sessionId: 'sess-1',
    product: { service: 'Appraisal', model: 'Standard' },
    correlationId: 'order-42',
  };
  const send: SendStart<StartResult> = (r, o) => client.start(r, o);

  beforeEach(async () => {
    server = new StartServer();
    await server.start();
    client = new WorkflowClient({ baseUrl: server.url, tokens, clock: new ManualClock(), timeoutMs: 5_000 });
  });
  afterEach(() => server.stop());

  it('a 202 is Started with the service answer and the correlationId sent', async () => {
    server.handle = (_q, res) =>
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify(WORKFLOW));
    const out = await startBilledWorkflow(send, req);
    assert.equal(out.kind, 'started');
    assert.equal(out.kind === 'started' && out.result.workflow.workflowId, 'wf_1');
    assert.equal(JSON.parse(server.bodies[0]!).correlationId, 'order-42');
  });

  it('a stop after the whole start reached the server is OutcomeUnknown (stopped-after-send), at once', async () => {
    server.handle = () => undefined; // holds the answer
    const stop = new AbortController();
    const pending = startBilledWorkflow(send, req, stop.signal);
    await until(() => server.bodies.length === 1);
    stop.abort();
    const out = await pending;
    assert.deepEqual(
      { kind: out.kind, cause: out.kind === 'outcome-unknown' && out.cause, correlationId: out.correlationId },
      { kind: 'outcome-unknown', cause: 'stopped-after-send', correlationId: 'order-42' },
    );
  });

  it('a stop before anything was written is NotSent, and nothing reaches the server', async () => {
    // A server that accepts the connection and never reads: the stop comes while the token is still being read.
    let release!: (t: string) => void;
    const slowTokens: AccessTokenProvider = {
      getAccessToken: () => new Promise<string>((r) => (release = r)),
      freshAccessToken: async () => 'token',
    };
    client = new WorkflowClient({ baseUrl: server.url, tokens: slowTokens, clock: new ManualClock() });
    const stop = new AbortController();
    const pending = startBilledWorkflow(send, req, stop.signal);
    await until(() => release !== undefined);
    stop.abort();
    const out = await pending;
    assert.equal(out.kind, 'not-sent');
    release('token');
    await new Promise((r) => setImmediate(r));
    assert.equal(server.bodies.length, 0);
  });

  it('a stop during the wait after a 429 is NotSent: the 4xx started nothing', async () => {
    const clock = new ManualClock();
    client = new WorkflowClient({ baseUrl: server.url, tokens, clock });
    server.handle = (_q, res) => res.writeHead(429).end();
    const stop = new AbortController();
    const pending = startBilledWorkflow(send, req, stop.signal);
    await until(() => server.bodies.length === 1 && clock.pendingCount > 0);
    stop.abort();
    assert.equal((await pending).kind, 'not-sent');
  });

  it('a connection cut after the start was written is OutcomeUnknown (answer-lost)', async () => {
    server.handle = (q) => q.socket.destroy();
    const out = await startBilledWorkflow(send, req);
    assert.equal(out.kind === 'outcome-unknown' && out.cause, 'answer-lost');
    assert.ok(out.kind === 'outcome-unknown' && out.error instanceof TransportError);
  });

  it('a 500 is OutcomeUnknown (service-error) with the service error kept', async () => {
    server.handle = (_q, res) =>
      res
        .writeHead(500, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ type: 'about:blank', title: 'x', status: 500, instance: '/i/1' }));
    const out = await startBilledWorkflow(send, req);
    assert.equal(out.kind === 'outcome-unknown' && out.cause, 'service-error');
    assert.equal(out.kind === 'outcome-unknown' && (out.error as { status?: number }).status, 500);
  });

  it('nothing listening: the refused connection is thrown, never called unknown', async () => {
    await server.stop();
    await assert.rejects(startBilledWorkflow(send, req), (e: unknown) => e instanceof TransportError);
    server = new StartServer();
    await server.start();
  });

  it('a refusal (403 entitlement after the retry) is thrown as the service error: nothing was started', async () => {
    server.handle = (_q, res) => res.writeHead(403, { 'content-type': 'application/json' }).end('{}');
    await assert.rejects(startBilledWorkflow(send, req), (e: unknown) => e instanceof NotEntitled);
  });
});
