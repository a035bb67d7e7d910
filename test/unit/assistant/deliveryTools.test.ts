// The reading and sending tools against a real receiver, a real sandbox signer and a loopback app, through runTool
// (what both faces call): filters, a delivery whole, refusals explained, waits, and replay-fix-replay.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { runTool, type ToolOutcome } from '../../../src/core/assistant/toolRegistry';
import { RecordingServer } from '../helpers/recordingServer';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

type Json = Record<string, any>;

function ok(out: ToolOutcome): Json {
  assert.ok(out.ok, `the tool failed: ${!out.ok ? out.error : ''}`);
  return out.result as Json;
}

const event = (topic: string, runId: string) => ({
  webhookId: createHash('sha256')
    .update(topic + runId)
    .digest('hex')
    .slice(0, 32),
  topic,
  subTopic: `status:${topic}`,
  tenantId: 't',
  triggeredAt: '2026-01-15T12:00:00.0000001Z',
  actorId: 'a',
  data: { runId },
});

describe('assistant: the delivery tools', function () {
  let f: AssistantFixture;
  beforeEach(async () => {
    f = await assistantFixture();
  });
  afterEach(() => f.stop());

  it('wfs_list_deliveries filters by topic (globs too), verified, status, since and text; newest first, bounded', async () => {
    assert.equal((await f.deliver(event('workflow/completed', 'wfrun_1'))).status, 200);
    f.sandbox.clock.advance(2 * 3_600_000);
    assert.equal((await f.deliver(event('workflow/failed', 'wfrun_2'))).status, 200);
    assert.equal((await f.deliver('{"topic":"workflow/completed"}', { token: null })).status, 403);
    const all = ok(await runTool('wfs_list_deliveries', {}, f.ctx));
    assert.equal(all.held, 3);
    assert.deepEqual(
      all.deliveries.map((d: Json) => d.status),
      [403, 200, 200],
      'newest first',
    );
    const glob = ok(await runTool('wfs_list_deliveries', { topic: 'workflow/*', verified: true }, f.ctx));
    assert.deepEqual(
      glob.deliveries.map((d: Json) => d.runId),
      ['wfrun_2', 'wfrun_1'],
    );
    const question = ok(await runTool('wfs_list_deliveries', { topic: 'workflow/faile?' }, f.ctx));
    assert.deepEqual(
      question.deliveries.map((d: Json) => d.runId),
      ['wfrun_2'],
      '? is one character, as in forward rules',
    );
    const bad = await runTool('wfs_list_deliveries', { topic: 'workflow/***' }, f.ctx);
    assert.ok(!bad.ok && /The topic pattern "workflow\/\*\*\*"/.test(bad.error), 'refused in words');
    assert.match(JSON.stringify(bad), /holds \*\*\* : use \* \(within one \/-separated part\) or \*\*/);
    const refused = ok(await runTool('wfs_list_deliveries', { verified: false }, f.ctx));
    assert.equal(refused.deliveries[0].failedStep.step, 1);
    assert.equal(ok(await runTool('wfs_list_deliveries', { status: 403 }, f.ctx)).matching, 1);
    assert.equal(ok(await runTool('wfs_list_deliveries', { since: '1h' }, f.ctx)).matching, 2);
    assert.equal(ok(await runTool('wfs_list_deliveries', { text: 'WFRUN_1' }, f.ctx)).matching, 1);
    const one = ok(await runTool('wfs_list_deliveries', { limit: 1 }, f.ctx));
    assert.equal(one.deliveries.length, 1);
    assert.equal(one.matching, 3);
  });

  it('a wrong input is refused with what to change, before anything runs', async () => {
    for (const input of [{ limit: 1000 }, { colour: 'red' }, { since: 'yesterday-ish' }, { verified: 'yes' }]) {
      const out = await runTool('wfs_list_deliveries', input, f.ctx);
      assert.ok(!out.ok, JSON.stringify(input));
      assert.match(out.error, /limit|colour|since|verified/);
    }
    const unknown = await runTool('wfs_nothing', {}, f.ctx);
    assert.ok(!unknown.ok);
  });

  it('wfs_get_delivery returns the body, the recorded headers (never the token), the seven steps and the runId', async () => {
    await f.deliver(event('workflow/completed', 'wfrun_7'));
    const d = ok(await runTool('wfs_get_delivery', {}, f.ctx));
    assert.equal(d.runId, 'wfrun_7');
    assert.equal(d.body.json.data.runId, 'wfrun_7');
    assert.equal(d.checks.length, 7);
    assert.ok(d.checks.every((c: Json) => c.ok));
    assert.match(d.headers.authorization, /^Bearer <redacted, \d+ characters>$/);
    assert.equal(d.jwt.claims.iss, f.sandbox.info.issuer);
    const missing = await runTool('wfs_get_delivery', { id: 'nope' }, f.ctx);
    assert.ok(!missing.ok);
    assert.match(missing.error, /wfs_list_deliveries/);
  });

  it('wfs_explain_refusal walks the seven steps and says what to do for the one that failed', async () => {
    const body = JSON.stringify(event('workflow/completed', 'wfrun_8'));
    assert.equal((await f.deliver(body, { signedBody: body.replace('wfrun_8', 'wfrun_9') })).status, 403);
    const why = ok(await runTool('wfs_explain_refusal', {}, f.ctx));
    assert.deepEqual(
      why.steps.map((s: Json) => s.outcome),
      ['passed', 'passed', 'passed', 'passed', 'passed', 'failed', 'failed'],
    );
    assert.match(why.summary, /step 6 \(body hash\)/);
    assert.ok(why.likelyCauses.some((c: string) => /body changed after it was signed/.test(c)));
    assert.ok(why.whatToDo.some((c: string) => /raw bytes/.test(c)));
  });

  it('wfs_wait_for_delivery returns the next delivery of its topic, or says none came in time', async () => {
    await f.deliver(event('workflow/completed', 'before'));
    const waiting = runTool('wfs_wait_for_delivery', { topic: 'workflow/completed', timeoutSeconds: 30 }, f.ctx);
    // The wait has taken its look at what is already there once the receiver's delivery listener is on.
    await new Promise<void>((r) => setImmediate(r));
    await f.deliver(event('workflow/failed', 'other topic'));
    await f.deliver(event('workflow/completed', 'after'));
    const got = ok(await waiting);
    assert.equal(got.arrived, true);
    assert.equal(got.delivery.runId, 'after');

    const nothing = runTool('wfs_wait_for_delivery', { topic: 'workflow/never', timeoutSeconds: 5 }, f.ctx);
    await new Promise<void>((r) => setImmediate(r));
    f.sandbox.clock.advance(5000);
    const none = ok(await nothing);
    assert.equal(none.arrived, false);
    assert.match(none.message, /within 5 s/);
  });

  it('replay, read the 500, fix, replay: 200; the same bytes, each time with a fresh token', async () => {
    const app = new RecordingServer();
    f.appUrl = `${await app.start()}/hooks`;
    let fixed = false;
    app.respond = () => (fixed ? 200 : 500);
    try {
      await f.deliver(event('workflow/completed', 'wfrun_r'));
      const first = ok(await runTool('wfs_replay_to_app', { topic: 'workflow/completed' }, f.ctx));
      assert.equal(first.answer.status, 500);
      assert.match(first.hint, /fix the handler/);
      fixed = true;
      const second = ok(await runTool('wfs_replay_to_app', {}, f.ctx));
      assert.equal(second.answer.status, 200);
      assert.equal(app.requests.length, 2);
      assert.deepEqual(app.requests[0]!.body, app.requests[1]!.body);
      assert.equal(app.requests[0]!.body.toString(), JSON.stringify(event('workflow/completed', 'wfrun_r')));
      assert.notEqual(app.requests[0]!.headers.authorization, app.requests[1]!.headers.authorization);
    } finally {
      await app.stop();
    }
  });

  it('a refused delivery is never re-signed; without an app, replay says how to set one', async () => {
    await f.deliver('{"topic":"workflow/completed"}', { token: null });
    f.appUrl = 'http://127.0.0.1:9/hooks';
    const refused = await runTool('wfs_replay_to_app', { deliveryId: f.history.all().at(-1)!.id }, f.ctx);
    assert.ok(!refused.ok);
    assert.match(refused.error, /refused, so it is not re-signed/);
    f.appUrl = undefined;
    await f.deliver(event('workflow/completed', 'x'));
    const noApp = await runTool('wfs_replay_to_app', {}, f.ctx);
    assert.ok(!noApp.ok);
    assert.match(noApp.error, /--forward-to/);
  });

  it('wfs_send_event signs an event the receiver verifies; nothing leaves in Restricted Mode', async () => {
    const sent = ok(await runTool('wfs_send_event', { to: 'receiver', topic: 'loan/updated', data: { a: 1 } }, f.ctx));
    assert.equal(sent.answer.status, 200);
    const r = f.history.all().at(-1)!;
    assert.equal(r.verified, true);
    assert.equal(r.topic, 'loan/updated');
    assert.match(r.triggeredAt!, /\.\d{7}Z$/);
    f.trusted = false;
    const before = f.history.all().length;
    const out = await runTool('wfs_send_event', { to: 'receiver', topic: 'loan/updated' }, f.ctx);
    assert.ok(!out.ok);
    assert.equal(f.history.all().length, before);
  });

  it("no result carries the sandbox's control secret or password, even when a body does", async () => {
    const { controlSecret, password } = f.sandbox.info;
    await f.deliver({ ...event('workflow/completed', 'leak'), data: { note: `${controlSecret} ${password}` } });
    for (const [name, input] of [
      ['wfs_get_delivery', {}],
      ['wfs_list_deliveries', { text: 'leak' }],
      ['wfs_environment', {}],
    ] as const) {
      const text = JSON.stringify(await runTool(name, input, f.ctx));
      assert.ok(!text.includes(controlSecret) && !text.includes(password), `${name}: ${text.slice(0, 300)}`);
    }
  });
});
