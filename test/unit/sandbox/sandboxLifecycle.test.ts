// Workflow lifecycle, signed webhook delivery and retries, reconfirm, JWKS (spec: Events, Authentication 6).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, decodeProtectedHeader } from 'jose';
import { SIGN_IN_PATH, startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { RecordingServer } from '../helpers/recordingServer';
import { rawRequest } from '../helpers/rawHttp';
import type { DeliveryAttempt } from '../../../src/core/sandbox/webhookDispatcher';

const ROOT = '/workflow-services-ws/resources/v1';

function nextAttempt(f: SandboxFixture): Promise<DeliveryAttempt> {
  return new Promise((resolve) => f.sandbox.once('webhook', resolve));
}

describe('sandbox: workflow lifecycle and webhooks', () => {
  let f: SandboxFixture;
  let receiver: RecordingServer;
  let receiverUrl: string;
  let token: string;

  beforeEach(async () => {
    f = await startSandbox({ workflowDurationSeconds: 30 });
    token = (await f.signIn()).access_token;
    receiver = new RecordingServer();
    receiverUrl = (await receiver.start()) + '/hooks';
    assert.equal((await f.control('POST', 'webhooks', { url: receiverUrl })).status, 201);
  });
  afterEach(async () => {
    await f.stop();
    await receiver.stop();
  });

  const startOne = async (product = { service: 'Appraisal', model: 'Standard' }) =>
    (
      await f.call(`${ROOT}/sessions/${f.info.sessions.staged}/workflows`, {
        token,
        json: { product, correlationId: 'life-1' },
      })
    ).json().workflow;

  it('moves processing → complete after the configured delay, setting the recorded fields', async () => {
    const w = await startOne();
    f.clock.advance(29_999);
    assert.equal((await f.call(`${ROOT}/workflows/${w.workflowId}`, { token })).json().workflow.status, 'processing');
    f.clock.advance(1);
    const done = (await f.call(`${ROOT}/workflows/${w.workflowId}`, { token })).json().workflow;
    assert.equal(done.status, 'complete');
    assert.equal(done.serviceable, true);
    assert.match(done.referenceNumber, /^REF-/);
    assert.equal(done.reconfirmAvailable, true, 'Appraisal/Standard becomes reconfirmable');
  });

  it('a product that does not become reconfirmable keeps reconfirmAvailable false, and a reconfirm is refused with 409', async () => {
    const w = await startOne({ service: 'Flood', model: 'Certification' });
    f.clock.advance(30_000);
    const read = (await f.call(`${ROOT}/workflows/${w.workflowId}`, { token })).json().workflow;
    assert.equal(read.reconfirmAvailable, false);
    const r = await f.call(`${ROOT}/workflows/${w.workflowId}`, { token, method: 'POST' });
    assert.equal(r.status, 409);
    assert.equal(r.json().type, `${f.info.problemsBase}/reconfirm-not-available`);
  });

  it('reconfirm keeps the workflowId, issues a new runId, is billed, and processes again', async () => {
    const w = await startOne();
    f.clock.advance(30_000);
    const r = await f.call(`${ROOT}/workflows/${w.workflowId}`, { token, method: 'POST' });
    assert.equal(r.status, 202);
    const again = r.json().workflow;
    assert.equal(again.workflowId, w.workflowId);
    assert.notEqual(again.runId, w.runId);
    assert.equal(again.status, 'processing');
    assert.equal(r.json().messages[0].code, 'ACCEPTED');
    assert.equal((await f.control('GET', 'billing')).json().billed.length, 2);
  });

  it('the workflow-fails fault ends the next workflow failed', async () => {
    await f.control('POST', 'faults', { fault: 'workflow-fails' });
    const w = await startOne();
    f.clock.advance(30_000);
    assert.equal((await f.call(`${ROOT}/workflows/${w.workflowId}`, { token })).json().workflow.status, 'failed');
  });

  it('reading an unknown workflow → 404 not-found problem', async () => {
    const r = await f.call(`${ROOT}/workflows/wf_nope`, { token });
    assert.equal(r.status, 404);
    assert.equal(r.json().type, `${f.info.problemsBase}/not-found`);
  });

  it('delivers signed events whose data.runId equals the workflow runId, verifiable with the JWKS', async () => {
    const w = await startOne();
    await receiver.waitFor(1); // workflow/started
    f.clock.advance(30_000);
    await receiver.waitFor(2); // workflow/completed
    const jwks = (await f.call('/.well-known/jwks.json')).json();
    const keys = createLocalJWKSet(jwks);
    for (const req of receiver.requests) {
      const auth = String(req.headers.authorization);
      assert.match(auth, /^Bearer /);
      const jwt = auth.slice(7);
      assert.equal(decodeProtectedHeader(jwt).alg, 'RS256');
      assert.ok(decodeProtectedHeader(jwt).kid);
      const { payload } = await jwtVerify(jwt, keys, {
        algorithms: ['RS256'],
        issuer: f.info.issuer,
        audience: f.info.audience,
        currentDate: new Date(f.clock.now()),
      });
      assert.ok(typeof payload.exp === 'number');
      assert.equal(
        payload.body_sha256,
        createHash('sha256').update(req.body).digest('hex'),
        'body_sha256 is over the exact bytes sent',
      );
      assert.equal(req.headers['content-type'], 'application/json');
    }
    const events = receiver.requests.map((r) => JSON.parse(r.body.toString()));
    assert.deepEqual(
      events.map((e) => e.topic),
      ['workflow/started', 'workflow/completed'],
    );
    for (const e of events) {
      assert.equal(e.data.runId, w.runId);
      assert.match(e.webhookId, /^[0-9a-f-]{36}$/);
      assert.match(e.subTopic, /^[a-z]+:workflow\/[a-z]+$/);
      assert.match(e.triggeredAt, /\.\d{7}Z$/);
      assert.ok(!String(e.actorId).includes('demo'), 'actorId is opaque');
    }
  });

  it('resends with exponential backoff (1 s, 2 s, 4 s …) while the receiver answers 5xx, then stops on 200', async () => {
    receiver.respond = (n) => (n <= 3 ? 503 : 200);
    const first = nextAttempt(f);
    await startOne();
    const a1 = await first;
    assert.equal(a1.status, 503);
    assert.equal(a1.nextAttemptAt! - a1.at, 1000);
    let p = nextAttempt(f);
    f.clock.advance(999);
    assert.equal(receiver.requests.length, 1, 'not before the delay');
    f.clock.advance(1);
    const a2 = await p;
    assert.equal(a2.attempt, 2);
    assert.equal(a2.nextAttemptAt! - a2.at, 2000);
    p = nextAttempt(f);
    f.clock.advance(2000);
    const a3 = await p;
    assert.equal(a3.nextAttemptAt! - a3.at, 4000);
    p = nextAttempt(f);
    f.clock.advance(4000);
    const a4 = await p;
    assert.equal(a4.status, 200);
    assert.equal(a4.nextAttemptAt, undefined);
    const ids = new Set(receiver.requests.map((r) => JSON.parse(r.body.toString()).webhookId));
    assert.equal(ids.size, 1, 'every retry carries the same webhookId');
  });

  it('does not resend after a 4xx', async () => {
    receiver.respond = () => 403;
    const first = nextAttempt(f);
    await startOne();
    const a1 = await first;
    assert.equal(a1.status, 403);
    assert.equal(a1.nextAttemptAt, undefined);
  });

  it('the control API refuses an unknown fault kind', async () => {
    const r = await f.control('POST', 'faults', { fault: 'gremlins' });
    assert.equal(r.status, 400);
  });

  it('GET faults lists every pending fault with its count left, the throttle included; DELETE clears them all', async () => {
    await f.control('POST', 'faults', { fault: 'throttle', count: 40 });
    await f.control('POST', 'faults', { fault: 'start-500', count: 2 });
    await f.control('POST', 'faults', { fault: 'workflow-fails' });
    assert.equal(
      (await f.call(SIGN_IN_PATH, { json: { username: f.info.username, password: f.info.password } })).status,
      429,
    );
    assert.deepEqual((await f.control('GET', 'faults')).json().pending, {
      throttle: 39,
      'start-500': 2,
      'workflow-fails': 1,
    });
    assert.deepEqual((await f.control('DELETE', 'faults')).json().pending, {});
    assert.equal(
      (await f.call(SIGN_IN_PATH, { json: { username: f.info.username, password: f.info.password } })).status,
      200,
      'no 429 after DELETE',
    );
  });

  it('the throttle fault with "after" lets that many requests through first (a sign-in, then the call is throttled)', async () => {
    await f.control('POST', 'faults', { fault: 'throttle', count: 1, after: 1 });
    const signIn = () => f.call(SIGN_IN_PATH, { json: { username: f.info.username, password: f.info.password } });
    assert.deepEqual([(await signIn()).status, (await signIn()).status, (await signIn()).status], [200, 429, 200]);
    assert.equal(
      (await f.control('POST', 'faults', { fault: 'start-500', after: 1 })).status,
      400,
      'after is for the throttle only',
    );
  });

  it('answers only loopback Host names: a DNS-rebinding Host gets 421 and no token is minted', async () => {
    const body = { bodyBase64: Buffer.from('{}').toString('base64') };
    const secret = { 'x-sandbox-secret': f.info.controlSecret };
    const rebound = await rawRequest(f.url('/sandbox/sign'), {
      json: body,
      headers: { host: 'rebind.attacker.example', ...secret },
    });
    assert.equal(rebound.status, 421);
    assert.ok(!rebound.text.includes('token'));
    const service = await rawRequest(f.url(SIGN_IN_PATH), {
      json: { username: f.info.username, password: f.info.password },
      headers: { host: 'rebind.attacker.example:80' },
    });
    assert.equal(service.status, 421, 'the service endpoints too');
    assert.equal(
      (await rawRequest(f.url('/sandbox/sign'), { json: body, headers: { host: 'localhost', ...secret } })).status,
      200,
    );
  });

  it('the control API takes application/json only: a text/plain or form body, or a bodyless POST without it, is 415', async () => {
    const sign = JSON.stringify({ bodyBase64: Buffer.from('{}').toString('base64') });
    const secret = { 'x-sandbox-secret': f.info.controlSecret };
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])
      assert.equal(
        (
          await rawRequest(f.url('/sandbox/sign'), {
            method: 'POST',
            body: sign,
            headers: { 'content-type': type, ...secret },
          })
        ).status,
        415,
        type,
      );
    assert.equal((await rawRequest(f.url('/sandbox/reset'), { method: 'POST', headers: secret })).status, 415);
    assert.equal(
      (
        await rawRequest(f.url('/sandbox/webhooks'), {
          method: 'DELETE',
          body: JSON.stringify({ url: 'http://127.0.0.1:1/x' }),
          headers: { 'content-type': 'text/plain', ...secret },
        })
      ).status,
      415,
      'a DELETE with a body that does not say JSON',
    );
    assert.equal(
      (
        await rawRequest(f.url('/sandbox/sign'), {
          method: 'POST',
          body: sign,
          headers: { 'content-type': 'application/json; charset=utf-8', ...secret },
        })
      ).status,
      200,
    );
    assert.equal(
      (await rawRequest(f.url('/sandbox/faults'), { headers: secret })).status,
      200,
      'GET needs no content type',
    );
    assert.equal(
      (await rawRequest(f.url('/sandbox/faults'), { method: 'DELETE', headers: secret })).status,
      200,
      'nor a bodyless DELETE',
    );
  });

  it('a sandbox started with allowedHosts answers that name too', async () => {
    const other = await startSandbox({ allowedHosts: ['wfs-sandbox.test'] });
    try {
      const secret = { 'x-sandbox-secret': other.info.controlSecret };
      assert.equal(
        (await rawRequest(other.url('/sandbox/faults'), { headers: { host: 'wfs-sandbox.test:1234', ...secret } }))
          .status,
        200,
      );
      assert.equal(
        (await rawRequest(other.url('/sandbox/faults'), { headers: { host: 'other.test', ...secret } })).status,
        421,
      );
    } finally {
      await other.stop();
    }
  });

  it('POST reset clears the throttle and its window', async () => {
    await f.control('POST', 'faults', { fault: 'throttle', count: 5 });
    await f.control('POST', 'reset');
    assert.equal(
      (await f.call(SIGN_IN_PATH, { json: { username: f.info.username, password: f.info.password } })).status,
      200,
    );
    assert.deepEqual((await f.control('GET', 'faults')).json().pending, {});
  });
});
