// `wfs sign`: the Authorization header for exactly the bytes of a body, signed with a test key pair on disk or by a
// running sandbox (the environment's, as for every command that acts on one, unless --sandbox-url names another),
// with the claims a test needs to break.
import { SandboxControlClient } from '../../core/sandbox';
import { TransportError } from '../../core/http';
import { KeyFilesError, readKeyPair, sha256Hex } from '../../core/signing';
import { signedHereClaims } from '../../core/webhooks';
import { EXIT } from '../exitCodes';
import { findSandbox, sandboxTargetHelp, sandboxUnreachable, type SandboxTarget } from '../sandboxTarget';
import { bashCurlCommand, ShellCommandError } from '../../core/presentation';
import { MAX_STDIN_BYTES, readBoundedBytes } from '../boundedRead';
import type { CommandSpec } from '../commandSpec';
import { changeProblem, overridesOf, SET_FLAG } from '../eventOverrideFlags';
import { UsageError, type ParsedFlags } from '../flags';
import type { CliIO } from '../output';
import { applyOverrides, type EventOverride } from '../../core/fixtures';
import { httpUrlValue } from '../httpUrlValue';

const OMITTABLE = ['body_sha256', 'exp', 'iat', 'jti', 'iss', 'aud'];
const FORMATS = ['header', 'curl', 'json'];

export const signCommand: CommandSpec = {
  name: 'sign',
  synopsis:
    'sign --body FILE|- [--keys DIR | --sandbox-url URL] [--exp T] [--aud A] [--iss I] [--kid K] [--omit CLAIM] [--set PATH=VALUE …] [--format header|curl|json] [--to URL]',
  description: [
    'Signs the exact bytes of FILE (or standard input, -) as the service signs a webhook: an RS256 JWT with body_sha256',
    'over those bytes. The key is a test key pair written by `wfs keys generate --out DIR` (--keys DIR), or a running',
    "sandbox's own: the environment's (WFS_BASE_URL with WFS_SANDBOX_SECRET, the `export` line `wfs sandbox` prints)",
    'unless --sandbox-url names another. --exp, --aud, --iss, --kid and --omit break one claim at a time, for a test',
    'that must see the delivery refused.',
    'Prints, by --format: header (default) the header value "Bearer <jwt>"; curl a ready bash curl command to --to URL',
    "(the body goes to curl's standard input: from FILE, or the bytes read, printed by printf); json one line",
    '{"event":"signed","authorization":…,"token":…,"kid":…,"claims":…,"bodySha256":…,"bodyBytes":…}.',
    '--set changes values of a JSON body before it is signed; the changed bytes are what curl sends, and json prints',
    'them as "body" (the header alone is refused with --set: it would sign bytes you do not have).',
  ].join('\n'),
  flags: {
    body: {
      type: 'string',
      value: 'FILE|-',
      description: 'the body to sign: a file, or - for standard input (required)',
    },
    keys: { type: 'string', value: 'DIR', description: 'a folder written by `wfs keys generate`' },
    'sandbox-url': {
      type: 'string',
      value: 'URL',
      description: "another running sandbox than WFS_BASE_URL's signs (its baseUrl)",
    },
    exp: {
      type: 'string',
      value: 'T',
      description: 'exp: seconds since the epoch, or +N / -N seconds from now (write --exp=-60); default now + 300',
    },
    aud: { type: 'string', value: 'A', description: "another audience than the issuer's" },
    iss: { type: 'string', value: 'I', description: "another issuer than the key pair's" },
    kid: { type: 'string', value: 'K', description: "another kid in the header than the key's" },
    omit: { type: 'string', value: 'CLAIM', multiple: true, description: `leave a claim out: ${OMITTABLE.join(', ')}` },
    ...SET_FLAG,
    format: { type: 'string', value: 'F', description: 'header (default), curl or json' },
    to: { type: 'string', value: 'URL', description: "the receiver's URL, for --format curl (and json)" },
  },
  env: sandboxTargetHelp('--sandbox-url'),
  exits: [
    [EXIT.failed, 'nothing answered at the sandbox, or it refused to sign (the error line says why)'],
    [
      EXIT.usage,
      'usage error: nothing to sign or nothing to sign with, an unreadable body, a key folder refused, a --set path the body does not have (nothing sent)',
    ],
  ],
  async run(flags, io) {
    const c = signChoices(flags, io.env);
    const overrides = overridesOf(flags);
    const nowS = Math.floor(io.clock.now() / 1000);
    const { claims, header } = claimsToBreak(flags, nowS);
    const body = changedBody(readBody(c.source), overrides);
    const signed = await signBody(c, body, nowS, claims, header, io);
    if (typeof signed === 'number') return signed;
    const { token, kid } = signed;
    const authorization = `Bearer ${token}`;
    if (c.format === 'header') io.print(authorization + '\n');
    else if (c.format === 'json')
      io.emit({
        event: 'signed',
        authorization,
        token,
        kid,
        claims: decodeClaims(token),
        bodySha256: sha256Hex(body),
        bodyBytes: body.length,
        ...(c.to ? { to: c.to } : {}),
        // The bytes signed, when --set changed them: the file no longer holds them.
        ...(overrides.length ? { body: body.toString('utf8') } : {}),
      });
    // A changed body goes to curl as the bytes signed, never as the file (which holds the unchanged ones).
    else io.print(curlCommand(c.to!, token, overrides.length ? '-' : c.source, body) + '\n');
    return EXIT.ok;
  },
};

interface SignChoices {
  source: string;
  keysDir?: string;
  sandbox?: SandboxTarget;
  format: string;
  to?: string;
}

/** What to sign, with what, and how to print it; every missing or wrong one named at once. */
function signChoices(flags: ParsedFlags, env: NodeJS.ProcessEnv): SignChoices {
  const bodyFlag = flags.values.get('body');
  const keysDir = flags.values.get('keys');
  const sandboxUrl = flags.values.get('sandbox-url');
  if (keysDir !== undefined && sandboxUrl !== undefined)
    throw new UsageError(
      'both --keys and --sandbox-url were given: sign with one, either --keys DIR (a folder from `wfs keys generate`) or --sandbox-url URL (a running sandbox)',
    );
  const problems: string[] = [];
  if (!bodyFlag)
    problems.push('--body is missing: give the body to sign, a file or - for standard input (--body event.json)');
  const sandbox = keysDir === undefined ? findSandbox(env, '--sandbox-url', sandboxUrl) : undefined;
  if (sandbox && 'problem' in sandbox)
    problems.push(
      sandboxUrl !== undefined
        ? sandbox.problem
        : `nothing to sign with: no --keys DIR, and no sandbox (${sandbox.missing.join(' and ')} ${sandbox.missing.length > 1 ? 'are' : 'is'} not set). Give --keys DIR (a folder from \`wfs keys generate --out DIR\`), or paste the \`export\` line that \`wfs sandbox\` prints (it sets WFS_BASE_URL and WFS_SANDBOX_SECRET) to sign with that sandbox, or give --sandbox-url URL`,
    );
  const format = flags.values.get('format') ?? 'header';
  if (!FORMATS.includes(format)) problems.push(`--format must be one of ${FORMATS.join(', ')}`);
  const to = flags.values.get('to');
  if (to !== undefined) httpUrlValue('--to', to);
  if (format === 'curl' && to === undefined) problems.push('--format curl needs --to URL: the receiver to send to');
  // The header alone signs bytes nobody has but this command: the changed body must be printed with it.
  if (flags.lists.get('set')?.length && format === 'header')
    problems.push(
      '--set changes the body, so the header alone signs bytes you do not have: add --format json (it prints them as "body") or --format curl --to URL (it sends them)',
    );
  if (problems.length) throw new UsageError(problems.join('; and '));
  return { source: bodyFlag!, keysDir, sandbox: sandbox as SandboxTarget | undefined, format, to };
}

/** The claims and header --exp, --aud, --iss, --kid and --omit break. */
function claimsToBreak(
  flags: ParsedFlags,
  nowS: number,
): { claims: Record<string, unknown>; header?: Record<string, unknown> } {
  const omit = flags.lists.get('omit') ?? [];
  for (const c of omit)
    if (!OMITTABLE.includes(c)) throw new UsageError(`--omit ${c}: only ${OMITTABLE.join(', ')} can be left out`);
  const claims: Record<string, unknown> = {};
  const exp = flags.values.get('exp');
  if (exp !== undefined) claims.exp = parseExp(exp, nowS);
  if (flags.values.has('aud')) claims.aud = flags.values.get('aud');
  if (flags.values.has('iss')) claims.iss = flags.values.get('iss');
  for (const c of omit) claims[c] = null;
  const header = flags.values.has('kid') ? { kid: flags.values.get('kid') } : undefined;
  return { claims, header };
}

function readBody(source: string): Buffer {
  try {
    return readBoundedBytes(source === '-' ? 0 : source, MAX_STDIN_BYTES);
  } catch (err) {
    throw new UsageError(
      `--body: cannot read ${source === '-' ? 'standard input' : source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** The body with the --set changes made, before it is signed. */
function changedBody(body: Buffer, overrides: EventOverride[]): Buffer {
  if (!overrides.length) return body;
  const text = body.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(body))
    throw new UsageError('--set: the body is not UTF-8 JSON text, so it has no paths to change. Nothing was signed.');
  try {
    return Buffer.from(applyOverrides(text, overrides), 'utf8');
  } catch (err) {
    const words = changeProblem(err);
    if (words === undefined) throw err;
    throw new UsageError(`${words} Nothing was signed.`);
  }
}

/** The token and its kid, or the exit code after saying why the sandbox did not sign. */
async function signBody(
  c: SignChoices,
  body: Buffer,
  nowS: number,
  claims: Record<string, unknown>,
  header: Record<string, unknown> | undefined,
  io: CliIO,
): Promise<{ token: string; kid: string } | number> {
  if (c.keysDir) {
    let signer;
    try {
      signer = await readKeyPair(c.keysDir, io.clock);
    } catch (err) {
      if (err instanceof KeyFilesError) throw new UsageError(`--keys: ${err.message}`);
      throw err;
    }
    // iat and exp from one reading of the clock: --exp +30 is exactly 30 s after iat.
    const token = await signer.sign(body, {
      claims: { iat: nowS, exp: nowS + 300, ...signedHereClaims(), ...claims },
      header,
    });
    return { token, kid: (header?.kid as string | undefined) ?? signer.currentKid };
  }
  const target = c.sandbox!;
  try {
    // The sandbox sets iat from its own clock; an exp given here is absolute, so both agree on what "now" is.
    const signed = await new SandboxControlClient(target.baseUrl, target.secret).sign(body, { claims, header });
    return { token: signed.token, kid: (header?.kid as string | undefined) ?? signed.kid };
  } catch (err) {
    if (err instanceof TransportError) throw sandboxUnreachable(err, target);
    io.emit({ event: 'error', kind: 'sandbox-refused', message: (err as Error).message });
    return EXIT.failed;
  }
}

function parseExp(raw: string, nowS: number): number {
  const m = /^([+-]?)(\d{1,12})$/.exec(raw);
  if (!m) throw new UsageError('--exp must be seconds since the epoch, or +N / -N seconds from now (write --exp=-60)');
  const n = Number(m[2]);
  return m[1] === '+' ? nowS + n : m[1] === '-' ? nowS - n : n;
}

function decodeClaims(token: string): unknown {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/** A bash curl command that sends exactly these bytes: the file itself, or standard input's bytes through curl's
 * standard input (never as an argument, where curl reads `@path` as a file to send). */
function curlCommand(to: string, token: string, source: string, body: Buffer): string {
  try {
    return bashCurlCommand({
      url: to,
      headers: [['Content-Type', 'application/json']],
      body: source === '-' ? body : { path: source },
      token,
    }).command;
  } catch (err) {
    if (err instanceof ShellCommandError) throw new UsageError(`--format curl: ${err.message}`);
    throw err;
  }
}
