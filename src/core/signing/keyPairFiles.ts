// A test issuer's key pair on disk (`wfs keys generate`, `wfs sign --keys`): a folder a user's CI can check in or
// create, so its receiver can trust a fixed test issuer without anything running.
//   issuer.json          { issuer, audience, kid, privateKey: "private-key.jwk.json", jwks: "jwks.json" }
//   jwks.json            the public key set, as a receiver's key-set address would serve it
//   private-key.jwk.json the private key as a JWK (mode 0600)
//   private-key.pem      the same key as PKCS#8 PEM, for tools in other languages (mode 0600)
import { createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JWK } from 'jose';
import type { Clock } from '../time/clock';
import { WebhookSigner } from './webhookSigner';

export const DEFAULT_TEST_ISSUER = 'https://issuer.test.invalid/webhooks';
export const DEFAULT_TEST_AUDIENCE = 'test-receiver';
export const KEY_FILES = {
  issuer: 'issuer.json',
  jwks: 'jwks.json',
  privateJwk: 'private-key.jwk.json',
  privatePem: 'private-key.pem',
} as const;
export const PRIVATE_KEY_MODE = 0o600;

export class KeyFilesError extends Error {}

export interface IssuerFile {
  issuer: string;
  audience: string;
  kid: string;
  privateKey: string;
  jwks: string;
}

/** Writes a new key pair into `dir` (created if missing); refuses a folder that already holds one. */
export async function writeKeyPair(
  dir: string,
  clock: Clock,
  issuer: string,
  audience: string,
): Promise<{ files: string[]; issuerFile: IssuerFile; jwks: { keys: JWK[] } }> {
  const taken = Object.values(KEY_FILES).filter((f) => existsSync(join(dir, f)));
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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // 'wx': never through a file (or a link) that appeared since the check; the mode is set at creation.
  const write = (name: string, text: string, mode: number) => {
    try {
      writeFileSync(join(dir, name), text, { mode, flag: 'wx' });
    } catch (err) {
      // A link left where a key file goes (dangling, so the check above did not see it) is never written through.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new KeyFilesError(
          `${join(dir, name)} already exists (a link or a file that appeared meanwhile): the key pair was not completed. Choose an empty folder.`,
        );
      throw err;
    }
  };
  write(KEY_FILES.privateJwk, JSON.stringify(key.privateJwk, null, 2) + '\n', PRIVATE_KEY_MODE);
  write(KEY_FILES.privatePem, pem, PRIVATE_KEY_MODE);
  const jwks = signer.jwks();
  write(KEY_FILES.jwks, JSON.stringify(jwks, null, 2) + '\n', 0o644);
  write(KEY_FILES.issuer, JSON.stringify(issuerFile, null, 2) + '\n', 0o644);
  return {
    files: [KEY_FILES.issuer, KEY_FILES.jwks, KEY_FILES.privateJwk, KEY_FILES.privatePem].map((f) => join(dir, f)),
    issuerFile,
    jwks,
  };
}

/** The signer a key folder describes: its private key as a JWK or, if named so, a PEM. */
export async function readKeyPair(dir: string, clock: Clock): Promise<WebhookSigner> {
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch (err) {
      throw new KeyFilesError(
        `cannot read ${join(dir, name)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): is ${dir} a folder written by \`wfs keys generate\`?`,
      );
    }
  };
  let info: Partial<IssuerFile>;
  try {
    info = JSON.parse(read(KEY_FILES.issuer)) as Partial<IssuerFile>;
  } catch (err) {
    if (err instanceof KeyFilesError) throw err;
    throw new KeyFilesError(`${join(dir, KEY_FILES.issuer)} is not valid JSON: ${(err as Error).message}`);
  }
  for (const k of ['issuer', 'audience', 'kid', 'privateKey'] as const)
    if (typeof info[k] !== 'string' || !info[k])
      throw new KeyFilesError(`${join(dir, KEY_FILES.issuer)} has no "${k}" string`);
  const text = read(info.privateKey!);
  let jwk: JWK;
  try {
    jwk = text.trimStart().startsWith('-----BEGIN')
      ? (createPrivateKey(text).export({ format: 'jwk' }) as JWK)
      : (JSON.parse(text) as JWK);
  } catch (err) {
    throw new KeyFilesError(
      `${join(dir, info.privateKey!)} is neither a private JWK nor a PEM private key: ${(err as Error).message}`,
    );
  }
  try {
    return await WebhookSigner.fromKeys(clock, info.issuer!, info.audience!, [{ ...jwk, kid: info.kid }]);
  } catch (err) {
    throw new KeyFilesError(`${join(dir, info.privateKey!)}: ${(err as Error).message}`);
  }
}
