// The receiver end to end: the sandbox signs and delivers, the receiver verifies, dedupes, forwards and logs.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { DeliveryLog, type DeliveryRecord } from '../../../src/core/webhooks/DeliveryLog';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { RecordingServer } from '../helpers/recordingServer';
import { rawRequest } from '../helpers/rawHttp';

const EVENT = (webhookId: string) => ({ webhookId, topic: 'workflow/completed', subTopic: 'status:workflow/completed', tenantId: 't', triggeredAt: '2026-01-15T12:00:00.1234567Z', actorId: 'a', data: { runId: 'wfrun_abc' } });
const ID1 = '11111111-1111-4111-8111-111111111111';

describe('Receiver', () => {
  let f: SandboxFixture;
  let receiver: Receiver;
  let url: string;
  let events: unknown[];

  const make = async (extra: Partial<ConstructorParameters<typeof Receiver>[0]> = {}) => {
    await receiver?.stop();
    const verifier = new Verifier({ issuers: [{ issuer: f.info.issuer, jwksUrl: f.info.jwksUrl, audience: f.info.audience }], clock: f.clock });
    receiver = new Receiver({ verifier, clock: f.clock, ...extra });
    receiver.on('verified-event', (e: { event: unknown }) => events.push(e.event));
    url = await receiver.start();
  };
  /** Posts a body signed by the sandbox (or with the given Authorization). */
  const deliver = async (body: Buffer | string, auth?: string, to = url) => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const token = auth ?? `Bearer ${await f.sandbox.context.signer.sign(bytes)}`;
    return rawRequest(to, { method: 'POST', body: bytes, headers: { 'content-type': 'application/json', authorization: token } });
  };

  beforeEach(async () => {
    f = await startSandbox();
    events = [];
    await make();
  });
  afterEach(async () => {
    await receiver.stop();
    await f.stop();
  });

  it('listens on loopback only', () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
  });

  it('verifies a test webhook sent by the sandbox end to end and logs it without the raw token', async () => {
    const { access_token } = await f.signIn();
    const r = await f.call('/test-webhook', {
      token: access_token,
      json: { address: url, testData: EVENT(ID1) },
      headers: { 'x-svc-topic': 'workflow/completed', 'x-svc-sub-topic': 's:w/c', 'x-svc-tenant-id': 't', 'x-svc-webhook-id': ID1, 'x-svc-triggered-at': '2026-01-15T12:00:00.1234567Z' },
    });
    assert.equal(r.json().receiverStatus, 200);
    const rec = receiver.log.all()[0];
    assert.equal(rec.verified, true);
    assert.equal(rec.checks.filter((c) => c.ok).length, 7);
    assert.equal(rec.webhookId, ID1);
    assert.equal(rec.runId, 'wfrun_abc');
    assert.match(rec.headers.authorization, /^Bearer <redacted, \d+ characters>$/);
    assert.equal(rec.jwt?.claims?.iss, f.info.issuer);
    assert.doesNotMatch(JSON.stringify(rec), /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/, 'no compact JWT anywhere in the record');
  });

  it('receives the sandbox workflow events, tied to the workflow runId', async () => {
    await f.control('POST', 'webhooks', { url });
    const { access_token } = await f.signIn();
    const start = await f.call(`/workflow-services-ws/resources/v1/sessions/${f.info.sessions.staged}/workflows`, { token: access_token, json: { product: f.info.products[0] } });
    const runId = start.json().workflow.runId;
    await new Promise<void>((r) => receiver.once('delivery', () => r()));
    const rec = receiver.log.query({ runId })[0];
    assert.equal(rec.status, 200);
    assert.equal(rec.topic, 'workflow/started');
  });

  it('answers a duplicate webhookId 200, flagged, not dispatched again', async () => {
    assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).status, 200);
    const again = await deliver(JSON.stringify(EVENT(ID1)));
    assert.equal(again.status, 200);
    assert.equal(receiver.log.all()[1].duplicate, true);
    assert.equal(events.length, 1);
  });

  it('a forged delivery cannot poison the dedupe set', async () => {
    const forged = await deliver(JSON.stringify(EVENT(ID1)), 'Bearer a.b.c');
    assert.equal(forged.status, 403);
    const genuine = await deliver(JSON.stringify(EVENT(ID1)));
    assert.equal(genuine.status, 200);
    assert.equal(receiver.log.all()[1].duplicate, false);
    assert.equal(events.length, 1);
  });

  it('refuses: no token 403, wrong path 404, GET 405, oversized 413, verified non-JSON 400', async () => {
    assert.equal((await rawRequest(url, { method: 'POST', body: '{}' })).status, 403);
    assert.equal((await deliver('{}', undefined, url.replace('/webhooks', '/other'))).status, 404);
    assert.equal((await rawRequest(url)).status, 405);
    await make({ maxBodyBytes: 1000 });
    assert.equal((await deliver('x'.repeat(2000))).status, 413);
    assert.equal((await deliver(Buffer.from([0xff, 0x00, 0x7b]))).status, 400);
    assert.deepEqual(receiver.log.all().map((r: DeliveryRecord) => r.status), [413, 400]);
  });

  it('the response override rehearses retries: 500 is not recorded as processed, so the resend is not a duplicate', async () => {
    receiver.setResponseOverride(500);
    assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).status, 500);
    receiver.setResponseOverride(undefined);
    assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).status, 200);
    assert.equal(receiver.log.all()[1].duplicate, false);
    assert.throws(() => receiver.setResponseOverride(99), RangeError);
  });

  it('drops a client that stalls in its headers or its body (header and body timeouts)', async () => {
    await make({ headersTimeoutMs: 300, bodyTimeoutMs: 600, timeoutCheckIntervalMs: 50 });
    const { connect } = await import('node:net');
    const u = new URL(url);
    for (const partial of ['POST /webhooks HTTP/1.1\r\nHost: x\r\n', 'POST /webhooks HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":']) {
      const socket = connect(Number(u.port), '127.0.0.1');
      socket.on('error', () => undefined);
      const answer: Buffer[] = [];
      socket.on('data', (d: Buffer) => answer.push(d));
      socket.write(partial);
      await new Promise<void>((r) => socket.once('close', () => r())); // the server closes it: the behaviour under test
      assert.match(Buffer.concat(answer).toString(), /^HTTP\/1\.1 408 /, "answered 408 Request Timeout");
    }
  });

  it('forwards the original bytes and headers to the app and answers with its status', async () => {
    const app = new RecordingServer();
    const appUrl = (await app.start()) + '/app/hooks';
    try {
      await make({ forwardTo: appUrl });
      const body = Buffer.from('{ "webhookId":"22222222-2222-4222-8222-222222222222" ,"topic":"t/x" }');
      assert.equal((await deliver(body)).status, 200);
      assert.deepEqual(app.requests[0].body, body);
      assert.match(String(app.requests[0].headers.authorization), /^Bearer ey/);
      assert.equal(app.requests[0].url, '/app/hooks');
      const fwd = receiver.log.all()[0].forward!;
      assert.equal(fwd.status, 200);
      assert.ok(fwd.latencyMs >= 0);
      app.respond = () => 500;
      assert.equal((await deliver('{"webhookId":"33333333-3333-4333-8333-333333333333"}')).status, 500);
    } finally {
      await app.stop();
    }
  });

  it('answers 502 and records the error when the forward target is down', async () => {
    await make({ forwardTo: 'http://127.0.0.1:9/down' });
    assert.equal((await deliver('{"webhookId":"44444444-4444-4444-8444-444444444444"}')).status, 502);
    assert.ok(receiver.log.all()[0].forward?.error);
  });
});

describe('DeliveryLog', () => {
  const rec = (i: number, extra: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
    id: `r${i}`, receivedAt: '2026-01-15T12:00:00.000Z', method: 'POST', path: '/webhooks', headers: { 'x-n': String(i) },
    rawBodyBase64: Buffer.from(`{"n":${i},"word":"needle${i}"}`).toString('base64'), bodyIsUtf8: true, checks: [], verified: true,
    status: 200, durationMs: 1, duplicate: false, ...extra,
  });

  it('is bounded by its cap and queryable by topic, status, runId, verified and text', () => {
    const log = new DeliveryLog(3);
    for (let i = 0; i < 5; i++) log.add(rec(i, { topic: i % 2 ? 'a/odd' : 'a/even', runId: `run${i}`, status: i === 4 ? 403 : 200, verified: i !== 4 }));
    assert.deepEqual(log.all().map((r) => r.id), ['r2', 'r3', 'r4']);
    assert.deepEqual(log.query({ topic: 'a/even' }).map((r) => r.id), ['r2', 'r4']);
    assert.deepEqual(log.query({ status: 403 }).map((r) => r.id), ['r4']);
    assert.deepEqual(log.query({ runId: 'run3' }).map((r) => r.id), ['r3']);
    assert.deepEqual(log.query({ verified: false }).map((r) => r.id), ['r4']);
    assert.deepEqual(log.query({ text: 'NEEDLE3' }).map((r) => r.id), ['r3']);
  });

  it('persists as JSON lines and reloads across restarts, skipping a torn line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-log-')), 'deliveries.jsonl');
    const a = new DeliveryLog(10, file);
    for (let i = 0; i < 4; i++) a.add(rec(i));
    await a.flush();
    const { appendFileSync } = await import('node:fs');
    appendFileSync(file, '{"torn":');
    const b = new DeliveryLog(3, file);
    assert.equal(await b.load(), 3);
    assert.deepEqual(b.all().map((r) => r.id), ['r1', 'r2', 'r3']);
  });

  it('keeps the file bounded at twice the cap', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-log-')), 'deliveries.jsonl');
    const log = new DeliveryLog(5, file);
    for (let i = 0; i < 23; i++) log.add(rec(i));
    await log.flush();
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    assert.ok(lines.length <= 10, `${lines.length} lines`);
    assert.equal(JSON.parse(lines.at(-1)!).id, 'r22');
  });

  it('a write that fails (e.g. full disk) is reported and nothing is lost in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-log-'));
    const log = new DeliveryLog(10, dir); // a directory cannot be appended to
    const errors: Error[] = [];
    log.on('error-persisting', (e: Error) => errors.push(e));
    log.add(rec(1));
    await log.flush();
    assert.equal(errors.length, 1);
    assert.equal(log.all().length, 1);
  });
});
