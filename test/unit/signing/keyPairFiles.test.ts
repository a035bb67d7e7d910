// A key folder (`wfs keys generate`, `wfs sign --keys`): written once, never through a link, read back as a JWK or
// a PEM into the same signer, whose tokens the written key set verifies.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { KeyFilesError, readKeyPair, writeKeyPair } from '../../../src/core/signing/keyPairFiles';
import { ManualClock } from '../helpers/manualClock';

describe('key folders', () => {
  const clock = new ManualClock();

  it('reads back the private key as a JWK, or as the PEM when issuer.json names it; the key set verifies both', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'wfs-keys-')), 'k');
    const { issuerFile, jwks } = await writeKeyPair(dir, clock, 'https://i.example', 'aud');
    const verify = (token: string) =>
      jwtVerify(token, createLocalJWKSet(jwks as never), {
        issuer: 'https://i.example',
        audience: 'aud',
        currentDate: new Date(clock.now()),
      });
    const fromJwk = await readKeyPair(dir, clock);
    assert.equal(fromJwk.currentKid, issuerFile.kid);
    await verify(await fromJwk.sign(Buffer.from('{}')));
    writeFileSync(join(dir, 'issuer.json'), JSON.stringify({ ...issuerFile, privateKey: 'private-key.pem' }));
    const fromPem = await readKeyPair(dir, clock);
    assert.equal(fromPem.currentKid, issuerFile.kid);
    assert.deepEqual(fromPem.jwks(), jwks);
    await verify(await fromPem.sign(Buffer.from('{}')));
  });

  it("never writes through a link left where a key file goes: the link's target is not created", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-keys-'));
    const target = join(dir, 'stolen.json');
    symlinkSync(target, join(dir, 'private-key.jwk.json')); // dangling: existsSync does not see it
    await assert.rejects(
      writeKeyPair(dir, clock, 'i', 'a'),
      (err: Error) => err instanceof KeyFilesError && /private-key\.jwk\.json already exists/.test(err.message),
    );
    assert.equal(existsSync(target), false);
    assert.equal(existsSync(join(dir, 'issuer.json')), false);
  });

  it('says which file is wrong: no issuer.json, a claim missing from it, a private key that is neither JWK nor PEM', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'wfs-keys-')), 'k');
    await assert.rejects(
      readKeyPair(dir, clock),
      /cannot read .*issuer\.json \(ENOENT\): is .* a folder written by `wfs keys generate`\?/,
    );
    const { issuerFile } = await writeKeyPair(dir, clock, 'i', 'a');
    writeFileSync(join(dir, 'issuer.json'), JSON.stringify({ ...issuerFile, audience: undefined }));
    await assert.rejects(readKeyPair(dir, clock), /has no "audience" string/);
    writeFileSync(join(dir, 'issuer.json'), JSON.stringify(issuerFile));
    writeFileSync(join(dir, 'private-key.jwk.json'), readFileSync(join(dir, 'jwks.json'), 'utf8'));
    await assert.rejects(readKeyPair(dir, clock), /not an RSA private key/);
  });
});
