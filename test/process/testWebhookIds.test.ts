// Issue #79, item 6: `wfs test-webhook --data FILE` reported "Test webhook <X-Svc-Webhook-Id> sent", while the
// body's webhookId, which the app dedupes on, was another. The id reported is the body's; the header carries it too
// unless --webhook-id names another, and then both are named.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { testWebhookArgs } from './helpers/commandArgs';

describe('wfs test-webhook: one id, the one the app dedupes on', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();

  it("reports the body's webhookId, which the receiver records; a different --webhook-id is named beside it", async () => {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const bodyId = randomUUID();
    const data = join(mkdtempSync(join(tmpdir(), 'wfs-ids-')), 'mydata.json');
    writeFileSync(
      data,
      JSON.stringify({
        webhookId: bodyId,
        topic: 'workflow/completed',
        subTopic: 'status:workflow/completed',
        tenantId: 't1',
        triggeredAt: '2026-11-28T10:00:00.1234567Z',
        actorId: 'a',
        data: { runId: 'wfrun_1' },
      }),
    );
    const p = new WfsProcess([...testWebhookArgs(url), '--data', data], s.env);
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    const sent = p.events('sent')[0]!;
    assert.equal(sent.webhookId, bodyId);
    assert.equal(sent.headerWebhookId, undefined);
    const delivered = await listen.event('delivery');
    assert.equal(delivered.webhookId, bodyId);

    const headerId = randomUUID();
    const both = new WfsProcess([...testWebhookArgs(url), '--data', data, '--webhook-id', headerId], s.env);
    assert.equal(await both.exitCode(), 0, both.stdout + both.stderr);
    const line = both.events('sent')[0]!;
    assert.deepEqual([line.webhookId, line.headerWebhookId], [bodyId, headerId]);
    const human = new WfsProcess([...testWebhookArgs(url), '--data', data, '--webhook-id', headerId, '--human'], s.env);
    assert.equal(await human.exitCode(), 0, human.stdout + human.stderr);
    assert.match(human.stdout, new RegExp(`Test webhook ${bodyId} \\(X-Svc-Webhook-Id ${headerId}\\) sent`));
    await listen.stopCleanly();
  });
});
