// The receiver end to end: the sandbox signs and delivers, the receiver verifies, dedupes, forwards and logs.
import assert from 'node:assert/strict';
import { type DedupeSet, dedupeKey } from '../../../src/core/webhooks/DedupeSet';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { TrustedToken, Verifier } from '../../../src/core/webhooks/Verifier';
import { BodiesInFlight } from '../../../src/core/webhooks/requestBody';
import { Forwarder } from '../../../src/core/webhooks/forwardFanOut';
import { forwardEverything, parseForwardRules } from '../../../src/core/webhooks/forwardRules';
import { JwksCache } from '../../../src/core/webhooks/JwksCache';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { createHash } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '../../../src/core/time/clock';
import { untilTrue } from '../helpers/eventLoop';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { RecordingServer } from '../helpers/recordingServer';
import { heldRequest, rawRequest } from '../helpers/rawHttp';

const EVENT = (webhookId: string) => ({
  webhookId,
  topic: 'workflow/completed',
  subTopic: 'status:workflow/completed',
  tenantId: 't',
  triggeredAt: '2026-01-15T12:00:00.1234567Z',
  actorId: 'a',
  data: { runId: 'wfrun_abc' },
});
const ID1 = '11111111-1111-4111-8111-111111111111';
const ID2 = '22222222-2222-4222-8222-222222222223';
const ID3 = '33333333-3333-4333-8333-333333333333';
/** Everything to one app, answering the service with its status (what forwardTo did before rules). */
const forwardAll = (url: string) => new Forwarder({ rules: [forwardEverything(url, 'test')], passThrough: true });

describe('Receiver', () => {
  let f: SandboxFixture;
  let receiver: Receiver;
  let url: string;
  let events: unknown[];

  const make = async (extra: Partial<ConstructorParameters<typeof Receiver>[0]> = {}) => {
    await receiver?.stop();
    const verifier = new Verifier({
      issuers: [{ issuer: f.info.issuer, jwksUrl: f.info.jwksUrl, audience: f.info.audience }],
      clock: f.clock,
    });
    receiver = new Receiver({ verifier, clock: f.clock, ...extra });
    receiver.on('verified-event', (e: { event: unknown }) => events.push(e.event));
    url = await receiver.start();
  };
  /** Posts a body signed by the sandbox (or with the given Authorization). */
  const deliver = async (body: Buffer | string, auth?: string, to = url) => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const token = auth ?? `Bearer ${await f.sandbox.context.signer.sign(bytes)}`;
    return rawRequest(to, {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/json', authorization: token },
    });
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
      headers: {
        'x-svc-topic': 'workflow/completed',
        'x-svc-sub-topic': 's:w/c',
        'x-svc-tenant-id': 't',
        'x-svc-webhook-id': ID1,
        'x-svc-triggered-at': '2026-01-15T12:00:00.1234567Z',
      },
    });
    assert.equal(r.json().receiverStatus, 200);
    const rec = receiver.history.all()[0];
    assert.equal(rec.verified, true);
    assert.equal(rec.checks.filter((c) => c.ok).length, 7);
    assert.equal(rec.webhookId, ID1);
    assert.equal(rec.runId, 'wfrun_abc');
    assert.match(rec.headers.authorization, /^Bearer <redacted, \d+ characters>$/);
    assert.equal(rec.jwt?.claims?.iss, f.info.issuer);
    assert.doesNotMatch(JSON.stringify(rec), /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/, 'no compact JWT anywhere in the record');
  });

  it('a token trusted once (signed here) while the sandbox is not trusted: 200 verified and marked signed here, once; any other sandbox token refused', async () => {
    const verifier = new Verifier({ issuers: [], clock: f.clock });
    await receiver.stop();
    receiver = new Receiver({ verifier, clock: f.clock });
    url = await receiver.start();
    const sandboxTrust = [{ issuer: f.info.issuer, jwksUrl: f.info.jwksUrl, audience: f.info.audience }];
    const body = Buffer.from(JSON.stringify(EVENT(ID1)));
    const token = await f.sandbox.context.signer.sign(body);
    verifier.trustToken(token, sandboxTrust, { once: true });
    assert.equal((await deliver(body, `Bearer ${token}`)).status, 200);
    const rec = receiver.history.all().at(-1)!;
    assert.deepEqual([rec.verified, rec.signedHere], [true, true]);
    assert.equal((await deliver(body, `Bearer ${token}`)).status, 403, 'spent: the same token again');
    const again = receiver.history.all().at(-1)!;
    assert.deepEqual([again.verified, again.signedHere], [false, undefined]);
    const other = Buffer.from(JSON.stringify(EVENT(ID2)));
    assert.equal((await deliver(other)).status, 403, 'any other sandbox-signed delivery stays refused');
  });

  it('receives the sandbox workflow events, tied to the workflow runId', async () => {
    await f.control('POST', 'webhooks', { url });
    const { access_token } = await f.signIn();
    const start = await f.call(`/workflow-services-ws/resources/v1/sessions/${f.info.sessions.staged}/workflows`, {
      token: access_token,
      json: { product: f.info.products[0] },
    });
    const runId = start.json().workflow.runId;
    await new Promise<void>((r) => receiver.once('delivery', () => r()));
    const rec = receiver.history.query({ runId })[0];
    assert.equal(rec.status, 200);
    assert.equal(rec.topic, 'workflow/started');
  });

  describe('only signed bytes decide', () => {
    /** A test webhook's body: the caller's testData, no ids in the signed bytes. */
    const TEST_DATA = Buffer.from(JSON.stringify({ order: 7 }));
    const withHeaders = async (body: Buffer, token: string, headers: Record<string, string>, to = url) =>
      rawRequest(to, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      });

    it('a body without a signed webhookId is deduplicated on its token: relabelled with any X-Svc-Webhook-Id it stays a duplicate; a fresh token is a new delivery', async () => {
      const token = await f.sandbox.context.signer.sign(TEST_DATA);
      const answers = [];
      for (const id of ['A', 'A', 'B'])
        answers.push(
          (await withHeaders(TEST_DATA, token, { 'x-svc-webhook-id': id, 'x-svc-topic': 'orders/created' })).text,
        );
      assert.deepEqual(answers, ['', 'duplicate\n', 'duplicate\n']);
      assert.equal(events.length, 1);
      const [first] = receiver.history.all();
      assert.deepEqual(
        [first!.webhookId, first!.topic, first!.unsigned],
        [undefined, undefined, { webhookId: 'A', topic: 'orders/created' }],
      );
      // Absent, not set to undefined: the record's fields are what the signed body says.
      assert.deepEqual(
        ['webhookId', 'topic', 'subTopic', 'triggeredAt', 'runId'].filter((k) => k in first!),
        [],
      );
      assert.match(first!.dedupeKey!, /^sha256:[0-9a-f]{64}$/);
      // The service signs each test webhook anew: the same testData sent again is a new delivery.
      const fresh = await f.sandbox.context.signer.sign(TEST_DATA);
      assert.equal((await withHeaders(TEST_DATA, fresh, { 'x-svc-webhook-id': 'A' })).text, '');
      assert.equal(events.length, 2);
    });

    it('an X-Svc-Webhook-Id never makes a signed event a duplicate, nor survives a restart as one', async () => {
      const log = new DeliveryHistory();
      await make({ history: log });
      assert.equal(
        (await withHeaders(TEST_DATA, await f.sandbox.context.signer.sign(TEST_DATA), { 'x-svc-webhook-id': ID1 }))
          .status,
        200,
      );
      assert.deepEqual(log.acknowledgedKeys().includes(ID1), false, 'the header id is not kept as acknowledged');
      await make({ history: log });
      assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).text, '', 'the real event is processed');
      assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).text, 'duplicate\n', 'its own copy is the duplicate');
      // The token-keyed delivery is known across the restart too.
      const token = await f.sandbox.context.signer.sign(TEST_DATA);
      assert.equal((await withHeaders(TEST_DATA, token, {})).text, '');
      await make({ history: log });
      assert.equal((await withHeaders(TEST_DATA, token, { 'x-svc-webhook-id': 'relabelled' })).text, 'duplicate\n');
    });

    it('forward rules route by the signed topic only: an X-Svc-Topic header never matches; answered 200 unless pass-through', async () => {
      const app = new RecordingServer();
      const appUrl = await app.start();
      try {
        app.respond = () => 500;
        await make({
          forward: new Forwarder({ rules: parseForwardRules([{ topic: 'payments/*', url: appUrl }], 'test') }),
        });
        const token = await f.sandbox.context.signer.sign(TEST_DATA);
        const relabelled = await withHeaders(TEST_DATA, token, { 'x-svc-topic': 'payments/settled' });
        assert.equal(relabelled.status, 200);
        assert.equal(app.requests.length, 0, 'an unsigned topic is not routed');
        assert.equal(receiver.history.all()[0]!.forwards, undefined);
        const signed = Buffer.from(JSON.stringify({ webhookId: ID1, topic: 'payments/settled' }));
        assert.equal((await deliver(signed)).status, 200, "the app's 500 is recorded, the service answered 200");
        assert.deepEqual(app.requests[0]!.body, signed);
        assert.equal(receiver.history.all()[1]!.forwards![0]!.status, 500);
        await make({
          forward: new Forwarder({
            rules: parseForwardRules([{ topic: 'payments/*', url: appUrl }], 'test'),
            passThrough: true,
          }),
        });
        const again = Buffer.from(JSON.stringify({ webhookId: ID2, topic: 'payments/settled' }));
        assert.equal((await deliver(again)).status, 500, "pass-through: the app's status");
      } finally {
        await app.stop();
      }
    });

    it('the self-test is recognised by its signed webhookId while the test runs, never by an X-Svc-Topic', async () => {
      const app = new RecordingServer();
      const appUrl = await app.start();
      try {
        await make({ forward: forwardAll(appUrl) });
        assert.equal(
          (
            await withHeaders(TEST_DATA, await f.sandbox.context.signer.sign(TEST_DATA), {
              'x-svc-topic': 'wfs/self-test',
            })
          ).status,
          200,
        );
        const selfId = '99999999-9999-4999-8999-999999999999';
        const probe = Buffer.from(JSON.stringify({ webhookId: selfId, topic: 'wfs/self-test' }));
        const over = receiver.expectSelfTest(selfId);
        assert.equal((await deliver(probe)).status, 200);
        over();
        // The same signed topic outside a self-test is the user's event like any other.
        const later = Buffer.from(
          JSON.stringify({ webhookId: '88888888-8888-4888-8888-888888888888', topic: 'wfs/self-test' }),
        );
        assert.equal((await deliver(later)).status, 200);
        assert.deepEqual(
          app.requests.map((r) => r.body.toString('utf8')),
          [TEST_DATA.toString('utf8'), later.toString('utf8')],
          'forwarded: the header-topic delivery and the later one, not the self-test probe',
        );
      } finally {
        await app.stop();
      }
    });
  });

  it('a key set that cannot be consulted is answered 503 with Retry-After, recorded as undecided; the resend is verified (issue #51: rotation after a flood)', async () => {
    assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).status, 200, 'the key set is fetched');
    const forged = (kid: string) =>
      `Bearer ${Buffer.from(JSON.stringify({ alg: 'RS256', kid })).toString('base64url')}.${Buffer.from(JSON.stringify({ iss: f.info.issuer, aud: f.info.audience, exp: Math.floor(f.clock.now() / 1000) + 300 })).toString('base64url')}.${Buffer.alloc(256, 7).toString('base64url')}`;
    for (let i = 0; i < 6; i++) {
      const r = await deliver('{}', forged(`random-${i}`));
      assert.ok(r.status === 403 || r.status === 503, `a forged token is never accepted: ${r.status}`);
    }
    await f.sandbox.context.signer.rotate();
    const body = JSON.stringify(EVENT('22222222-2222-4222-8222-222222222222'));
    const token = `Bearer ${await f.sandbox.context.signer.sign(Buffer.from(body))}`;
    const first = await deliver(body, token);
    assert.equal(first.status, 503, first.text);
    const retryAfter = Number(first.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 15, `Retry-After ${first.headers['retry-after']}`);
    const rec = receiver.history.all().at(-1)!;
    assert.equal(rec.verified, false);
    assert.match(
      rec.note!,
      /^answered 503: the key set could not be consulted \(step 3 says why\), so nothing was decided; the service sends the delivery again/,
    );
    const step3 = rec.checks.find((c) => c.step === 3)!;
    assert.ok(!step3.ok && step3.detail.startsWith(`${f.info.jwksUrl}: could not be consulted`), step3.detail);
    assert.equal(events.length, 1, 'not dispatched');
    f.clock.advance(retryAfter * 1000);
    const resent = await deliver(body, token);
    assert.equal(resent.status, 200, resent.text);
    assert.equal(events.length, 2);
  });

  it('answers a duplicate webhookId 200, flagged, not dispatched again', async () => {
    const first = await deliver(JSON.stringify(EVENT(ID1)));
    // A verified delivery is answered 200 with no body: the status is the answer, and it leaves in one write.
    assert.deepEqual([first.status, first.headers['content-length'], first.text], [200, '0', '']);
    const again = await deliver(JSON.stringify(EVENT(ID1)));
    assert.deepEqual([again.status, again.text], [200, 'duplicate\n']);
    assert.equal(receiver.history.all()[1].duplicate, true);
    assert.equal(events.length, 1);
  });

  it('a webhookId of 200 KB is deduplicated like any other (the set holds its hash, not its bytes)', async () => {
    const longId = 'w'.repeat(200 * 1024);
    assert.equal((await deliver(JSON.stringify(EVENT(longId)))).status, 200);
    const again = await deliver(JSON.stringify(EVENT(longId)));
    assert.deepEqual([again.status, again.text], [200, 'duplicate\n']);
    assert.equal((await deliver(JSON.stringify(EVENT(`${longId}2`)))).text, '', 'another long id is not a duplicate');
    assert.equal(events.length, 2);
    const held = (receiver as unknown as { dedupe: DedupeSet }).dedupe;
    assert.deepEqual(
      [held.has(dedupeKey(longId)), held.has(longId)],
      [true, false],
      'the set holds 71 characters for it, not 200 KB',
    );
  });

  it('a new Receiver on the same history knows the events it acknowledged: not those refused, answered 5xx, or forged', async () => {
    const log = new DeliveryHistory();
    const ids = ['a', 'b', 'c', 'd'].map((c) => `${c.repeat(8)}-1111-4111-8111-111111111111`);
    await make({ history: log });
    assert.equal((await deliver(JSON.stringify(EVENT(ids[0]!)))).status, 200);
    assert.equal((await deliver(JSON.stringify(EVENT(ids[1]!)), 'Bearer a.b.c')).status, 403);
    receiver.setResponseOverride(500);
    assert.equal((await deliver(JSON.stringify(EVENT(ids[2]!)))).status, 500);
    receiver.setResponseOverride(undefined);
    await make({ history: log });
    const again = await Promise.all(ids.slice(0, 3).map((id) => deliver(JSON.stringify(EVENT(id)))));
    assert.deepEqual(
      again.map((r) => [r.status, r.text]),
      [
        [200, 'duplicate\n'],
        [200, ''],
        [200, ''],
      ],
    );
    const handled = (id: string) => events.filter((e) => (e as { webhookId: string }).webhookId === id).length;
    assert.deepEqual(ids.slice(0, 3).map(handled), [1, 1, 2], 'handled once; once verified; again after its 500');
  });

  it('after Clear the running receiver still knows the events it acknowledged; a receiver started after it knows only those it saw since (Clear erases the ids too, as README says)', async () => {
    const log = new DeliveryHistory();
    const ID2 = '22222222-2222-4222-8222-222222222222';
    await make({ history: log });
    assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).status, 200);
    assert.equal((await deliver(JSON.stringify(EVENT(ID2)))).status, 200);
    await log.clear();
    assert.deepEqual(log.acknowledgedKeys(), []);
    assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).text, 'duplicate\n', 'the receiver that answered it');
    await make({ history: log });
    assert.equal(
      (await deliver(JSON.stringify(EVENT(ID1)))).text,
      'duplicate\n',
      'its copy since the Clear is in the history again',
    );
    assert.equal((await deliver(JSON.stringify(EVENT(ID2)))).text, '', 'not seen since the Clear: handled again');
    assert.equal(events.length, 3);
  });

  it('a forged delivery cannot poison the dedupe set', async () => {
    const forged = await deliver(JSON.stringify(EVENT(ID1)), 'Bearer a.b.c');
    assert.equal(forged.status, 403);
    const genuine = await deliver(JSON.stringify(EVENT(ID1)));
    assert.equal(genuine.status, 200);
    assert.equal(receiver.history.all()[1].duplicate, false);
    assert.equal(events.length, 1);
  });

  const refusals: {
    name: string;
    options?: Partial<ConstructorParameters<typeof Receiver>[0]>;
    send: () => Promise<{ status: number }>;
    status: number;
  }[] = [
    { name: 'no token: 403', send: () => rawRequest(url, { method: 'POST', body: '{}' }), status: 403 },
    {
      name: 'another path: 404',
      send: () => deliver('{}', undefined, url.replace('/webhooks', '/other')),
      status: 404,
    },
    { name: 'GET: 405', send: () => rawRequest(url), status: 405 },
    {
      name: 'a body over maxBodyBytes: 413',
      options: { maxBodyBytes: 1000 },
      send: () => deliver('x'.repeat(2000)),
      status: 413,
    },
    {
      name: 'a verified body that is not JSON: 400',
      send: () => deliver(Buffer.from([0xff, 0x00, 0x7b])),
      status: 400,
    },
  ];
  for (const c of refusals)
    it(`refuses ${c.name}, and records what it answered`, async () => {
      if (c.options) await make(c.options);
      assert.equal((await c.send()).status, c.status);
      assert.deepEqual(
        receiver.history.all().map((r: DeliveryRecord) => r.status),
        [c.status],
      );
    });

  it('a verified body is UTF-8 only when every byte is: a stray byte inside a JSON string is a 400, a real U+FFFD is text', async () => {
    const json = (note: Buffer) =>
      Buffer.concat([Buffer.from(`{"webhookId":"${ID1}","topic":"t/x","note":"`), note, Buffer.from('"}')]);
    // JSON.parse would take the first: the decoder turns the stray byte into U+FFFD.
    assert.equal((await deliver(json(Buffer.from([0xff])))).status, 400);
    assert.equal((await deliver(json(Buffer.from('\uFFFD', 'utf8')))).status, 200);
    assert.deepEqual(
      receiver.history.all().map((r: DeliveryRecord) => [r.status, r.body.utf8, r.verified]),
      [
        [400, false, true],
        [200, true, true],
      ],
    );
  });

  for (const where of ['in memory', 'with a history file'] as const)
    it(`keeps every body byte for byte, held as text (ASCII) or as bytes (other UTF-8, a stray byte): ${where}`, async () => {
      const file = where === 'in memory' ? undefined : join(mkdtempSync(join(tmpdir(), 'wfs-kept-')), 'h.jsonl');
      if (file) await make({ history: new DeliveryHistory({ file }) });
      const json = (id: string, note: Buffer) =>
        Buffer.concat([Buffer.from(`{"webhookId":"${id}","topic":"t/x","note":"`), note, Buffer.from('"}')]);
      const sent = [
        json(ID1, Buffer.from('plain ASCII')),
        json(ID2, Buffer.from('caf\u00e9 \u{1F600}', 'utf8')),
        // As many characters decoded as bytes, but not ASCII: the stray byte decodes to U+FFFD.
        json(ID3, Buffer.from([0xff])),
      ];
      for (const body of sent) await deliver(body);
      const records = receiver.history.all();
      assert.deepEqual(
        records.map((r: DeliveryRecord) => r.status),
        [200, 200, 400],
      );
      for (const [i, r] of records.entries()) assert.deepEqual(await receiver.history.body(r.id), sent[i], `body ${i}`);
      if (!file) return;
      await receiver.stop();
      await receiver.history.close();
      const reloaded = new DeliveryHistory({ file });
      await reloaded.load();
      for (const [i, r] of records.entries()) assert.deepEqual(await reloaded.body(r.id), sent[i], `reloaded ${i}`);
      await reloaded.close();
    });

  it('a forwarded body is not held as text while its forward is under way, nor after: the history keeps its bytes', async () => {
    const app = new RecordingServer();
    const appUrl = await app.start();
    const given: (string | undefined)[] = [];
    const log = new DeliveryHistory();
    const add = log.add.bind(log);
    log.add = (record, kept, asciiText) => {
      given.push(asciiText);
      return add(record, kept, asciiText);
    };
    try {
      await make({ forward: forwardAll(appUrl), history: log });
      const body = Buffer.from(JSON.stringify(EVENT(ID1)));
      assert.equal((await deliver(body)).status, 200);
      assert.equal(app.requests.length, 1);
      // Not forwarded (a duplicate is answered at once): its text is given.
      assert.equal((await deliver(body)).status, 200);
      assert.deepEqual(given, [undefined, body.toString('latin1')]);
      assert.deepEqual(await log.body(receiver.history.all()[0]!.id), body);
    } finally {
      await app.stop();
    }
  });

  it('the response override rehearses retries: 500 is not recorded as processed, so the resend is not a duplicate', async () => {
    receiver.setResponseOverride(500);
    assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).status, 500);
    receiver.setResponseOverride(undefined);
    assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).status, 200);
    assert.equal(receiver.history.all()[1].duplicate, false);
    assert.throws(() => receiver.setResponseOverride(99), RangeError);
  });

  it('closes a connection that has sent nothing when the header timeout is up, so it frees its place', async () => {
    // The header timeout counts from the connection (Node's own check answers 408 and closes it): with a limit of
    // connections, one that never speaks must not keep its place.
    await make({ headersTimeoutMs: 300, bodyTimeoutMs: 600, timeoutCheckIntervalMs: 50, maxConnections: 1 });
    const u = new URL(url);
    const silent = connect(Number(u.port), '127.0.0.1');
    silent.on('error', () => undefined);
    // Read what comes, as any client does: the answer is a 408, and a socket that leaves an answer unread never sees
    // the end, nor closes.
    silent.resume();
    await new Promise<void>((r) => silent.once('close', () => r())); // the server closes it: the behaviour under test
    const body = Buffer.from(
      JSON.stringify({ webhookId: '66666666-6666-4666-8666-666666666666', topic: 't/x', data: {} }),
    );
    assert.equal((await deliver(body)).status, 200, 'its place is free again');
  });

  it('drops a client that stalls in its headers or its body (header and body timeouts)', async () => {
    await make({ headersTimeoutMs: 300, bodyTimeoutMs: 600, timeoutCheckIntervalMs: 50 });
    const { connect } = await import('node:net');
    const u = new URL(url);
    for (const partial of [
      'POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"a":',
    ]) {
      const socket = connect(Number(u.port), '127.0.0.1');
      socket.on('error', () => undefined);
      const answer: Buffer[] = [];
      socket.on('data', (d: Buffer) => answer.push(d));
      socket.write(partial);
      await new Promise<void>((r) => socket.once('close', () => r())); // the server closes it: the behaviour under test
      assert.match(Buffer.concat(answer).toString(), /^HTTP\/1\.1 408 /, 'answered 408 Request Timeout');
    }
  });

  it('forwards the original bytes and headers to the app and answers with its status', async () => {
    const app = new RecordingServer();
    const appUrl = (await app.start()) + '/app/hooks';
    try {
      await make({ forward: forwardAll(appUrl) });
      const body = Buffer.from('{ "webhookId":"22222222-2222-4222-8222-222222222222" ,"topic":"t/x" }');
      // The app holds its answer until the test lets it go: the forward's latency spans at least that hold.
      let release!: () => void;
      app.gate = new Promise((r) => (release = r));
      const answered = deliver(body);
      await app.waitFor(1);
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      const released = performance.now();
      release();
      assert.equal((await answered).status, 200);
      app.gate = undefined;
      assert.deepEqual(app.requests[0].body, body);
      assert.match(String(app.requests[0].headers.authorization), /^Bearer ey/);
      assert.equal(app.requests[0].url, '/app/hooks');
      const record = receiver.history.all()[0];
      const fwd = record.forwards![0]!;
      assert.equal(fwd.status, 200);
      const held = released - app.requests[0].arrivedAt;
      assert.ok(
        held > 0 && fwd.latencyMs >= Math.floor(held),
        `the forward took ${fwd.latencyMs} ms, the app held it ${held} ms`,
      );
      assert.ok(record.durationMs >= fwd.latencyMs, 'the delivery lasted at least as long as its forward');
      app.respond = () => 500;
      assert.equal((await deliver('{"webhookId":"33333333-3333-4333-8333-333333333333"}')).status, 500);
    } finally {
      await app.stop();
    }
  });

  it('a copy that arrives while the first is still being forwarded is answered as a duplicate, not forwarded again', async () => {
    const app = new RecordingServer();
    const appUrl = (await app.start()) + '/app/hooks';
    try {
      await make({ forward: forwardAll(appUrl) });
      let release!: () => void;
      app.gate = new Promise((r) => (release = r));
      const first = deliver(JSON.stringify(EVENT(ID1)));
      await app.waitFor(1);
      const copy = await deliver(JSON.stringify(EVENT(ID1)));
      assert.deepEqual(
        [copy.status, copy.text],
        [200, 'duplicate\n'],
        'answered while the first still waits for the app',
      );
      release();
      assert.equal((await first).status, 200);
      assert.equal(app.requests.length, 1, 'forwarded once');
      assert.deepEqual(
        receiver.history.all().map((r) => r.duplicate),
        [true, false],
        'the copy is recorded first, flagged',
      );
    } finally {
      await app.stop();
    }
  });

  it('a copy whose handling fails does not release the claim of the first, still being forwarded', async () => {
    const app = new RecordingServer();
    const appUrl = (await app.start()) + '/app/hooks';
    try {
      await make({ forward: forwardAll(appUrl) });
      // A listener of ours that throws on duplicates: the copy's handling fails after its answer left.
      receiver.on('delivery', (r: DeliveryRecord) => {
        if (r.duplicate) throw new Error('a listener broke');
      });
      const failures: DeliveryRecord[] = [];
      receiver.on('failure', (r: DeliveryRecord) => failures.push(r));
      let release!: () => void;
      app.gate = new Promise((r) => (release = r));
      const first = deliver(JSON.stringify(EVENT(ID1)));
      await app.waitFor(1);
      assert.equal((await deliver(JSON.stringify(EVENT(ID1)))).text, 'duplicate\n');
      assert.equal(failures.length, 1, 'the failure is reported');
      const third = await deliver(JSON.stringify(EVENT(ID1)));
      assert.deepEqual(
        [third.status, third.text],
        [200, 'duplicate\n'],
        'still a duplicate: the first copy is still being processed',
      );
      release();
      assert.equal((await first).status, 200);
      assert.equal(app.requests.length, 1, 'forwarded once');
    } finally {
      await app.stop();
    }
  });

  it('a sender that disconnects halfway through the body is recorded, not left hanging', async () => {
    const u = new URL(url);
    const socket = connect(Number(u.port), '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    // Handed to the kernel before the close, so the server reads the head and part of the body, then the end.
    await new Promise<void>((r) =>
      socket.write(
        `POST /webhooks HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"webhookId":`,
        () => r(),
      ),
    );
    socket.destroy();
    await untilTrue(() => receiver.history.all().length === 1);
    const [record] = receiver.history.all();
    assert.deepEqual([record!.status, record!.verified, record!.body.size], [400, false, 0]);
  });

  it('a genuine token whose key set is still being fetched: the body waits in the socket (nothing held); a sender gone meanwhile is recorded, not left hanging', async () => {
    const budget = new BodiesInFlight(32 * 1024 * 1024);
    // The key set answers only when the test lets it.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const askedForKey = new Promise<void>((r) => (asked = r));
    const real = new JwksCache({ jwksUrl: f.info.jwksUrl, clock: f.clock });
    const slow = {
      cachedKey: () => undefined,
      getKey: async (kid: string) => (asked(), await gate, real.getKey(kid)),
    } as unknown as JwksCache;
    await receiver.stop();
    receiver = new Receiver({
      verifier: new Verifier({
        issuers: [{ issuer: f.info.issuer, jwksUrl: f.info.jwksUrl, audience: f.info.audience }],
        clock: f.clock,
        keySet: () => slow,
      }),
      clock: f.clock,
      bodiesInFlight: budget,
    });
    url = await receiver.start();
    const u = new URL(url);
    const body = Buffer.from('{"webhookId":"2b1c2a8e-0b4e-4c39-9d3a-1f2e3d4c5b6a","topic":"t"}');
    const head = (token: string) =>
      `POST /webhooks HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const socket = connect(Number(u.port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(head(await f.sandbox.context.signer.sign(body)));
    socket.write(body);
    await askedForKey;
    assert.equal(budget.held, 0, 'the body is not held while the key set is fetched');
    socket.destroy();
    const server = (receiver as unknown as { server: Server }).server;
    const open = () => new Promise<number>((r) => server.getConnections((_e, n) => r(n)));
    for (let i = 0; i < 100_000 && (await open()) > 0; i++) await new Promise((r) => setImmediate(r));
    release();
    await untilTrue(() => receiver.history.all().length === 1);
    const [record] = receiver.history.all();
    assert.deepEqual([record!.status, record!.verified, record!.body.size], [400, false, 0]);
    // The next genuine delivery, with the key set now answering, is verified.
    const r = await deliver(Buffer.from('{"webhookId":"3c1c2a8e-0b4e-4c39-9d3a-1f2e3d4c5b6a","topic":"t"}'));
    assert.equal(r.status, 200);
  });

  it('answers 502 and records the error when the forward target is down', async () => {
    await make({ forward: forwardAll('http://127.0.0.1:9/down') });
    assert.equal((await deliver('{"webhookId":"44444444-4444-4444-8444-444444444444"}')).status, 502);
    assert.ok(receiver.history.all()[0].forwards?.[0]?.error);
  });
});

describe('Receiver: bounded, crash-safe, every answer delivered', () => {
  let f: SandboxFixture;
  let receiver: Receiver;
  let url: string;
  const make = async (extra: Partial<ConstructorParameters<typeof Receiver>[0]> = {}) => {
    await receiver?.stop();
    const verifier = new Verifier({
      issuers: [{ issuer: f.info.issuer, jwksUrl: f.info.jwksUrl, audience: f.info.audience }],
      clock: f.clock,
    });
    receiver = new Receiver({ verifier, clock: f.clock, ...extra });
    url = await receiver.start();
  };
  const signed = async (body: Buffer) => ({
    'content-type': 'application/json',
    authorization: `Bearer ${await f.sandbox.context.signer.sign(body)}`,
  });

  beforeEach(async () => {
    f = await startSandbox();
    await make();
  });
  afterEach(async () => {
    await receiver.stop();
    await f.stop();
  });

  it('answers only its own names: a DNS-rebinding Host gets 421 unread; the public address in use is answered', async () => {
    const body = Buffer.from(
      JSON.stringify({ webhookId: '77777777-7777-4777-8777-777777777777', topic: 't/x', data: {} }),
    );
    const rebound = await rawRequest(url, {
      method: 'POST',
      body,
      headers: { ...(await signed(body)), host: 'rebind.attacker.example' },
    });
    assert.equal(rebound.status, 421);
    const r = receiver.history.all()[0];
    assert.deepEqual([r.status, r.verified, r.body.kept], [421, false, 0]);
    assert.match(r.note!, /rebind\.attacker\.example/);
    assert.equal(
      (await rawRequest(url, { method: 'POST', body, headers: { ...(await signed(body)), host: 'abc.loca.lt' } }))
        .status,
      421,
      'not before it is the public address',
    );
    receiver.setPublicHosts(['abc.loca.lt']);
    assert.equal(
      (await rawRequest(url, { method: 'POST', body, headers: { ...(await signed(body)), host: 'abc.loca.lt' } }))
        .status,
      200,
    );
    assert.equal(
      (await rawRequest(url, { method: 'POST', body, headers: { ...(await signed(body)), host: 'localhost:1234' } }))
        .status,
      200,
      'loopback names always (a duplicate, answered 200)',
    );
    // The last name allowed is remembered for speed: the public address going away must forget it.
    assert.equal(
      (await rawRequest(url, { method: 'POST', body, headers: { ...(await signed(body)), host: 'abc.loca.lt' } }))
        .status,
      200,
    );
    receiver.setPublicHosts([]);
    assert.equal(
      (await rawRequest(url, { method: 'POST', body, headers: { ...(await signed(body)), host: 'abc.loca.lt' } }))
        .status,
      421,
      'not after it stopped being the public address',
    );
  });

  it('a refused request keeps a 4 KiB prefix of its body with the size and SHA-256 of the whole', async () => {
    const body = Buffer.alloc(300 * 1024, 0x41);
    assert.equal(
      (await rawRequest(url, { method: 'POST', body, headers: { authorization: 'Bearer x.y.z' } })).status,
      403,
    );
    const r = receiver.history.all()[0];
    assert.deepEqual([r.body.size, r.body.kept], [300 * 1024, 4096]);
    assert.equal(r.body.sha256, createHash('sha256').update(body).digest('hex'));
    assert.equal((await receiver.history.body(r.id))!.length, 4096);
  });

  it('a flood of unsigned 1 MB requests keeps the history within its memory budget, and verified deliveries survive it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-flood-')), 'deliveries.jsonl');
    const log = new DeliveryHistory({ file, memoryBudgetBytes: 2 * 1024 * 1024, diskBudgetBytes: 4 * 1024 * 1024 });
    await make({ history: log, maxBodyBytes: 1024 * 1024 + 10 });
    const genuine = Buffer.from(
      JSON.stringify({ webhookId: '22222222-2222-4222-8222-222222222222', topic: 't/x', data: {} }),
    );
    assert.equal(
      (await rawRequest(url, { method: 'POST', body: genuine, headers: await signed(genuine) })).status,
      200,
    );
    const junk = Buffer.alloc(1024 * 1024, 0x7a);
    for (let i = 0; i < 60; i += 6)
      await Promise.all(
        Array.from({ length: 6 }, () =>
          rawRequest(url, { method: 'POST', body: junk, headers: { 'content-type': 'application/json' } }),
        ),
      );
    await log.flush();
    assert.ok(log.bytesInMemory <= 2 * 1024 * 1024, `${log.bytesInMemory} bytes in memory`);
    assert.ok(statSync(file).size <= 4 * 1024 * 1024, `${statSync(file).size} bytes on disk`);
    assert.equal(log.all().filter((r) => r.verified).length, 1, 'the verified delivery is still there');
    await receiver.stop();
    await log.close();
    const restarted = new DeliveryHistory({ file });
    const loaded = await restarted.load();
    assert.equal(loaded.skipped, 0);
    assert.ok(restarted.all().some((r) => r.verified));
    await restarted.close();
  });

  it('a 2xx leaves only after the record reached the log; if it cannot be written the answer is 503 and the id is not marked processed', async () => {
    const log = new DeliveryHistory();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const add = log.add.bind(log);
    let failNext = false;
    log.add = (record, kept) => {
      const written = add(record, kept);
      if (failNext) return gate.then(() => Promise.reject(new Error('ENOSPC: no space left on device')));
      return Promise.resolve(written).then(() => gate);
    };
    await make({ history: log });
    const body = Buffer.from(
      JSON.stringify({ webhookId: '33333333-3333-4333-8333-333333333333', topic: 't/x', data: {} }),
    );
    let answered = false;
    const pending = rawRequest(url, { method: 'POST', body, headers: await signed(body) }).then(
      (r) => ((answered = true), r),
    );
    await untilTrue(() => log.size === 1);
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    assert.equal(answered, false, 'no answer while the write is pending');
    release();
    assert.equal((await pending).status, 200);

    failNext = true;
    const body2 = Buffer.from(
      JSON.stringify({ webhookId: '44444444-4444-4444-8444-444444444444', topic: 't/x', data: {} }),
    );
    const failed = await rawRequest(url, { method: 'POST', body: body2, headers: await signed(body2) });
    assert.equal(failed.status, 503);
    const rec = log.all().at(-1)!;
    assert.equal(rec.status, 503);
    assert.match(rec.note!, /could not be written.*ENOSPC/);
    assert.equal(
      rec.checks.find((c) => c.step === 7)!.detail,
      'verified: answered 503 (not stored)',
      'step 7 records what was answered',
    );
    failNext = false;
    assert.equal(
      (await rawRequest(url, { method: 'POST', body: body2, headers: await signed(body2) })).status,
      200,
      'the resend is processed, not a duplicate',
    );
  });

  it('a fault of ours while handling a request is answered 500 and reported, and the receiver keeps serving', async () => {
    const log = new DeliveryHistory();
    const add = log.add.bind(log);
    let broken = true;
    log.add = (record, kept) => {
      if (broken) throw new TypeError('the history is broken');
      return add(record, kept);
    };
    await make({ history: log });
    const failures: DeliveryRecord[] = [];
    receiver.on('failure', (r: DeliveryRecord) => failures.push(r));
    const body = Buffer.from(
      JSON.stringify({ webhookId: '88888888-8888-4888-8888-888888888888', topic: 't/x', data: {} }),
    );
    const failed = await rawRequest(url, { method: 'POST', body, headers: await signed(body) });
    assert.deepEqual([failed.status, failed.text], [500, 'internal error\n']);
    assert.equal(failures.length, 1);
    assert.equal(failures[0]!.note, 'not handled: the history is broken');
    assert.equal(
      (await rawRequest(url, { method: 'GET' })).status,
      500,
      'a refusal that fails the same way is answered too',
    );
    broken = false;
    assert.equal((await rawRequest(url, { method: 'POST', body, headers: await signed(body) })).status, 200);
    assert.deepEqual(
      log.all().map((r) => [r.status, r.duplicate]),
      [[200, false]],
      'the resend is processed, not taken for a duplicate',
    );
  });

  it('step 7 records the status actually answered (override, forward), not a fixed 200', async () => {
    const body = Buffer.from(
      JSON.stringify({ webhookId: '55555555-5555-4555-8555-555555555555', topic: 't/x', data: {} }),
    );
    receiver.setResponseOverride(500);
    assert.equal((await rawRequest(url, { method: 'POST', body, headers: await signed(body) })).status, 500);
    assert.equal(
      receiver.history.all()[0].checks.find((c) => c.step === 7)!.detail,
      'verified: answered 500 (not processed)',
    );
    receiver.setResponseOverride(undefined);
    assert.equal((await rawRequest(url, { method: 'POST', body, headers: await signed(body) })).status, 200);
    assert.equal(receiver.history.all()[1].checks.find((c) => c.step === 7)!.detail, 'verified: answered 200');
    // Passed checks are one list shared by every delivery signed with the same key: another answer never changes it.
    const body2 = Buffer.from(
      JSON.stringify({ webhookId: '66666666-6666-4666-8666-666666666666', topic: 't/x', data: {} }),
    );
    receiver.setResponseOverride(502);
    assert.equal((await rawRequest(url, { method: 'POST', body: body2, headers: await signed(body2) })).status, 502);
    assert.equal(
      receiver.history.all()[2].checks.find((c) => c.step === 7)!.detail,
      'verified: answered 502 (not processed)',
    );
    assert.equal(
      receiver.history.all()[1].checks.find((c) => c.step === 7)!.detail,
      'verified: answered 200',
      'the earlier record still says 200',
    );
    assert.ok(Object.isFrozen(receiver.history.all()[1].checks), 'the shared list cannot be changed in place');
    // A 2xx override is answered without text, like a 200.
    const body3 = Buffer.from(
      JSON.stringify({ webhookId: '67676767-6767-4767-8767-676767676767', topic: 't/x', data: {} }),
    );
    receiver.setResponseOverride(202);
    const accepted = await rawRequest(url, { method: 'POST', body: body3, headers: await signed(body3) });
    assert.deepEqual([accepted.status, accepted.headers['content-length'], accepted.text], [202, '0', '']);
    assert.equal(receiver.history.all()[3].checks.find((c) => c.step === 7)!.detail, 'verified: answered 202');
  });

  it('a verified body nested 100,000 levels deep is answered 200 and kept whole', async () => {
    const deep = Buffer.from(
      '{"webhookId":"66666666-6666-4666-8666-666666666666","topic":"t/deep","data":' +
        '['.repeat(100_000) +
        ']'.repeat(100_000) +
        '}',
    );
    const log = new DeliveryHistory({ file: join(mkdtempSync(join(tmpdir(), 'wfs-deep-')), 'd.jsonl') });
    await make({ history: log });
    assert.equal((await rawRequest(url, { method: 'POST', body: deep, headers: await signed(deep) })).status, 200);
    const r = receiver.history.all()[0];
    assert.equal(r.topic, 't/deep');
    assert.deepEqual(await receiver.history.body(r.id), deep);
    await log.close();
  });

  describe('bodies being received are bounded in bytes, whoever sends them', () => {
    let budget: BodiesInFlight;
    /** Every byte the receiver's sockets have read, so a test knows the bodies sent have arrived. */
    const bytesRead = () => {
      const sockets: Socket[] = [];
      (receiver as unknown as { server: Server }).server.on('connection', (c: Socket) => sockets.push(c));
      return () => sockets.reduce((n, c) => n + c.bytesRead, 0);
    };

    it('a request no trusted issuer signed holds none of its body while it arrives: hashed as it streams by, a prefix kept, cut before a split character', async () => {
      await make({ bodiesInFlight: (budget = new BodiesInFlight(1024 * 1024)) });
      const read = bytesRead();
      // "a" then two-byte characters: the 4096th byte is the first half of one.
      const body = Buffer.from(`a${'é'.repeat(450_000)}`);
      const requests = [0, 1, 2].map(() => heldRequest(url, {}, body));
      await untilTrue(
        () => read() >= 3 * body.length - 3,
        () => `${read()} bytes read`,
        1_000_000,
      );
      assert.equal(budget.held, 0, 'three 900 KB bodies arrived, and none is held');
      const genuine = Buffer.from(
        JSON.stringify({ webhookId: '33333333-3333-4333-8333-333333333333', topic: 't/x', data: {} }),
      );
      assert.equal(
        (await rawRequest(url, { method: 'POST', body: genuine, headers: await signed(genuine) })).status,
        200,
        'the budget is all there for a signed delivery',
      );
      requests.forEach((r) => r.finish());
      for (const r of requests) assert.match(await r.answer, /^HTTP\/1\.1 403 /);
      const refused = receiver.history.all().filter((r) => !r.verified);
      assert.equal(refused.length, 3);
      for (const r of refused) {
        assert.deepEqual([r.status, r.body.size, r.body.kept, r.body.utf8], [403, body.length, 4095, true]);
        assert.equal(r.body.sha256, createHash('sha256').update(body).digest('hex'));
        assert.equal((await receiver.history.body(r.id))!.toString('utf8'), body.subarray(0, 4095).toString('utf8'));
      }
    });

    it('over the bytes all bodies may hold at once, a request is answered 503 with Retry-After at once; what was held is given back', async () => {
      await make({ bodiesInFlight: (budget = new BodiesInFlight(1024 * 1024)) });
      const read = bytesRead();
      const event = (n: number) =>
        Buffer.from(
          JSON.stringify({
            webhookId: `44444444-4444-4444-8444-00000000000${n}`,
            topic: 't/x',
            data: { pad: 'p'.repeat(600_000) },
          }),
        );
      const first = heldRequest(url, await signed(event(1)), event(1));
      await untilTrue(
        () => budget.held >= event(1).length - 1 - 64 * 1024,
        () => `${budget.held} bytes held`,
        1_000_000,
      );
      // A genuine token signed for another body passes steps 1–5: its bytes are held until the end, so they count.
      const second = heldRequest(url, await signed(event(9)), event(2));
      const busy = await second.answer;
      assert.match(busy, /^HTTP\/1\.1 503 /);
      assert.match(busy, /\r\nretry-after: 1\r\n/i);
      const record = receiver.history.all().at(-1)!;
      assert.deepEqual([record.status, record.body.kept], [503, 0]);
      assert.match(record.note!, /^answered 503: the bodies being received already hold the 1048576-byte limit/);
      first.finish();
      assert.match(await first.answer, /^HTTP\/1\.1 200 /, 'the delivery in progress is not the one refused');
      await untilTrue(
        () => budget.held === 0 && read() > 0,
        () => `${budget.held} bytes still held`,
      );
      // Given back every time: one after another, each fits.
      for (let n = 3; n <= 7; n++)
        assert.equal(
          (await rawRequest(url, { method: 'POST', body: event(n), headers: await signed(event(n)) })).status,
          200,
        );
      assert.equal(budget.held, 0);
    });

    it('one body per token at a time: a genuine token replayed with other bodies holds one; the others are hashed as they come and refused at step 6, a true copy is answered 503, and once the first ends the delivery goes through', async () => {
      await make({ bodiesInFlight: (budget = new BodiesInFlight(4 * 1024 * 1024)) });
      const read = bytesRead();
      const genuine = Buffer.from(
        JSON.stringify({
          webhookId: '55555555-5555-4555-8555-555555555555',
          topic: 't/x',
          data: { pad: 'p'.repeat(600_000) },
        }),
      );
      const headers = await signed(genuine);
      const other = (c: string) => Buffer.alloc(genuine.length, c);
      const first = heldRequest(url, headers, other('a'));
      await untilTrue(
        () => budget.held >= genuine.length - 1 - 64 * 1024,
        () => `${budget.held} bytes held`,
        1_000_000,
      );
      const replays = [other('b'), other('c')].map((body) => heldRequest(url, headers, body));
      await untilTrue(
        () => read() >= 3 * genuine.length,
        () => `${read()} bytes read`,
        1_000_000,
      );
      // Held, all three would fit in the 4 MiB; hashed, the two replays hold nothing.
      assert.ok(budget.held < genuine.length, `${budget.held} bytes held: only the first body`);

      const copy = await rawRequest(url, { method: 'POST', body: genuine, headers });
      assert.deepEqual(
        [copy.status, copy.headers['retry-after']],
        [503, '1'],
        'the true body, while another is received under its token: sent again shortly',
      );
      const copyRecord = receiver.history.all().at(-1)!;
      assert.match(copyRecord.note!, /^answered 503: another body under the same token was still being received/);
      assert.deepEqual(
        [copyRecord.body.size, copyRecord.body.sha256],
        [genuine.length, createHash('sha256').update(genuine).digest('hex')],
      );

      for (const r of replays) r.finish();
      for (const r of replays) assert.match(await r.answer, /^HTTP\/1\.1 403 [^]*forbidden: step 6 /);
      first.finish();
      assert.match(
        await first.answer,
        /^HTTP\/1\.1 403 [^]*forbidden: step 6 /,
        'the held one, too, once its body ends',
      );
      await untilTrue(
        () => budget.held === 0,
        () => `${budget.held} bytes still held`,
      );
      assert.equal(
        (await rawRequest(url, { method: 'POST', body: genuine, headers })).status,
        200,
        'sent again, the delivery is processed',
      );
      assert.equal((await rawRequest(url, { method: 'POST', body: genuine, headers })).text, 'duplicate\n');
      const refused = receiver.history.all().filter((r) => r.status === 403);
      assert.deepEqual(
        refused.map((r) => r.checks?.find((c) => !c.ok)?.step),
        [6, 6, 6],
      );
    });
  });

  it('past maxConnections the connection idle the longest gives way: a delivery gets through four idle ones, and a new connection is refused only while all four have requests in progress', async () => {
    await make({ maxConnections: 4 });
    const server = (receiver as unknown as { server: Server }).server;
    const connections = () => new Promise<number>((r, j) => server.getConnections((e, n) => (e ? j(e) : r(n))));
    const { port } = new URL(url);
    const open = () => {
      const s = connect(Number(port), '127.0.0.1');
      s.on('error', () => undefined);
      return { s, closed: new Promise<void>((r) => s.on('close', () => r())) };
    };
    const idle = [0, 1, 2, 3].map(open);
    for (let n = 0; n < 4; n = await connections()) await new Promise((r) => setImmediate(r));
    const body = Buffer.from(
      JSON.stringify({ webhookId: '55555555-5555-4555-8555-555555555555', topic: 't/x', data: {} }),
    );
    assert.equal((await rawRequest(url, { method: 'POST', body, headers: await signed(body) })).status, 200);
    await idle[0]!.closed; // the oldest gave way
    assert.equal(await connections(), 4, "the three others and the delivery's, kept alive");
    idle.forEach((c) => c.s.destroy());
    for (let n = 4; n > 1; n = await connections()) await new Promise((r) => setImmediate(r));

    // Four genuine requests in progress (bodies held open): none of them gives way, and a new connection is closed
    // instead. (A request already refused would give way: see the connection budget's tests.)
    let requests = 0;
    server.on('request', () => requests++);
    const bodies = [0, 1, 2, 3].map((i) =>
      Buffer.from(JSON.stringify({ webhookId: `6666666${i}-6666-4666-8666-666666666666`, topic: 't/held' })),
    );
    const headers = await Promise.all(bodies.map((b) => signed(b)));
    const held = bodies.map((b, i) => heldRequest(url, headers[i]!, b));
    await untilTrue(
      () => requests === 4,
      () => `${requests} requests in progress`,
    );
    const fifth = open();
    await fifth.closed;
    held.forEach((h) => h.finish());
    for (const h of held) assert.match(await h.answer, /^HTTP\/1\.1 200 /);
  });

  describe('413 reaches the sender as a 413, never a reset', () => {
    const big = Buffer.alloc(4 * 1024 * 1024, 0x61);
    beforeEach(() => make({ maxBodyBytes: 64 * 1024 }));

    it("Node's http.request, streaming the body", async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(big);
      });
      assert.equal(status, 413);
    });

    it("Node's http.request with a declared Content-Length over the limit", async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          url,
          { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': big.length } },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        req.end(big);
      });
      assert.equal(status, 413);
    });

    it('fetch', async () => {
      const res = await fetch(url, { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 413);
      await res.text();
    });

    it('a raw socket sends everything, then reads a 413 and an orderly close', async () => {
      const { port } = new URL(url);
      const answer = await new Promise<string>((resolve, reject) => {
        const s = connect(Number(port), '127.0.0.1', () => {
          s.write(
            `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n`,
          );
          s.end(big);
        });
        let text = '';
        s.on('data', (d) => (text += d.toString('latin1')));
        s.on('end', () => resolve(text));
        s.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 413 /);
    });
  });
});

describe('Receiver: the last 10,000 acknowledged events are known across a restart', () => {
  it('of 10,001 acknowledged (most records dropped by a 1 MiB history), a new receiver knows the newest 10,000: the second is a duplicate, the first is handled again', async function () {
    this.timeout(60_000);
    // Verification is not under test here, and RSA-signing 10,001 bodies would take about 10 s: every request
    // passes steps 1–7 as a verified delivery would, and the Receiver and the history do the rest for real.
    const passAll = {
      headers: () =>
        new TrustedToken(
          { header: { alg: 'RS256' }, claims: {}, signingInput: '', signature: '', signatureBytes: Buffer.alloc(0) },
          { issuer: 'https://issuer.test', jwksUrl: 'http://127.0.0.1:1/jwks.json', audience: 'a' },
          undefined,
        ),
      body: () => ({ ok: true, checks: [] }),
    } as unknown as Verifier;
    const log = new DeliveryHistory({ memoryBudgetBytes: 1024 * 1024 });
    const clock = new SystemClock();
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const events: string[] = [];
    const start = async () => {
      const r = new Receiver({ verifier: passAll, clock, history: log });
      r.on('verified-event', (e) => events.push((e.event as { webhookId: string }).webhookId));
      return { r, url: await r.start() };
    };
    const send = async (url: string, n: number) => {
      const res = await rawRequest(url, {
        method: 'POST',
        json: EVENT(id(n)),
        headers: { authorization: 'Bearer a.b.c' },
      });
      assert.equal(res.status, 200);
      return res.text;
    };

    const first = await start();
    await send(first.url, 0);
    await send(first.url, 1);
    // The rest in parallel (their order among themselves does not matter): 10,001 acknowledged in all.
    for (let n = 2; n <= 10_000; n += 50)
      await Promise.all(Array.from({ length: Math.min(50, 10_001 - n) }, (_, k) => send(first.url, n + k)));
    await first.r.stop();
    assert.equal(events.length, 10_001);
    assert.ok(log.size < 2_000, `${log.size} records kept: most were dropped, and only their ids remain`);

    const second = await start();
    try {
      assert.equal(await send(second.url, 1), 'duplicate\n', 'the oldest of the newest 10,000');
      assert.equal(await send(second.url, 10_000), 'duplicate\n', 'the newest');
      assert.equal(await send(second.url, 0), '', 'the 10,001st newest is forgotten: handled again');
      assert.equal(events.length, 10_002);
    } finally {
      await second.r.stop();
    }
  });
});
