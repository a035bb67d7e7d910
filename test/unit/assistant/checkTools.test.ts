// wfs_audit_receiver through runTool: a receiver that trusts the signing sandbox passes all 30 cases; one that trusts
// another issuer is not judged on attacks it never saw: the audit stops and says how to make the trust match; a host
// off this machine is not sent anything.
import assert from 'node:assert/strict';
import { runTool } from '../../../src/core/assistant/toolRegistry';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

describe('assistant: wfs_audit_receiver', function () {
  let f: AssistantFixture;
  beforeEach(async () => {
    f = await assistantFixture();
  });
  afterEach(() => f.stop());

  it('a receiver that trusts the signing sandbox: 30 cases, no failure', async () => {
    const out = await runTool('wfs_audit_receiver', { url: f.receiverUrl }, f.ctx);
    assert.ok(out.ok, JSON.stringify(out).slice(0, 400));
    const r = out.result as { total: number; failures: unknown[]; signedBy: { issuer: string } };
    assert.equal(r.total, 30);
    assert.deepEqual(r.failures, []);
    assert.equal(r.signedBy.issuer, f.sandbox.info.issuer);
  });

  it('a receiver that trusts another issuer: the audit stops at the genuine delivery and says how to match', async () => {
    const other = new Receiver({
      verifier: new Verifier({
        issuers: [{ issuer: 'https://other.example', audience: 'x', jwksUrl: 'http://127.0.0.1:9/jwks.json' }],
        clock: f.sandbox.clock,
      }),
      clock: f.sandbox.clock,
      history: new DeliveryHistory(),
    });
    const url = await other.start();
    try {
      const out = await runTool('wfs_audit_receiver', { url }, f.ctx);
      assert.ok(out.ok);
      const r = out.result as { trustMismatch?: { refusal: string; advice: string; notSent: number } };
      assert.ok(r.trustMismatch, 'the mismatch is said');
      assert.ok(r.trustMismatch.advice.includes(f.sandbox.info.issuer), r.trustMismatch.advice);
      assert.ok(r.trustMismatch.notSent > 0);
    } finally {
      await other.stop();
    }
  });

  it('a host off this machine is refused before anything is sent', async () => {
    const out = await runTool('wfs_audit_receiver', { url: 'https://receiver.example/webhooks' }, f.ctx);
    assert.ok(!out.ok);
    assert.match(out.error, /not on this machine/);
  });
});
