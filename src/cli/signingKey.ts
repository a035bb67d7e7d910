// The key `wfs audit` and `wfs send` sign with, and how a receiver comes to trust it. By default the sandbox the
// environment names (WFS_BASE_URL with WFS_SANDBOX_SECRET), the one a receiver set up from `wfs sandbox`'s export
// line trusts; --sandbox-url names another sandbox, --keys DIR a key folder of `wfs keys generate`, --sandbox-port a
// sandbox started here. With none of them and no WFS_BASE_URL, a sandbox is started here too, and said so.
import { signerAuditIssuer, type SigningKey, signingKeyText } from '../core/audit';
import { signedHereClaims } from '../core/webhooks';
import {
  type AuditIssuer,
  Sandbox,
  SANDBOX_SECRET_ENV,
  SandboxControlClient,
  type SandboxTrust,
} from '../core/sandbox';
import { KeyFilesError, readKeyPair } from '../core/signing';
import type { Clock } from '../core/time';
import { intFlag, UsageError, type FlagSpecs, type ParsedFlags } from './flags';
import { httpUrlValue } from './httpUrlValue';
import { sandboxSecretFromEnv } from './sandboxSecret';

export type KeySource =
  | { kind: 'sandbox'; url: string; secret: string; namedBy: '--sandbox-url' | 'WFS_BASE_URL' }
  | { kind: 'keys'; dir: string }
  /** A sandbox started by this command; `asked` when --sandbox-port chose it, not the lack of WFS_BASE_URL. */
  | { kind: 'here'; port: number; asked: boolean };

export const KEY_FLAGS: FlagSpecs = {
  'sandbox-url': {
    type: 'string',
    value: 'URL',
    description: `another running \`wfs sandbox\` whose key signs (its secret in ${SANDBOX_SECRET_ENV}); default: WFS_BASE_URL's`,
  },
  keys: { type: 'string', value: 'DIR', description: 'sign with a key folder written by `wfs keys generate`' },
  'sandbox-port': {
    type: 'string',
    value: 'P',
    description: 'sign with a sandbox started here, on this port (0: a free one)',
  },
};

export const KEY_ENV: [string, string][] = [
  ['WFS_BASE_URL', 'the sandbox whose key signs, unless a flag names another (`wfs sandbox` prints its export line)'],
  [SANDBOX_SECRET_ENV, `that sandbox's "controlSecret" (the same export line)`],
];

/** The key the flags and the environment choose; a usage error, before anything is sent, when they conflict. */
export function keySource(flags: ParsedFlags, env: NodeJS.ProcessEnv, command: string): KeySource {
  const given = ['sandbox-url', 'keys', 'sandbox-port'].filter((f) => flags.values.has(f));
  if (given.length > 1)
    throw new UsageError(`give one key to sign with, not ${given.map((f) => `--${f}`).join(' and ')}`);
  const url = flags.values.get('sandbox-url');
  if (url) {
    httpUrlValue('--sandbox-url', url, "the sandbox's http(s) baseUrl");
    return {
      kind: 'sandbox',
      url,
      secret: sandboxSecretFromEnv(env, `--sandbox-url ${url}`),
      namedBy: '--sandbox-url',
    };
  }
  const dir = flags.values.get('keys');
  if (dir) return { kind: 'keys', dir };
  if (flags.values.has('sandbox-port'))
    return { kind: 'here', port: intFlag(flags, 'sandbox-port', 0, 65535) ?? 0, asked: true };
  const base = env.WFS_BASE_URL?.trim();
  if (!base) return { kind: 'here', port: 0, asked: false };
  httpUrlValue('WFS_BASE_URL', base, "the sandbox's http(s) baseUrl");
  const secret = env[SANDBOX_SECRET_ENV]?.trim();
  if (!secret)
    throw new UsageError(
      `wfs ${command} signs with the sandbox WFS_BASE_URL names (${base}), and ${SANDBOX_SECRET_ENV} is not set: set it to that sandbox's "controlSecret" (\`wfs sandbox\` prints both in its export line). Or choose another key: --sandbox-url URL, --keys DIR (from \`wfs keys generate\`), or --sandbox-port P (a sandbox started here).`,
    );
  return { kind: 'sandbox', url: base, secret, namedBy: 'WFS_BASE_URL' };
}

/** A key ready to sign: as the audit's issuer, its trust (issuer, audience, key set), and what to stop after. */
export interface OpenKey {
  source: KeySource;
  issuer: AuditIssuer;
  trust: SandboxTrust;
  /** A genuine token for these bytes. */
  sign(body: Buffer): Promise<string>;
  stop(): Promise<void>;
}

export async function openKey(source: KeySource, clock: Clock): Promise<OpenKey> {
  if (source.kind === 'sandbox') {
    const client = new SandboxControlClient(source.url, source.secret);
    let trust: SandboxTrust;
    try {
      trust = await client.trust();
    } catch (err) {
      throw new Error(
        `${(err as Error).message}${source.namedBy === 'WFS_BASE_URL' ? '. WFS_BASE_URL names the sandbox that signs: give --sandbox-url URL, --keys DIR or --sandbox-port P to sign with another key' : ''}`,
      );
    }
    return {
      source,
      issuer: client,
      trust,
      sign: async (body) => (await client.sign(body)).token,
      stop: async () => undefined,
    };
  }
  if (source.kind === 'keys') {
    let signer;
    try {
      signer = await readKeyPair(source.dir, clock);
    } catch (err) {
      if (err instanceof KeyFilesError) throw new UsageError(`--keys: ${err.message}`);
      throw err;
    }
    const issuer = await signerAuditIssuer(signer);
    return {
      source,
      issuer,
      trust: issuer.trustNow,
      sign: (body) => signer.sign(body, { claims: signedHereClaims() }),
      stop: issuer.stop,
    };
  }
  const sandbox = new Sandbox({ port: source.port });
  const info = await sandbox.start();
  const client = new SandboxControlClient(info.baseUrl, info.controlSecret);
  const signer = sandbox.context.signer;
  return {
    source,
    issuer: client,
    trust: { baseUrl: info.baseUrl, issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl },
    sign: (body) => signer.sign(body, { claims: signedHereClaims() }),
    stop: () => sandbox.stop(),
  };
}

/** How to make a receiver trust `key` (or sign with one it trusts), in the CLI's words: the exact flag. */
export function trustAdvice(source: KeySource, key: SigningKey): string {
  const own = `Your own receiver: trust ${signingKeyText(key)}.`;
  if (source.kind === 'sandbox')
    return `If the receiver is \`wfs listen\`, start it with --trust-sandbox ${source.url} (and ${SANDBOX_SECRET_ENV} of that sandbox). ${own} Or sign with the sandbox it trusts: --sandbox-url URL${source.namedBy === 'WFS_BASE_URL' ? " (or WFS_BASE_URL and WFS_SANDBOX_SECRET from that sandbox's export line)" : ''}.`;
  if (source.kind === 'keys')
    return `The key is the folder ${source.dir}: the receiver must trust its issuer and audience (${source.dir}/issuer.json) with the key set ${source.dir}/jwks.json (served at ${key.jwksUrl} while this command runs). Or sign with a key it already trusts: --sandbox-url URL, or WFS_BASE_URL and WFS_SANDBOX_SECRET of its sandbox.`;
  return `${source.asked ? 'The key is that of a sandbox started here (--sandbox-port)' : 'No sandbox was named (WFS_BASE_URL is not set), so the key is that of a sandbox started here'}, with a new key at each run: a receiver trusts it only if it trusts the key set ${key.jwksUrl} and fetches it while this command runs. To sign with the sandbox your receiver trusts, set WFS_BASE_URL and WFS_SANDBOX_SECRET as \`wfs sandbox\` prints them (its export line), or give --sandbox-url URL.`;
}

/** A sandbox started here to sign: its first line says whom your app must trust. */
export function announceKey(key: OpenKey, emit: (line: Record<string, unknown>) => void): void {
  if (key.source.kind !== 'here') return;
  const { baseUrl, issuer, audience, jwksUrl } = key.trust;
  emit({ event: 'signing-sandbox', baseUrl, issuer, audience, jwksUrl });
}
