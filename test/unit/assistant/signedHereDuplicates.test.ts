// Issue #74, hole 3: what is signed here (a replay, a new event, a fixture) is recorded and verified but never
// enters the service's duplicate set, nor is it judged by it; a send's preview names the webhookId it carries.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { previewTool, runTool } from '../../../src/core/assistant/toolRegistry';
import { dedupeKey } from '../../../src/core/webhooks/DedupeSet';
import type { IncomingMessage } from 'node:http';
import { newRecord } from '../../../src/core/webhooks/deliveryRecord';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import { signedHereClaims } from '../../../src/core/webhooks/signedHereClaim';
import { RecordingServer } from '../helpers/recordingServer';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

const event = (webhookId: string) => ({
  webhookId,
  topic: 'workflow/completed',
  subTopic: 'status:workflow/completed',
  tenantId: 't',
  triggeredAt: '2026-01-15T12:00:00.0000001Z',
  actorId: 'a',
  data: { runId: 'wfrun_1' },
});

describe('assistant: deliveries signed here and the duplicate set', function () {
  let f: AssistantFixture;
  let app: RecordingServer;
  beforeEach(async () => {
    f = await assistantFixture();
    app = new RecordingServer();
  });
  afterEach(async () => {
    await app.stop();
    await f.stop();
  });

  const signedHere = async (body: object) =>
    f.sandbox.sandbox.context.signer.sign(Buffer.from(JSON.stringify(body)), { claims: signedHereClaims() });

  it('a copy signed here is marked, and the service’s own delivery of that webhookId after it is no duplicate', async () => {
    const W = randomUUID();
    const body = event(W);
    const mine = await f.deliver(body, { token: await signedHere(body) });
    assert.equal(mine.status, 200);
    assert.equal(f.history.all().at(-1)!.signedHere, true);
    const service = await f.deliver(body);
    assert.equal(service.status, 200);
    assert.doesNotMatch(service.text, /duplicate/);
    const last = f.history.all().at(-1)!;
    assert.equal(last.duplicate, false);
    assert.equal(last.signedHere, undefined);
    // The service's copy, acknowledged, is in the set: its next copy is a duplicate.
    assert.match((await f.deliver(body)).text, /duplicate/);
  });

  it('a copy signed here of an event the service sent and this receiver acknowledged is still a duplicate', async () => {
    const W = randomUUID();
    const body = event(W);
    assert.equal((await f.deliver(body)).status, 200);
    const mine = await f.deliver(body, { token: await signedHere(body) });
    assert.equal(mine.status, 200);
    assert.match(mine.text, /duplicate/);
    assert.equal(f.history.all().at(-1)!.duplicate, true);
  });

  it('wfs_send_event under a service’s webhookId leaves that webhookId out of the set', async () => {
    const W = randomUUID();
    const sent = await runTool('wfs_send_event', { to: 'receiver', topic: 'workflow/completed', webhookId: W }, f.ctx);
    assert.ok(sent.ok);
    assert.equal(f.history.all().at(-1)!.signedHere, true);
    const service = await f.deliver(event(W));
    assert.doesNotMatch(service.text, /duplicate/);
  });

  it('a history reloaded never seeds the set with a delivery signed here', () => {
    const h = new DeliveryHistory();
    const record = (id: string, webhookId: string) => ({
      ...newRecord({ method: 'POST', url: '/', headers: {} } as IncomingMessage, 0, id),
      verified: true,
      status: 200,
      webhookId,
    });
    void h.add(record('a', 'w-service'), Buffer.from('{}'));
    void h.add({ ...record('b', 'w-mine'), signedHere: true, jwt: { claims: signedHereClaims() } }, Buffer.from('{}'));
    assert.deepEqual(h.acknowledgedKeys(), [dedupeKey('w-service')]);
  });

  it('the previews of wfs_send_event and wfs_replay_to_app name the webhookId they carry', async () => {
    const W = randomUUID();
    const send = await previewTool(
      'wfs_send_event',
      { to: 'receiver', topic: 'workflow/completed', webhookId: W },
      f.ctx,
    );
    assert.match(send!.message, new RegExp(`webhookId: "${W}"`));
    const none = await previewTool('wfs_send_event', { to: 'receiver', topic: 'workflow/completed' }, f.ctx);
    assert.doesNotMatch(none!.message, /webhookId/);
    f.appUrl = await app.start();
    assert.equal((await f.deliver(event(W))).status, 200);
    const id = f.history.all().at(-1)!.id;
    const replay = await previewTool('wfs_replay_to_app', { deliveryId: id }, f.ctx);
    assert.match(replay!.message, new RegExp(`webhookId: "${W}"`));
  });
});
