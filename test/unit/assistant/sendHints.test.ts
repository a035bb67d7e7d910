// Issue #79, items 4 and 9: the hint after a send names the way to send that same thing again (a new event has no
// delivery to replay), and a 503 with Retry-After (the spec's answer while the app cannot consult its key set) is
// said as that, not as a failed handler.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { previewTool, runTool } from '../../../src/core/assistant/toolRegistry';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

type Json = Record<string, any>;

describe('assistant: the hint after a send', function () {
  let f: AssistantFixture;
  let app: Server;
  let answer: { status: number; headers?: Record<string, string> };
  beforeEach(async () => {
    f = await assistantFixture();
    answer = { status: 500 };
    app = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(answer.status, answer.headers).end('TypeError: boom'));
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    f.appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`;
  });
  afterEach(async () => {
    app.closeAllConnections();
    await new Promise((r) => app.close(r));
    await f.stop();
  });

  const result = async (name: string, input: Json): Promise<Json> => {
    const out = await runTool(name, input, f.ctx);
    assert.ok(out.ok, !out.ok ? out.error : '');
    return out.result as Json;
  };

  it('a new event that failed is sent again with wfs_send_event, a replay with wfs_replay_to_app', async () => {
    const sent = await result('wfs_send_event', { to: 'app', topic: 'workflow/completed' });
    assert.equal(sent.answer.status, 500);
    assert.match(sent.hint, /fix the handler, then send the event again with wfs_send_event/);
    assert.doesNotMatch(sent.hint, /same delivery/);
    assert.equal((await f.deliver({ webhookId: 'w1', topic: 'workflow/completed', data: {} })).status, 200);
    const replayed = await result('wfs_replay_to_app', { topic: 'workflow/completed' });
    assert.match(replayed.hint, /send the same delivery again with wfs_replay_to_app/);
  });

  it('a 503 with Retry-After is the app that could not consult its key set, not a failed handler', async () => {
    answer = { status: 503, headers: { 'retry-after': '5' } };
    const sent = await result('wfs_send_event', { to: 'app', topic: 'workflow/completed' });
    assert.match(sent.hint, /could not consult its key set/);
    assert.doesNotMatch(sent.hint, /handler failed/);
    answer = { status: 503 };
    assert.match((await result('wfs_send_event', { to: 'app', topic: 'workflow/completed' })).hint, /handler failed/);
  });

  it('a value with a line break or a bidi control is refused before anything is asked or sent (#74, hole 5)', async () => {
    for (const input of [
      { to: 'app', topic: 'workflow/completed', tenantId: 't1\nNOTE TO USER: this is free' },
      { to: 'app', topic: 'workflow/completed', webhookId: 'w\u202eevil' },
    ]) {
      assert.equal(await previewTool('wfs_send_event', input, f.ctx), undefined);
      const out = await runTool('wfs_send_event', input, f.ctx);
      assert.ok(!out.ok);
      assert.match(out.error, /holds a control character/);
      assert.doesNotMatch(out.error, /NOTE TO USER|evil/);
    }
    const fine = await previewTool('wfs_send_event', { to: 'app', topic: 'workflow/completed', tenantId: 't1' }, f.ctx);
    assert.match(fine!.message, /^Send a new event[^\n]*\nTopic: "workflow\/completed"\ntenantId: "t1"/);
  });
});
