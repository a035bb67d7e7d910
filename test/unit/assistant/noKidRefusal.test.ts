// Issue #79, item 9: a forged `alg: none` token without a kid was explained as "step 3 passed: key (no kid) found".
// Step 3 fetches the signing key by the token's kid (spec), so a token naming none is refused there, with that reason,
// before any key set is asked.
import assert from 'node:assert/strict';
import { runTool } from '../../../src/core/assistant/toolRegistry';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('assistant: a token without a kid', function () {
  let f: AssistantFixture;
  beforeEach(async () => {
    f = await assistantFixture();
  });
  afterEach(() => f.stop());

  it('is refused at step 3, and the explanation says why; no step after it is said to pass', async () => {
    const { info } = f.sandbox;
    const body = JSON.stringify({ webhookId: 'w-none', topic: 'a/b' });
    const now = Math.floor(f.sandbox.clock.now() / 1000);
    const claims = { iss: info.issuer, aud: info.audience, exp: now + 300 };
    for (const header of [
      { alg: 'none', typ: 'JWT' },
      { alg: 'RS256', typ: 'JWT' },
    ]) {
      const token = `${b64(header)}.${b64(claims)}.`;
      const answer = await f.deliver(body, { token });
      assert.equal(answer.status, 403);
      const r = f.history.all().at(-1)!;
      const failed = r.checks.find((c) => !c.ok)!;
      assert.equal(failed.step, 3, JSON.stringify(r.checks));
      assert.match(failed.detail, /names no kid/);
      const out = await runTool('wfs_explain_refusal', { id: r.id }, f.ctx);
      assert.ok(out.ok);
      const why = out.result as { summary: string; steps: { step: number; outcome: string; detail?: string }[] };
      assert.match(why.summary, /step 3/);
      assert.equal(why.steps.find((s) => s.step === 3)!.outcome, 'failed');
      assert.ok(!why.steps.some((s) => s.step === 3 && /found in/.test(s.detail ?? '')));
    }
  });
});
