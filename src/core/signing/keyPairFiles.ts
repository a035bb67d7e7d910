// A test issuer's key pair on disk (`wfs keys generate`, `wfs sign --keys`): a folder a user's CI can check in or
// create, so its receiver can trust a fixed test issuer without anything running.
//   issuer.json          { issuer, audience, kid, privateKey: "private-key.jwk.json", jwks: "jwks.json" }
//   jwks.json            the public key set, as a receiver's key-set address would serve it
//   private-key.jwk.json the private key as a JWK (mode 0600)
//   private-key.pem      the same key as PKCS#8 PEM, for tools in other languages (mode 0600)
// Writing is all or nothing, into a folder no other user can write; reading stays inside the folder
// (keyFolderFiles.ts).
import { createPrivateKey } from 'node:crypto';
import { lstatSync, mkdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { JWK } from 'jose';
import { UnsafeFilePath, writeFileSafely } from '../files';
import { shellWord } from '../presentation';
import type { Clock } from '../time/clock';
import {
  jsonObject,
  KEY_FILES,
  KeyFilesError,
  readIssuerFile,
  readKeyFolderFile,
  type IssuerFile,
} from './keyFolderFiles';
import { WebhookSigner } from './webhookSigner';

export { KeyFilesError, type IssuerFile } from './keyFolderFiles';

export const DEFAULT_TEST_ISSUER = 'https://issuer.test.invalid/webhooks';
export const DEFAULT_TEST_AUDIENCE = 'test-receiver';
const PRIVATE_KEY_MODE = 0o600;

/** Writes a new key pair into `dir` (created if missing); refuses a folder that already holds one, or that another
 * user can write. */
export async function writeKeyPair(
  dir: string,
  clock: Clock,
  issuer: string,
  audience: string,
): Promise<{ files: string[]; issuerFile: IssuerFile; jwks: { keys: JWK[] } }> {
  let created: string | undefined;
  try {
    created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new KeyFilesError(
      `cannot create the folder ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): nothing was written. Choose another folder.`,
    );
  }
  try {
    checkFolderIsPrivate(dir);
    // lstat, not exists: a link left where a key file goes counts, even one that leads nowhere.
    const taken = Object.values(KEY_FILES).filter((f) => present(join(dir, f)));
    if (taken.length)
      throw new KeyFilesError(
        `${dir} already holds ${taken.join(', ')}: nothing was written. Choose an empty folder, or delete those files first.`,
      );
    const signer = new WebhookSigner(clock, issuer, audience);
    await signer.init();
    const key = await signer.exportCurrent();
    const pem = createPrivateKey({ key: key.privateJwk as never, format: 'jwk' }).export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const issuerFile: IssuerFile = {
      issuer,
      audience,
      kid: key.kid,
      privateKey: KEY_FILES.privateJwk,
      jwks: KEY_FILES.jwks,
    };
    const jwks = signer.jwks();
    await writeAllOrNone(dir, [
      { name: KEY_FILES.privateJwk, text: JSON.stringify(key.privateJwk, null, 2) + '\n', mode: PRIVATE_KEY_MODE },
      { name: KEY_FILES.privatePem, text: pem, mode: PRIVATE_KEY_MODE },
      { name: KEY_FILES.jwks, text: JSON.stringify(jwks, null, 2) + '\n', mode: 0o644 },
      // Last: a folder with an issuer.json is a complete one.
      { name: KEY_FILES.issuer, text: JSON.stringify(issuerFile, null, 2) + '\n', mode: 0o644 },
    ]);
    return {
      files: [KEY_FILES.issuer, KEY_FILES.jwks, KEY_FILES.privateJwk, KEY_FILES.privatePem].map((f) => join(dir, f)),
      issuerFile,
      jwks,
    };
  } catch (err) {
    if (created) removeEmptyFolders(dir, created);
    throw err;
  }
}

function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Private keys go only where no other user can replace or add files: the folder is the user's own and neither
 * group- nor world-writable. Windows keeps permissions in ACLs, which a mode does not show: not checked there. */
function checkFolderIsPrivate(dir: string): void {
  if (process.platform === 'win32') return;
  const st = statSync(dir);
  if (!st.isDirectory()) throw new KeyFilesError(`${dir} is not a folder: nothing was written. Choose a folder.`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new KeyFilesError(
      `${dir} belongs to another user (uid ${st.uid}), who could replace the keys written there: nothing was written. Choose a folder of your own (--out DIR).`,
    );
  if (st.mode & 0o022)
    throw new KeyFilesError(
      `${dir} can be written by ${st.mode & 0o002 ? 'every user' : 'its group'} (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}): ${st.mode & 0o002 ? 'any user' : 'any member'} could replace the keys written there, so nothing was written. Run \`chmod go-w ${shellWord(dir)}\`, or choose another folder (--out DIR).`,
    );
}

/** Each file created new (never through a link or over a file that appeared meanwhile), with its mode from the
 * start; when one cannot be written, those already written are removed, so no partial key pair stays behind. */
export async function writeAllOrNone(
  dir: string,
  files: { name: string; text: string; mode: number }[],
): Promise<void> {
  const written: string[] = [];
  try {
    for (const f of files) {
      const path = join(dir, f.name);
      try {
        // Created new (O_EXCL|O_NOFOLLOW): never over a file that appeared meanwhile, nor through a link.
        await writeFileSafely(path, f.text, { mode: f.mode });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new KeyFilesError(
          err instanceof UnsafeFilePath
            ? err.reason === 'exists'
              ? `${path} already exists (a file that appeared meanwhile): nothing was written. Choose an empty folder.`
              : `${err.message} Choose an empty folder.`
            : `cannot write ${path} (${code ?? (err as Error).message}): nothing was written.`,
        );
      }
      written.push(path);
    }
  } catch (err) {
    for (const path of written.reverse()) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to remove.
      }
    }
    throw err;
  }
}

/** The folders this call created, from `dir` up to `created`, each only if empty. */
function removeEmptyFolders(dir: string, created: string): void {
  const top = resolve(created);
  for (let d = resolve(dir); d.startsWith(top); d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === top) return;
  }
}

/** The signer a key folder describes: its private key as a JWK or, if named so, a PEM. Every file it reads is
 * inside the folder; a key it cannot use is named with the reason, never shown. */
export async function readKeyPair(dir: string, clock: Clock): Promise<WebhookSigner> {
  const info = readIssuerFile(dir, ['issuer', 'audience', 'kid', 'privateKey']) as Omit<IssuerFile, 'jwks'>;
  const path = join(dir, info.privateKey);
  const text = readKeyFolderFile(dir, info.privateKey, 'privateKey');
  let jwk: JWK;
  if (text.trimStart().startsWith('-----BEGIN')) {
    try {
      jwk = createPrivateKey(text).export({ format: 'jwk' }) as JWK;
    } catch {
      throw new KeyFilesError(`${path} holds a PEM block that is not a private key (PKCS#8 or PKCS#1, unencrypted)`);
    }
  } else {
    const parsed = jsonObject(text);
    if (typeof parsed === 'string')
      throw new KeyFilesError(`${path} is neither a private JWK nor a PEM private key: it is ${parsed}`);
    jwk = parsed as JWK;
  }
  if (jwk.kty !== 'RSA' || typeof jwk.d !== 'string')
    throw new KeyFilesError(`${path} is not an RSA private key (a JWK with "kty": "RSA" and its private part "d")`);
  try {
    return await WebhookSigner.fromKeys(clock, info.issuer, info.audience, [{ ...jwk, kid: info.kid }]);
  } catch {
    throw new KeyFilesError(`${path} holds an RSA private key that cannot be used to sign RS256`);
  }
}
