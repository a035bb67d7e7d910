// What a receiver needs to trust a key folder written by `wfs keys generate`: a trust entry (its issuer and
// audience) and its public key set. A folder's key set has no address to fetch, so the entry names the folder's
// jwks.json by its file: URL, and the keys themselves are held in-process by the key-set cache made for that entry.
import { createPublicKey } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JWK } from 'jose';
import type { Clock } from '../time/clock';
import { JwksCache } from '../webhooks/JwksCache';
import type { TrustedIssuer } from '../webhooks/verificationSteps';
import { keyFolderPath, KeyFilesError, parseKeyJson, readIssuerFile, readKeyFolderFile } from './keyFolderFiles';

export interface KeyFolderTrust {
  /** The trust entry: the folder's issuer and audience; jwksUrl is the file: URL of its jwks.json (never fetched). */
  entry: TrustedIssuer;
  /** The folder's public key set, as read from its jwks.json. */
  jwks: { keys: JWK[] };
  /** The kid issuer.json names; the key set holds it. */
  kid: string;
}

/** Reads `dir`'s issuer.json and the key set it names (inside the folder only); the private key is not read, so a
 * folder checked in without it is trusted too. Throws KeyFilesError saying which file is wrong and why. */
export function readKeyFolderTrust(dir: string): KeyFolderTrust {
  const info = readIssuerFile(dir, ['issuer', 'audience', 'kid', 'jwks']) as {
    issuer: string;
    audience: string;
    kid: string;
    jwks: string;
  };
  const path = join(dir, info.jwks);
  const set = parseKeyJson(path, readKeyFolderFile(dir, info.jwks, 'jwks'));
  if (!Array.isArray(set.keys)) throw new KeyFilesError(`${path} has no "keys" array: it is not a key set`);
  const keys = set.keys.filter((k): k is JWK => !!k && typeof k === 'object' && !Array.isArray(k));
  const own = keys.filter((k) => k.kid === info.kid);
  if (own.length !== 1)
    throw new KeyFilesError(
      `${path} holds ${own.length === 0 ? 'no key' : `${own.length} keys`} with the kid ${JSON.stringify(info.kid)} that ${join(dir, 'issuer.json')} names: write the folder again with \`wfs keys generate --out DIR\``,
    );
  const key = own[0]!;
  if (typeof key.d === 'string')
    throw new KeyFilesError(
      `${path} holds a private key (its "d"): a key set is public. Write the folder again with \`wfs keys generate --out DIR\``,
    );
  try {
    if (key.kty !== 'RSA') throw new Error('not RSA');
    createPublicKey({ key: key as never, format: 'jwk' });
  } catch {
    throw new KeyFilesError(`${path}: the key ${JSON.stringify(info.kid)} is not an RSA public key`);
  }
  return {
    entry: {
      issuer: info.issuer,
      audience: info.audience,
      jwksUrl: pathToFileURL(keyFolderPath(dir, info.jwks, 'jwks')).href,
    },
    jwks: { keys },
    kid: info.kid,
  };
}

/** VerifierOptions.keySet for trust entries of which some are key folders: a folder's entry gets its keys held
 * in-process; every other entry gets the key set at its address, as the Verifier makes by default. */
export function keySetsWithFolders(
  folders: readonly KeyFolderTrust[],
  clock: Clock,
): (issuer: TrustedIssuer) => JwksCache {
  const byUrl = new Map(folders.map((f) => [f.entry.jwksUrl, f.jwks]));
  return (issuer) => {
    const keys = byUrl.get(issuer.jwksUrl);
    return new JwksCache({ jwksUrl: issuer.jwksUrl, clock, ...(keys ? { keys } : {}) });
  };
}
