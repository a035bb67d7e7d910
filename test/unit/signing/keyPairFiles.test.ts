// A key folder (`wfs keys generate`, `wfs sign --keys`): written all or nothing, only into a folder no other user can
// write, never through a link; read back as a JWK or a PEM into the same signer, whose tokens the written key set
// verifies; and read only from inside the folder, never quoting a file it cannot use.
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { KeyFilesError, readKeyPair, writeAllOrNone, writeKeyPair } from '../../../src/core/signing/keyPairFiles';
import { ManualClock } from '../helpers/manualClock';

const posixOnly = process.platform === 'win32' ? it.skip : it;

describe('key folders', () => {
  const clock = new ManualClock();
  const fresh = () => mkdtempSync(join(tmpdir(), 'wfs-keys-'));

  it('reads back the private key as a JWK, or as the PEM when issuer.json names it; the key set verifies both', async () => {
    const dir = join(fresh(), 'k');
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

  it('a link left where a key file goes, even a dangling one, is refused before anything is written; its target is not created', async () => {
    const dir = fresh();
    const target = join(dir, 'stolen.json');
    symlinkSync(target, join(dir, 'private-key.pem')); // dangling: existsSync does not see it
    await assert.rejects(
      writeKeyPair(dir, clock, 'i', 'a'),
      (err: Error) =>
        err instanceof KeyFilesError && /already holds private-key\.pem: nothing was written/.test(err.message),
    );
    assert.equal(existsSync(target), false);
    assert.deepEqual(readdirSync(dir), ['private-key.pem'], 'no other key file was left behind');
  });

  it('writes all the files or none: when one cannot be written, those written before it are removed', async () => {
    const dir = fresh();
    await assert.rejects(
      writeAllOrNone(dir, [
        { name: 'a.json', text: '{}', mode: 0o600 },
        { name: 'b.json', text: '{}', mode: 0o600 },
        { name: join('no-such-folder', 'c.json'), text: '{}', mode: 0o600 },
      ]),
      (err: Error) =>
        err instanceof KeyFilesError && /cannot write .*c\.json \(ENOENT\): nothing was written/.test(err.message),
    );
    assert.deepEqual(readdirSync(dir), []);
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'b.json'));
    await assert.rejects(
      writeAllOrNone(dir, [
        { name: 'a.json', text: '{}', mode: 0o600 },
        { name: 'b.json', text: '{}', mode: 0o600 },
      ]),
      (err: Error) =>
        err instanceof KeyFilesError &&
        err.message.startsWith(`${join(dir, 'b.json')} is a symbolic link`) &&
        /nothing was written/.test(err.message) &&
        !err.message.includes('elsewhere'),
    );
    assert.deepEqual(readdirSync(dir), ['b.json']);
    assert.equal(existsSync(join(dir, 'elsewhere')), false);
  });

  posixOnly('refuses a folder other users can write, saying what to run; a new folder is created private', async () => {
    const base = fresh();
    for (const [mode, who] of [
      [0o777, 'every user'],
      [0o1777, 'every user'],
      [0o770, 'its group'],
    ] as const) {
      const dir = join(base, `open-${mode.toString(8)}`);
      mkdirSync(dir);
      chmodSync(dir, mode);
      await assert.rejects(
        writeKeyPair(dir, clock, 'i', 'a'),
        (err: Error) =>
          err instanceof KeyFilesError &&
          err.message.includes(`${dir} can be written by ${who}`) &&
          err.message.includes(`Run \`chmod go-w ${dir}\`, or choose another folder`),
      );
      assert.deepEqual(readdirSync(dir), [], 'nothing was written');
    }
    const made = join(base, 'new', 'keys');
    await writeKeyPair(made, clock, 'i', 'a');
    const mode = Number.parseInt(execFileSync('stat', ['-c', '%a', made], { encoding: 'utf8' }).trim(), 8);
    assert.equal(mode & 0o077, 0, "the folder it creates is its owner's alone");
  });

  it('says which file is wrong: no issuer.json, a claim missing from it, a private key that is neither JWK nor PEM', async () => {
    const dir = join(fresh(), 'k');
    await assert.rejects(
      readKeyPair(dir, clock),
      /cannot read the key folder .*k \(ENOENT\): is .* a folder written by `wfs keys generate`\?/,
    );
    const { issuerFile } = await writeKeyPair(dir, clock, 'i', 'a');
    writeFileSync(join(dir, 'issuer.json'), JSON.stringify({ ...issuerFile, audience: undefined }));
    await assert.rejects(readKeyPair(dir, clock), /has no "audience" string/);
    writeFileSync(join(dir, 'issuer.json'), JSON.stringify(issuerFile));
    writeFileSync(join(dir, 'private-key.jwk.json'), readFileSync(join(dir, 'jwks.json'), 'utf8'));
    await assert.rejects(readKeyPair(dir, clock), /not an RSA private key/);
  });

  describe('a hostile issuer.json: nothing outside the folder is read, and no file is quoted', () => {
    let root: string;
    let dir: string;
    let issuerFile: Record<string, unknown>;
    const secret = () => join(root, 'secret.txt');
    before(async () => {
      root = fresh();
      dir = join(root, 'repo', 'test', 'webhook-keys');
      ({ issuerFile } = (await writeKeyPair(dir, clock, 'i', 'a')) as unknown as {
        issuerFile: Record<string, unknown>;
      });
      writeFileSync(secret(), 'TOP-SECRET\n');
    });
    const naming = (privateKey: string) =>
      writeFileSync(join(dir, 'issuer.json'), JSON.stringify({ ...issuerFile, privateKey }));
    const refused = async (why: RegExp) =>
      assert.rejects(readKeyPair(dir, clock), (err: Error) => {
        assert.ok(err instanceof KeyFilesError, err.message);
        assert.doesNotMatch(err.message, /TOP-SECRET/);
        assert.match(err.message, why);
        assert.match(err.message, /the files a key folder names must be inside it/);
        return true;
      });

    it('"..": refused by name, before any file is opened', async () => {
      naming('../../../secret.txt');
      await refused(/issuer\.json names "privateKey": "\.\.\/\.\.\/\.\.\/secret\.txt", which leads out of the folder/);
    });

    it('an absolute path, even to a real private key', async () => {
      const other = join(fresh(), 'other');
      await writeKeyPair(other, clock, 'i', 'a');
      naming(resolve(other, 'private-key.pem'));
      await refused(/names "privateKey": ".*private-key\.pem", which is an absolute path/);
      naming(secret());
      await refused(/which is an absolute path/);
      naming('C:\\Users\\me\\secret.txt');
      await refused(/which is an absolute path/);
    });

    it('a link inside the folder whose target is outside it', async () => {
      symlinkSync(secret(), join(dir, 'innocent.pem'));
      naming('innocent.pem');
      await refused(/names "privateKey": "innocent\.pem", which is a link to outside the folder/);
    });

    it('issuer.json itself a link to outside the folder', async () => {
      const d = join(fresh(), 'k');
      mkdirSync(d);
      symlinkSync(secret(), join(d, 'issuer.json'));
      await assert.rejects(readKeyPair(d, clock), /issuer\.json is a link to outside the folder\. Nothing was read/);
    });

    it('a file inside the folder that is not a key: named with where it fails, its bytes never shown', async () => {
      writeFileSync(join(dir, 'notes.txt'), 'TOP-SECRET\n');
      naming('notes.txt');
      await assert.rejects(readKeyPair(dir, clock), (err: Error) => {
        assert.equal(
          err.message,
          `${join(dir, 'notes.txt')} is neither a private JWK nor a PEM private key: it is not valid JSON (line 1, column 1)`,
        );
        return true;
      });
      writeFileSync(join(dir, 'notes.txt'), '-----BEGIN PRIVATE KEY-----\nTOP-SECRET\n-----END PRIVATE KEY-----\n');
      await assert.rejects(
        readKeyPair(dir, clock),
        (err: Error) =>
          !/TOP-SECRET/.test(err.message) && /holds a PEM block that is not a private key/.test(err.message),
      );
      writeFileSync(join(dir, 'issuer.json'), '{"issuer": "i",\n  "TOP-SECRET" }');
      await assert.rejects(readKeyPair(dir, clock), (err: Error) => {
        assert.equal(err.message, `${join(dir, 'issuer.json')} is not valid JSON (line 2, column 16)`);
        return true;
      });
    });

    posixOnly('a FIFO where the key goes is refused at once, not waited on', async () => {
      const fifo = join(dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      naming('pipe');
      await assert.rejects(readKeyPair(dir, clock), /pipe is not a regular file, so it was not read/);
    });
  });
});
