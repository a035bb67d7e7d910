// Issue #79, item 9: wfs_environment names what the app must trust to accept what the tools send: the signer's
// issuer, audience and key set, and the same in one line.
import assert from 'node:assert/strict';
import { runTool } from '../../../src/core/assistant/toolRegistry';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

describe('assistant: wfs_environment names the signer whole', function () {
  let f: AssistantFixture;
  beforeEach(async () => {
    f = await assistantFixture();
  });
  afterEach(() => f.stop());

  it('issuer, audience and key set, and one line saying what the app must trust', async () => {
    const out = await runTool('wfs_environment', {}, f.ctx);
    assert.ok(out.ok);
    const signer = (out.result as { signer: { value: Record<string, string> } }).signer.value;
    const { info } = f.sandbox;
    assert.deepEqual([signer.issuer, signer.audience, signer.jwksUrl], [info.issuer, info.audience, info.jwksUrl]);
    assert.equal(
      signer.trust,
      `Your app must trust the issuer ${info.issuer} with the audience ${info.audience} and the key set ${info.jwksUrl}.`,
    );
  });
});
