// The sandbox makes its signing key when first needed, not at start: an RSA key pair takes 50–600 ms, which
// `wfs mcp` and the editor would otherwise wait before their ready line. Whatever asks first (the key set, a
// signature, the control API's info) gets the one key, and later answers name the same kid.
import assert from 'node:assert/strict';
import { decodeProtectedHeader } from 'jose';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { JWKS_PATH } from '../../../src/core/sandbox/Sandbox';

const SIGN = { bodyBase64: Buffer.from('{"webhookId":"x"}').toString('base64') };

describe('sandbox: its signing key is made when first needed', () => {
  let f: SandboxFixture;
  beforeEach(async () => (f = await startSandbox()));
  afterEach(() => f.stop());

  it('started, it has no key yet and its info names none; the key set then makes one, the one every answer names', async () => {
    assert.equal(f.sandbox.context.signer.hasKey, false);
    assert.equal(f.info.kid, undefined);
    assert.equal('kid' in f.sandbox.info(), false);
    const keys = (await f.call(JWKS_PATH)).json().keys as { kid: string }[];
    assert.equal(keys.length, 1);
    assert.equal(f.sandbox.info().kid, keys[0]!.kid);
    assert.equal((await f.control('GET', '')).json().kid, keys[0]!.kid);
    const signed = (await f.control('POST', 'sign', SIGN)).json();
    assert.equal(decodeProtectedHeader(signed.token).kid, keys[0]!.kid);
  });

  it('asked for at once by a signature, the key set and the info, it makes one key for all of them', async () => {
    const [signed, set, info] = await Promise.all([
      f.control('POST', 'sign', SIGN),
      f.call(JWKS_PATH),
      f.sandbox.infoWithKey(),
    ]);
    const kids = (set.json().keys as { kid: string }[]).map((k) => k.kid);
    assert.deepEqual(kids, [info.kid]);
    assert.equal(decodeProtectedHeader(signed.json().token).kid, info.kid);
    assert.equal(signed.json().kid, info.kid);
  });

  it('a rotation before any key publishes only the new one', async () => {
    const kid = (await f.control('POST', 'keys/rotate', {})).json().kid;
    assert.deepEqual(
      ((await f.call(JWKS_PATH)).json().keys as { kid: string }[]).map((k) => k.kid),
      [kid],
    );
  });
});
