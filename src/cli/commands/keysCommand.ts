// `wfs keys generate`: a test issuer's key pair and its key set in a folder, for a receiver's tests and CI.
import { EXIT } from '../exitCodes';
import { join } from 'node:path';
import { refuseFolderLinkOut, UnsafeFilePath } from '../../core/files';
import { DEFAULT_TEST_AUDIENCE, DEFAULT_TEST_ISSUER, KeyFilesError, writeKeyPair } from '../../core/signing';
import type { CommandSpec } from '../commandSpec';
import { requiredFlag, UsageError } from '../flags';

export const keysCommand: CommandSpec = {
  name: 'keys generate',
  synopsis: 'keys generate --out DIR [--issuer ISS] [--audience AUD]',
  description: [
    'Writes a new RS256 key pair into DIR (created if missing). A folder that already holds one, or that another user',
    'can write (group- or world-writable, or not yours), is refused, and nothing is written:',
    '  issuer.json           the issuer, audience and kid, and the names of the files below',
    '  jwks.json             the public key set: `wfs listen --trust-keys DIR` trusts it, or give it to your receiver',
    '  private-key.jwk.json  the private key as a JWK (mode 0600), read by `wfs sign --keys DIR`',
    '  private-key.pem       the same key as PKCS#8 PEM (mode 0600)',
    'A test key: never trust it outside tests. On a terminal it says what it wrote and what to run next; piped, it',
    'prints {"event":"keys","dir":…,"kid":…,"issuer":…,"audience":…,"files":[…]}.',
  ].join('\n'),
  flags: {
    out: { type: 'string', value: 'DIR', description: 'the folder to write (required)', required: true },
    issuer: {
      type: 'string',
      value: 'ISS',
      description: `the issuer (iss) the tokens carry (default ${DEFAULT_TEST_ISSUER})`,
    },
    audience: {
      type: 'string',
      value: 'AUD',
      description: `the audience (aud) the tokens carry (default ${DEFAULT_TEST_AUDIENCE})`,
    },
  },
  async run(flags, io) {
    const dir = requiredFlag(flags, 'out', 'the folder to write the key pair to');
    try {
      // The folder itself, or one on the way, must not lead out of the folder it runs in through a link (#74).
      await refuseFolderLinkOut(join(dir, 'private-key.pem'), process.cwd());
      const { files, issuerFile } = await writeKeyPair(
        dir,
        io.clock,
        flags.values.get('issuer') ?? DEFAULT_TEST_ISSUER,
        flags.values.get('audience') ?? DEFAULT_TEST_AUDIENCE,
      );
      io.emit({
        event: 'keys',
        dir,
        kid: issuerFile.kid,
        issuer: issuerFile.issuer,
        audience: issuerFile.audience,
        files,
      });
      return EXIT.ok;
    } catch (err) {
      if (err instanceof KeyFilesError) throw new UsageError(err.message);
      if (err instanceof UnsafeFilePath) throw new UsageError(`--out: ${err.message}`);
      throw err;
    }
  },
};
