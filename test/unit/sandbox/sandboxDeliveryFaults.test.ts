// The sandbox's delivery faults on test webhooks, on a virtual clock: a duplicate keeps its body and webhookId (and
// its token, unless fresh); a retry storm compresses the schedule and numbers each retry; a burst sends its copies
// together; a delay holds the delivery until the clock passes it; each says so in X-Wfs-Sandbox-Fault, never in
// the body. The control API sets, lists and clears them, and refuses a bad option by name.
import assert from 'node:assert/strict';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { RecordingServer } from '../helpers/recordingServer';
import { untilTrue } from '../helpers/eventLoop';

const WEBHOOK_ID = '3f1c2a8e-0b4e-4c39-9d3a-1f2e3d4c5b6a';
const HEADERS = {
  'x-svc-topic': 'workflow/completed',
  'x-svc-sub-topic': 'status:workflow/completed',
  'x-svc-tenant-id': 'tenant-1',
  'x-svc-webhook-id': WEBHOOK_ID,
  'x-svc-triggered-at': '2026-01-15T12:00:00.1234567Z',
};

describe('sandbox: delivery faults', () => {
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

  const fault = async (json: Record<string, unknown>) => {
    const r = await f.control('POST', 'faults', json);
    assert.equal(r.status, 201, r.text);
    return r.json();
  };
  const testWebhook = () => f.call('/test-webhook', { token, json: { address }, headers: HEADERS });
  const marks = () => receiver.requests.map((r) => r.headers['x-wfs-sandbox-fault']);

  it('duplicate: the copy has the same body and token, and names the webhookId it repeats; fresh: its own token', async () => {
    await fault({ fault: 'duplicate', count: 1, seed: 3 });
    assert.equal((await testWebhook()).json().receiverStatus, 200);
    await receiver.waitFor(2);
    const [a, b] = receiver.requests;
    assert.ok(a!.body.equals(b!.body));
    assert.equal(a!.headers.authorization, b!.headers.authorization);
    assert.deepEqual(marks(), [undefined, `duplicate-of=${WEBHOOK_ID}`]);
    assert.doesNotMatch(a!.body.toString(), /sandbox|fault/i, 'never in the body');

    await fault({ fault: 'duplicate', count: 1, freshToken: true });
    await testWebhook();
    await receiver.waitFor(4);
    const [c, d] = receiver.requests.slice(2);
    assert.notEqual(c!.headers.authorization, d!.headers.authorization);
    assert.equal(marks()[3], `duplicate-of=${WEBHOOK_ID}; fresh-token`);
  });

  it('retry-storm: after 500s, retries at the schedule divided by the factor, each numbered', async () => {
    receiver.respond = (n) => (n <= 2 ? 500 : 200);
    await fault({ fault: 'retry-storm', factor: 10 });
    const first = (await testWebhook()).json();
    assert.deepEqual([first.receiverStatus, first.retryScheduled], [500, true]);
    // The schedule is 1 s, then 2 s: compressed tenfold, 100 ms and 200 ms.
    await f.clock.advanceAsync(99);
    assert.equal(receiver.requests.length, 1);
    await f.clock.advanceAsync(1);
    await receiver.waitFor(2);
    await f.clock.advanceAsync(200);
    await receiver.waitFor(3);
    assert.deepEqual(marks(), [undefined, 'retry=1/5', 'retry=2/5']);
  });

  it('burst: the copies at once, each marked n of N; delay: held until the clock passes it', async () => {
    await fault({ fault: 'burst', count: 3, seed: 1 });
    await testWebhook();
    await receiver.waitFor(3);
    assert.deepEqual(marks().sort(), ['burst=1/3', 'burst=2/3', 'burst=3/3']);

    await f.control('DELETE', 'faults');
    await fault({ fault: 'delay', delayMs: 500 });
    const timersBefore = f.clock.pendingCount;
    const answer = testWebhook();
    // The request crosses real sockets: advance only once the sandbox holds the delivery on the clock.
    await untilTrue(
      () => f.clock.pendingCount > timersBefore,
      () => 'the delayed delivery never waited on the clock',
    );
    await f.clock.advanceAsync(499);
    assert.equal(receiver.requests.length, 3, 'not before its delay');
    await f.clock.advanceAsync(1);
    assert.equal((await answer).json().receiverStatus, 200);
    assert.equal(marks()[3], 'delayed-ms=500');
  });

  it('to: workflow leaves test webhooks alone; GET lists the setting, DELETE clears it; a bad option is named', async () => {
    const set = await fault({ fault: 'duplicate', to: 'workflow', seed: 9 });
    assert.deepEqual(set.delivery, { seed: 9, to: 'workflow', duplicate: { copies: 1, freshToken: false } });
    await testWebhook();
    assert.deepEqual(marks(), [undefined]);
    assert.deepEqual((await f.control('GET', 'faults')).json().delivery, set.delivery);
    assert.equal((await f.control('DELETE', 'faults')).json().delivery, null);
    assert.equal((await f.control('GET', 'faults')).json().delivery, null);
    for (const [json, words] of [
      [{ fault: 'burst', count: 500 }, /count must be an integer from 2 to 50/],
      [{ fault: 'delay' }, /delay needs delayMs/],
      [{ fault: 'reorder', after: 1 }, /after applies only to the throttle fault/],
      [{ fault: 'duplicate', seed: -1 }, /seed must be an integer from 0 to 4294967295/],
    ] as const) {
      const r = await f.control('POST', 'faults', json);
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.match(r.json().detail, words);
    }
    assert.equal((await f.control('GET', 'faults')).json().delivery, null, 'a refused fault changes nothing');
  });
});
