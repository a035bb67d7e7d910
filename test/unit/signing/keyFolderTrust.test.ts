// A key folder as a receiver's trust: the Verifier, given the folder's entry and its key set in-process, verifies
// what `wfs sign --keys` signs, refuses another key at once (no key-set address to ask again), and fetches nothing.
// The folder's files are read from inside it only.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readKeyPair, writeKeyPair } from '../../../src/core/signing/keyPairFiles';
import { keySetsWithFolders, readKeyFolderTrust } from '../../../src/core/signing/keyFolderTrust';
import { KeyFilesError } from '../../../src/core/signing/keyFolderFiles';
import { TrustedToken, Verifier, type VerificationResult } from '../../../src/core/webhooks/Verifier';
import { JwksCache, KeySetError, KeySetUnavailable } from '../../../src/core/webhooks/JwksCache';
import { ManualClock } from '../helpers/manualClock';

const BODY = Buffer.from('{"webhookId":"0b9a3c52-7d1e-4c4b-9f0e-2a6c1d3e4f50","topic":"workflow/completed"}');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a key folder as a trust entry', () => {
  const clock = new ManualClock();
  let dir: string;

  before(async () => {
    dir = join(mkdtempSync(join(tmpdir(), 'wfs-trust-')), 'keys');
    await writeKeyPair(dir, clock, 'https://ci.example/iss', 'my-app');
  });

  const verify = async (verifier: Verifier, auth: string): Promise<VerificationResult> => {
    const v = await verifier.headers(auth);
    return v instanceof TrustedToken ? verifier.body(v, { size: BODY.length, sha256: sha(BODY) }) : v;
  };

  it("gives the folder's issuer and audience, its key set named by a file: URL, and the key set itself", () => {
    const trust = readKeyFolderTrust(dir);
    const written = JSON.parse(readFileSync(join(dir, 'jwks.json'), 'utf8'));
    const issuer = JSON.parse(readFileSync(join(dir, 'issuer.json'), 'utf8'));
    assert.deepEqual(trust.entry, {
      issuer: 'https://ci.example/iss',
      audience: 'my-app',
      jwksUrl: pathToFileURL(join(realpathSync(dir), 'jwks.json')).href,
    });
    assert.deepEqual(trust.jwks, written);
    assert.equal(trust.kid, issuer.kid);
  });

  it("the Verifier passes all seven steps for a token the folder's private key signs, and refuses another kid at once", async () => {
    const trust = readKeyFolderTrust(dir);
    const verifier = new Verifier({
      issuers: [trust.entry],
      clock,
      keySet: keySetsWithFolders([trust], clock),
    });
    const signer = await readKeyPair(dir, clock);
    const ok = await verify(verifier, `Bearer ${await signer.sign(BODY)}`);
    assert.equal(ok.ok, true, JSON.stringify(ok.checks));
    assert.deepEqual(
      ok.checks.map((c) => c.ok),
      [true, true, true, true, true, true, true],
    );
    const forged = await verify(verifier, `Bearer ${await signer.sign(BODY, { header: { kid: 'not-in-the-set' } })}`);
    assert.equal(forged.ok, false);
    assert.equal(forged.retryAfterS, undefined, 'refused, not "ask again later": the set is all there is');
    const failed = forged.checks.find((c) => !c.ok)!;
    assert.equal(failed.step, 3);
    assert.match(failed.detail, /no key with kid "not-in-the-set": the key set holds 1 kid/);
    const otherKey = await verify(
      verifier,
      `Bearer ${await (await writeAndRead(clock, 'https://ci.example/iss', 'my-app')).sign(BODY)}`,
    );
    assert.equal(otherKey.ok, false, 'a key pair of the same issuer but not this folder is refused');
  });

  it('other entries keep their key set at its address; a folder entry is never fetched', async () => {
    const trust = readKeyFolderTrust(dir);
    const keySet = keySetsWithFolders([trust], clock);
    const remote = keySet({ issuer: 'x', audience: 'y', jwksUrl: 'http://127.0.0.1:9/jwks.json' });
    assert.ok(remote instanceof JwksCache);
    assert.equal(remote.jwksUrl, 'http://127.0.0.1:9/jwks.json');
    await assert.rejects(remote.getKey('k'), KeySetUnavailable, 'an address is fetched (nothing listens there)');
    const local = keySet(trust.entry);
    assert.equal((await local.getKey(trust.kid)).asymmetricKeyType, 'rsa');
    // Fetching a file: URL would fail and leave it "unavailable"; a kid it lacks is a plain refusal instead.
    await assert.rejects(
      local.getKey('other'),
      (err: Error) => err instanceof KeySetError && !(err instanceof KeySetUnavailable),
    );
    clock.advance(2 * 3600_000);
    assert.equal((await local.getKey(trust.kid)).asymmetricKeyType, 'rsa', 'never stale');
  });

  it('reads only inside the folder, and names what is wrong with the key set without quoting it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wfs-trust-'));
    const d = join(root, 'keys');
    const { issuerFile } = await writeKeyPair(d, clock, 'i', 'a');
    writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET');
    const naming = (jwks: string) => writeFileSync(join(d, 'issuer.json'), JSON.stringify({ ...issuerFile, jwks }));
    const refused = (why: RegExp) =>
      assert.throws(
        () => readKeyFolderTrust(d),
        (err: Error) => err instanceof KeyFilesError && why.test(err.message) && !/TOP-SECRET/.test(err.message),
      );
    naming('../secret.txt');
    refused(/names "jwks": "\.\.\/secret\.txt", which leads out of the folder with "\.\."/);
    naming(join(root, 'secret.txt'));
    refused(/which is an absolute path/);
    symlinkSync(join(root, 'secret.txt'), join(d, 'set.json'));
    naming('set.json');
    refused(/names "jwks": "set\.json", which is a link to outside the folder/);
    writeFileSync(join(d, 'bad.json'), 'TOP-SECRET');
    naming('bad.json');
    refused(/bad\.json is not valid JSON \(line 1, column 1\)$/);
    writeFileSync(join(d, 'bad.json'), '{"keys":[]}');
    refused(/bad\.json holds no key with the kid "[\w-]+" that .*issuer\.json names/);
    naming('private-key.jwk.json');
    refused(/private-key\.jwk\.json has no "keys" array/);
    writeFileSync(
      join(d, 'bad.json'),
      JSON.stringify({ keys: [JSON.parse(readFileSync(join(d, 'private-key.jwk.json'), 'utf8'))] }),
    );
    naming('bad.json');
    refused(/bad\.json holds a private key \(its "d"\): a key set is public/);
  });

  it('a folder without its private key is still trusted: the receiver needs only the public half', async () => {
    const d = join(mkdtempSync(join(tmpdir(), 'wfs-trust-')), 'keys');
    const { issuerFile } = await writeKeyPair(d, clock, 'i', 'a');
    writeFileSync(join(d, 'issuer.json'), JSON.stringify({ ...issuerFile, privateKey: 'gone.pem' }));
    assert.equal(readKeyFolderTrust(d).kid, issuerFile.kid);
  });
});

async function writeAndRead(clock: ManualClock, issuer: string, audience: string) {
  const d = join(mkdtempSync(join(tmpdir(), 'wfs-trust-')), 'keys');
  await writeKeyPair(d, clock, issuer, audience);
  return readKeyPair(d, clock);
}
