// The webhook test endpoint (spec: Endpoints 3): headers required, testData sent as the body, signed delivery.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { RecordingServer } from '../helpers/recordingServer';
import { MAX_RETRY_BYTES } from '../../../src/core/sandbox/webhookDispatcher';

const HEADERS = {
  'x-svc-topic': 'workflow/completed',
  'x-svc-sub-topic': 'status:workflow/completed',
  'x-svc-tenant-id': 'tenant-1',
  'x-svc-webhook-id': '3f1c2a8e-0b4e-4c39-9d3a-1f2e3d4c5b6a',
  'x-svc-triggered-at': '2026-01-15T12:00:00.1234567Z',
};

describe('sandbox: test-webhook endpoint', () => {
  let f: SandboxFixture;
  let receiver: RecordingServer;
  let address: string;
  let token: string;
  beforeEach(async () => {
    f = await startSandbox();
    token = (await f.signIn()).access_token;
    receiver = new RecordingServer();
    address = (await receiver.start()) + '/webhooks';
  });
  afterEach(async () => {
    await f.stop();
    await receiver.stop();
  });

  it('sends testData as the exact body, signed, with the X-Svc-* values passed through', async () => {
    const testData = { hello: 'world', n: [1, 2, 3] };
    const r = await f.call('/test-webhook', { token, json: { address, testData }, headers: HEADERS });
    assert.equal(r.status, 200);
    assert.equal(r.json().receiverStatus, 200);
    assert.equal(receiver.requests.length, 1);
    const got = receiver.requests[0];
    assert.equal(got.url, '/webhooks');
    assert.equal(got.body.toString(), JSON.stringify(testData));
    for (const [k, v] of Object.entries(HEADERS)) assert.equal(got.headers[k], v);
    const claims = decodeJwt(String(got.headers.authorization).slice(7));
    assert.equal(claims.body_sha256, createHash('sha256').update(got.body).digest('hex'));
    assert.equal(claims.iss, f.info.issuer);
    assert.equal(claims.aud, f.info.audience);
  });
  it('without testData, sends an event built from the headers', async () => {
    await f.call('/test-webhook', { token, json: { address }, headers: HEADERS });
    const e = JSON.parse(receiver.requests[0].body.toString());
    assert.equal(e.webhookId, HEADERS['x-svc-webhook-id']);
    assert.equal(e.topic, HEADERS['x-svc-topic']);
    assert.equal(e.triggeredAt, HEADERS['x-svc-triggered-at']);
  });
  it('each missing X-Svc-* header → 400 problem naming it', async () => {
    for (const h of Object.keys(HEADERS)) {
      const partial: Record<string, string> = { ...HEADERS };
      delete partial[h];
      const r = await f.call('/test-webhook', { token, json: { address, testData: {} }, headers: partial });
      assert.equal(r.status, 400, h);
      assert.match(r.json().detail, new RegExp(h));
    }
    assert.equal(receiver.requests.length, 0);
  });
  it('requires a bearer token', async () => {
    const r = await f.call('/test-webhook', { json: { address, testData: {} }, headers: HEADERS });
    assert.equal(r.status, 401);
  });
  it('refuses a non-https address that is not loopback', async () => {
    const r = await f.call('/test-webhook', {
      token,
      json: { address: 'http://example.com/hook', testData: {} },
      headers: HEADERS,
    });
    assert.equal(r.status, 400);
    assert.equal(r.json().type, `${f.info.problemsBase}/invalid-address`);
  });
  it('refuses http on loopback when the sandbox is configured like the real service', async () => {
    const g = await startSandbox({ allowLoopbackHttp: false });
    try {
      const t = (await g.signIn()).access_token;
      const r = await g.call('/test-webhook', { token: t, json: { address, testData: {} }, headers: HEADERS });
      assert.equal(r.status, 400);
    } finally {
      await g.stop();
    }
  });
  it(`bodies awaiting a retry are held to ${MAX_RETRY_BYTES / 1024 / 1024} MiB: past that a failed delivery says it is not retried, and one that arrives needs none`, async () => {
    await receiver.stop();
    const testData = { pad: 'x'.repeat(1_000_000) }; // about 1 MB, under the 1 MiB body cap
    const fit = Math.floor(MAX_RETRY_BYTES / Buffer.byteLength(JSON.stringify(testData)));
    for (let i = 0; i < fit; i++) {
      const r = await f.call('/test-webhook', { token, json: { address, testData }, headers: HEADERS });
      assert.deepEqual([r.status, r.json().retryScheduled], [200, true], `delivery ${i}`);
    }
    const refused = (await f.call('/test-webhook', { token, json: { address, testData }, headers: HEADERS })).json();
    assert.equal(refused.retryScheduled, false);
    assert.equal(refused.retryRefused, 'not retried: the sandbox holds at most 64 MiB of deliveries awaiting a retry');
    assert.ok(refused.error, 'the attempt itself was made');
    // A small one still fits; one that arrives needs no retry at all.
    assert.equal(
      (await f.call('/test-webhook', { token, json: { address, testData: { small: true } }, headers: HEADERS })).json()
        .retryScheduled,
      true,
    );
    const live = new RecordingServer();
    try {
      const ok = (
        await f.call('/test-webhook', {
          token,
          json: { address: `${await live.start()}/webhooks`, testData },
          headers: HEADERS,
        })
      ).json();
      assert.deepEqual([ok.receiverStatus, ok.retryScheduled, ok.retryRefused], [200, false, undefined]);
    } finally {
      await live.stop();
    }
  });

  it("an attempt's record keeps at most 2,048 characters of its address", async () => {
    const long = `${address}/${'p'.repeat(5000)}`;
    assert.equal(
      (await f.call('/test-webhook', { token, json: { address: long, testData: {} }, headers: HEADERS })).status,
      200,
    );
    const [attempt] = (await f.control('GET', 'deliveries')).json().attempts;
    assert.equal(attempt.address, `${long.slice(0, 2048)}…`);
  });

  it('reports an unreachable address and schedules a retry', async () => {
    await receiver.stop();
    const r = await f.call('/test-webhook', { token, json: { address, testData: {} }, headers: HEADERS });
    assert.equal(r.status, 200);
    assert.ok(r.json().error);
    assert.equal(r.json().retryScheduled, true);
  });
});

describe('sandbox: JWKS and control API', () => {
  let f: SandboxFixture;
  beforeEach(async () => (f = await startSandbox()));
  afterEach(() => f.stop());

  it('serves an RS256 key set and counts requests to it', async () => {
    const r = await f.call('/.well-known/jwks.json');
    assert.equal(r.status, 200);
    const k = r.json().keys[0];
    assert.equal(k.kty, 'RSA');
    assert.equal(k.alg, 'RS256');
    assert.ok(k.kid);
    assert.ok(!('d' in k), 'never the private part');
    assert.equal((await f.control('GET', 'stats')).json().jwksRequests, 1);
  });
  it('rotating keys publishes the new kid beside the old one', async () => {
    const before = (await f.call('/.well-known/jwks.json')).json().keys[0].kid;
    const { kid } = (await f.control('POST', 'keys/rotate')).json();
    const kids = (await f.call('/.well-known/jwks.json')).json().keys.map((k: { kid: string }) => k.kid);
    assert.deepEqual(kids, [kid, before]);
  });
  it('advances the clock', async () => {
    const r = await f.control('POST', 'clock/advance', { seconds: 3600 });
    assert.equal(r.json().now, '2026-01-15T13:00:00.000Z');
    assert.equal((await f.control('POST', 'clock/advance', { seconds: -1 })).status, 400);
  });
  it('creates sessions, refuses duplicates and reports unknown ones', async () => {
    assert.equal((await f.control('POST', 'sessions', { sessionId: 's1' })).status, 201);
    assert.equal((await f.control('POST', 'sessions', { sessionId: 's1' })).status, 409);
    assert.equal((await f.control('GET', 'sessions/s1')).json().staged, false);
    assert.equal((await f.control('GET', 'sessions/nope')).status, 404);
  });
  it('reset restores the seeded state', async () => {
    await f.control('POST', 'sessions', { sessionId: 's2' });
    await f.control('POST', 'reset');
    assert.equal((await f.control('GET', 'sessions/s2')).status, 404);
    assert.equal((await f.control('GET', `sessions/${f.info.sessions.staged}`)).json().staged, true);
  });
  it('refuses a control body that is not a JSON object', async () => {
    const r = await f.call('/sandbox/sessions', {
      body: '[1]',
      headers: { 'content-type': 'application/json', 'x-sandbox-secret': f.info.controlSecret },
    });
    assert.equal(r.status, 400);
  });
  it('answers an unknown method on a served path with 405 and an oversized body with 413', async () => {
    assert.equal((await f.call('/workflow-services-ws/resources/v1/sessions/x/workflows')).status, 405);
    const g = await startSandbox({ maxBodyBytes: 100 });
    try {
      assert.equal(
        (await g.call('/user-management-services-ws/oauth2/002/signInWithPassword', { body: 'x'.repeat(200) })).status,
        413,
      );
    } finally {
      await g.stop();
    }
  });
});
