// What `wfs listen` reads from its flags: whom to trust, the history file, the forward rules, the public address.
// Every check runs before anything listens or is sent.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isEveryInterface, isLoopbackHost, type TargetTls } from '../../core/http';
import {
  FixedPublicAddress,
  LocaltunnelAddress,
  type PublicAddressProvider,
  type PublicPathCheckOptions,
} from '../../core/receiver';
import type { Clock } from '../../core/time';
import { tunnelNameProblem } from '../../core/tunnel';
import {
  DEFAULT_MAX_BODY,
  type DeliveryRecord,
  Forwarder,
  forwardEverything,
  ForwardRuleError,
  forwardsOf,
  octal,
  parseForwardFlag,
  type TrustedIssuer,
  withCaFiles,
} from '../../core/webhooks';
import { readBoundedText } from '../boundedRead';
import { parseJsonText } from '../../core';
import { intFlag, UsageError, type FlagSpecs, type ParsedFlags } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import { allowHostFlag } from '../allowHostFlag';
import { FORWARD_TLS_NAMES, targetTlsFlags, tlsFlagSpecs } from '../targetTlsFlags';
import { KeyFilesError, type KeyFolderTrust, readKeyFolderTrust } from '../../core/signing';

/** A trust file lists a few issuers: a megabyte is thousands of them. */
const MAX_TRUST_FILE_BYTES = 1024 * 1024;

export function readTrustFile(file: string): TrustedIssuer[] {
  let text: string;
  try {
    text = readBoundedText(file, MAX_TRUST_FILE_BYTES);
  } catch (err) {
    throw new UsageError(`--trust-file ${file}: cannot read it: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parseJsonText(text);
  } catch (err) {
    throw new UsageError(`--trust-file ${file}: not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0)
    throw new UsageError(`--trust-file ${file}: expected a non-empty JSON array of {issuer, jwksUrl, audience}`);
  return parsed.map((e, i) => {
    const o = e as Record<string, unknown>;
    for (const k of ['issuer', 'jwksUrl', 'audience'])
      if (typeof o?.[k] !== 'string' || !o[k])
        throw new UsageError(`--trust-file ${file}: entry ${i} lacks a string "${k}"`);
    return checkedIssuer(
      { issuer: o.issuer as string, jwksUrl: o.jwksUrl as string, audience: o.audience as string },
      `--trust-file ${file}: entry ${i}: jwksUrl`,
    );
  });
}

/** `name` says where its jwksUrl was given, for the error. */
function checkedIssuer(t: TrustedIssuer, name: string): TrustedIssuer {
  httpUrlValue(name, t.jwksUrl);
  return t;
}

/** --issuer/--audience/--jwks-url, repeatable: the n-th of each makes the n-th trusted issuer. */
export function trustFromFlags(flags: ParsedFlags): TrustedIssuer[] {
  const issuers = flags.lists.get('issuer') ?? [];
  const audiences = flags.lists.get('audience') ?? [];
  const jwksUrls = flags.lists.get('jwks-url') ?? [];
  const n = Math.max(issuers.length, audiences.length, jwksUrls.length);
  if (issuers.length !== n || audiences.length !== n || jwksUrls.length !== n)
    throw new UsageError(
      `--issuer, --audience and --jwks-url go together: each issuer needs all three (got ${issuers.length}, ${audiences.length} and ${jwksUrls.length})`,
    );
  return issuers.map((issuer, i) =>
    checkedIssuer({ issuer, audience: audiences[i], jwksUrl: jwksUrls[i] }, '--jwks-url'),
  );
}

/** The history file (--log) must be a file we can create or append to: say which flag and path when it cannot be. */
function checkHistoryPath(file: string): void {
  let st;
  try {
    st = statSync(file);
  } catch {
    try {
      if (!statSync(dirname(file)).isDirectory()) throw new Error();
    } catch {
      throw new UsageError(`--log ${file}: its folder ${dirname(file)} does not exist`);
    }
    return;
  }
  if (st.isDirectory())
    throw new UsageError(
      `--log ${file}: is a directory; give a file path, e.g. ${file.replace(/\/+$/, '')}/deliveries.jsonl`,
    );
  // /dev/null meant as "no log" would be appended to, then compacted: a new file renamed over the device.
  if (!st.isFile())
    throw new UsageError(
      `--log ${file}: is not a regular file (a device, a pipe or a socket); give a file path, or leave --log out to keep the history in memory only`,
    );
  // Marked read-only by its owner: root would not be stopped by it, so it is refused here, its mode left as it is.
  if ((st.mode & 0o222) === 0)
    throw new UsageError(
      `--log ${file}: is read-only (mode ${octal(st.mode)}) and is left as it is: make it writable (chmod u+w ${file}), or give another file`,
    );
}

/** --forward-to's TLS (--forward-ca, --forward-insecure), read; and the flag a TLS failure there names. */
function forwardToTls(flags: ParsedFlags, forwardTo: string | undefined): { tls?: TargetTls; caFlag: string } {
  const tls = targetTlsFlags(flags, forwardTo, FORWARD_TLS_NAMES, '--forward-to');
  return { ...(tls ? { tls } : {}), caFlag: '--forward-ca' };
}

/** --forward (repeatable) or --forward-to, and --pass-through: the forwarder, or undefined when nothing forwards. */
function forwarderFromFlags(flags: ParsedFlags, forwardTo: string | undefined): Forwarder | undefined {
  const patterns = flags.lists.get('forward') ?? [];
  if (patterns.length > 0 && forwardTo !== undefined)
    throw new UsageError("--forward-to excludes --forward: for everything, write --forward '**=URL' among the rules");
  if (forwardTo === undefined) forwardToTls(flags, undefined);
  let rules;
  try {
    // A rule's ca=FILE (or --forward-ca) is read here, before anything listens: a relative path is taken from where
    // wfs runs.
    rules = withCaFiles(
      forwardTo !== undefined
        ? [forwardEverything(forwardTo, '--forward-to', forwardToTls(flags, forwardTo))]
        : patterns.map((p) => parseForwardFlag(p)),
      process.cwd(),
    );
  } catch (err) {
    if (err instanceof ForwardRuleError) throw new UsageError(err.message);
    throw err;
  }
  if (flags.switches.has('pass-through') && rules.length === 0)
    throw new UsageError("--pass-through answers with your app's status: add --forward or --forward-to");
  return rules.length > 0 ? new Forwarder({ rules, passThrough: flags.switches.has('pass-through') }) : undefined;
}

/** The delivery line's forward fields: every target's answer (`forwards`), and `forward`, the first target's
 * status as lines before rules carried it (a field of the JSON lines is never removed). */
export function forwardFields(r: DeliveryRecord): Record<string, unknown> {
  const forwards = forwardsOf(r);
  if (forwards.length === 0) return {};
  const { target, status, latencyMs, error } = forwards[0]!;
  return {
    forward: { target, ...(status !== undefined ? { status } : {}), latencyMs, ...(error ? { error } : {}) },
    forwards,
  };
}

/** Which trust source the flags name: exactly one. */
export type TrustSource = 'file' | 'sandbox' | 'keys' | 'flags';

export function trustSource(flags: ParsedFlags): TrustSource {
  const named = [
    flags.values.has('trust-file') && 'file',
    flags.values.has('trust-sandbox') && 'sandbox',
    flags.lists.has('trust-keys') && 'keys',
    (flags.lists.has('issuer') || flags.lists.has('audience') || flags.lists.has('jwks-url')) && 'flags',
  ].filter((x): x is TrustSource => typeof x === 'string');
  if (named.length === 0)
    throw new UsageError(
      'say whom to trust: --trust-sandbox URL, --trust-keys DIR (a folder of `wfs keys generate`), --trust-file FILE, or --issuer/--audience/--jwks-url',
    );
  if (named.length > 1)
    throw new UsageError(
      '--trust-file, --trust-sandbox, --trust-keys and --issuer/--audience/--jwks-url exclude each other',
    );
  return named[0]!;
}

/** --trust-keys DIR (repeatable): the folders' trust entries and the key sets held in-process for them. */
export function trustFromKeyFolders(flags: ParsedFlags): KeyFolderTrust[] {
  return (flags.lists.get('trust-keys') ?? []).map((dir) => {
    try {
      return readKeyFolderTrust(dir);
    } catch (err) {
      if (err instanceof KeyFilesError) throw new UsageError(`--trust-keys ${dir}: ${err.message}`);
      throw err;
    }
  });
}

export interface ListenRun {
  host: string;
  /** --allow-host: names answered besides loopback ones. */
  allowedHosts: string[];
  port: number;
  path: string;
  maxBodyBytes: number;
  respondWith?: number;
  forward?: Forwarder;
  historyFile?: string;
  historyMemoryBytes: number;
  historyDiskBytes: number;
  selfTest: boolean;
  publicAddress?: PublicAddressProvider;
  /** The end-to-end check of the public address: its interval, or false (--path-check-every 0). */
  pathCheck: PublicPathCheckOptions | false;
}

/** Every flag but the trust, checked; nothing listens yet. */
export function listenRunFromFlags(flags: ParsedFlags, clock: Clock): ListenRun {
  // Bound without IPv6 brackets: [::1] and ::1 are one address.
  const host = (flags.values.get('host') ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  if (!isLoopbackHost(host) && !isEveryInterface(host))
    throw new UsageError(
      '--host must be a loopback address, or 0.0.0.0 or :: (every interface, in a container, with --allow-host NAME for the names others reach it by): the public side is --public-url or --tunnel',
    );
  const path = flags.values.get('path') ?? '/webhooks';
  if (!path.startsWith('/')) throw new UsageError('--path must start with /');
  const selfTest = flags.switches.has('self-test');
  if (selfTest && !flags.values.has('trust-sandbox'))
    throw new UsageError('--self-test signs its delivery with the sandbox: give --trust-sandbox URL');
  const publicAddress = publicAddressFromFlags(flags, clock);
  if (selfTest && !publicAddress)
    throw new UsageError('--self-test needs a public address: --public-url URL, or --tunnel');
  const forwardTo = flags.values.get('forward-to');
  if (forwardTo) httpUrlValue('--forward-to', forwardTo);
  const historyFile = flags.values.get('log');
  if (historyFile) checkHistoryPath(historyFile);
  if (flags.values.has('history-disk') && !historyFile) throw new UsageError('--history-disk applies only with --log');
  return {
    host,
    allowedHosts: allowHostFlag(flags),
    port: intFlag(flags, 'port', 0, 65535) ?? 0,
    path,
    maxBodyBytes: intFlag(flags, 'max-body', 1, 100 * 1024 * 1024) ?? DEFAULT_MAX_BODY,
    respondWith: intFlag(flags, 'respond', 200, 599),
    forward: forwarderFromFlags(flags, forwardTo),
    historyFile,
    historyMemoryBytes: (intFlag(flags, 'history-memory', 1, 65536) ?? 64) * 1024 * 1024,
    historyDiskBytes: (intFlag(flags, 'history-disk', 1, 1024 * 1024) ?? 256) * 1024 * 1024,
    selfTest,
    publicAddress,
    pathCheck: pathCheckFromFlags(flags, publicAddress),
  };
}

/** --path-check-every SECONDS: how often the public address is checked end to end (0: never). */
function pathCheckFromFlags(
  flags: ParsedFlags,
  publicAddress: PublicAddressProvider | undefined,
): PublicPathCheckOptions | false {
  const every = intFlag(flags, 'path-check-every', 0, 86_400);
  if (every !== undefined && !publicAddress)
    throw new UsageError('--path-check-every checks the public address: add --public-url URL or --tunnel');
  if (every === 0) return false;
  return every === undefined ? {} : { intervalMs: every * 1000 };
}

/** --public-url or --tunnel: a third-party relay carries deliveries and their tokens unencrypted, so it opens only
 * when named. */
function publicAddressFromFlags(flags: ParsedFlags, clock: Clock): PublicAddressProvider | undefined {
  const wantsTunnel = flags.switches.has('tunnel');
  if (!wantsTunnel && (flags.values.has('tunnel-host') || flags.values.has('subdomain')))
    throw new UsageError('--tunnel-host and --subdomain configure the tunnel: add --tunnel to open one');
  const subdomain = flags.values.get('subdomain');
  const nameProblem = subdomain === undefined ? undefined : tunnelNameProblem(subdomain);
  if (nameProblem) throw new UsageError(`--subdomain ${nameProblem}`);
  if (flags.switches.has('no-tunnel') && wantsTunnel) throw new UsageError('--no-tunnel excludes --tunnel');
  const tunnelHost = flags.values.get('tunnel-host');
  if (tunnelHost !== undefined) httpUrlValue('--tunnel-host', tunnelHost, "the localtunnel server's http(s) address");
  const ownPublicUrl = flags.values.get('public-url');
  if (ownPublicUrl !== undefined) {
    httpUrlValue('--public-url', ownPublicUrl);
    if (flags.switches.has('no-tunnel') || wantsTunnel)
      throw new UsageError('--public-url excludes --no-tunnel and --tunnel: it is the public address');
    if (!flags.values.has('port'))
      throw new UsageError('--public-url needs --port: the port your tunnel or proxy forwards to');
    return new FixedPublicAddress(ownPublicUrl);
  }
  return wantsTunnel ? new LocaltunnelAddress({ host: tunnelHost, subdomain, clock }) : undefined;
}

export const LISTEN_FLAGS: FlagSpecs = {
  'trust-file': { type: 'string', value: 'FILE', description: 'a JSON array of {issuer, jwksUrl, audience}' },
  'trust-keys': {
    type: 'string',
    multiple: true,
    value: 'DIR',
    description: 'trust a key folder written by `wfs keys generate --out DIR` (its key set is read from the folder)',
  },
  'trust-sandbox': {
    type: 'string',
    value: 'URL',
    description: 'trust a running `wfs sandbox`: reads its issuer, audience and jwksUrl',
  },
  issuer: {
    type: 'string',
    multiple: true,
    value: 'I',
    description: 'a trusted issuer (iss), with --audience and --jwks-url',
  },
  audience: { type: 'string', multiple: true, value: 'A', description: 'the audience registered for that issuer' },
  'jwks-url': {
    type: 'string',
    multiple: true,
    value: 'U',
    description: "that issuer's key-set address, from your onboarding",
  },
  host: {
    type: 'string',
    value: 'H',
    description: 'the address to listen on: loopback (default 127.0.0.1), or 0.0.0.0 or :: in a container',
  },
  'allow-host': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    description:
      'answer this Host name too (loopback names always; others get 421); with --host 0.0.0.0 the first is the name a sandbox sends to',
  },
  port: { type: 'string', value: 'P', description: 'the port (default 0: a free one)' },
  path: { type: 'string', value: 'PATH', description: 'the delivery path (default /webhooks)' },
  'no-tunnel': {
    type: 'boolean',
    description: 'loopback only: the default (kept for scripts written before --tunnel)',
  },
  'public-url': {
    type: 'string',
    value: 'URL',
    description:
      'a public address of your own (ngrok, cloudflared, a reverse proxy) that forwards to --port; no localtunnel',
  },
  'self-test': {
    type: 'boolean',
    description: 'send one signed sandbox delivery through the public address (needs --trust-sandbox)',
  },
  'path-check-every': {
    type: 'string',
    value: 'SECONDS',
    description:
      'check the public address end to end this often (default 120; 0: never); a wake from sleep checks at once',
  },
  tunnel: {
    type: 'boolean',
    description: 'open a localtunnel in front of the receiver (a third-party relay; not encrypted)',
  },
  'tunnel-host': {
    type: 'string',
    value: 'URL',
    description: 'with --tunnel: the localtunnel server (default https://localtunnel.me)',
  },
  subdomain: { type: 'string', value: 'S', description: 'with --tunnel: ask the tunnel server for this name' },
  forward: {
    type: 'string',
    multiple: true,
    value: "'PATTERN=URL [ca=FILE|insecure]'",
    description:
      "POST verified deliveries whose signed topic matches PATTERN (a glob; 'TOPIC SUBTOPIC' for both) on to URL; an https URL may add ca=FILE (its PEM root) or insecure (loopback only)",
  },
  'forward-to': {
    type: 'string',
    value: 'URL',
    description: "POST every verified delivery on to your app (the same as --forward '**=URL')",
  },
  ...tlsFlagSpecs(FORWARD_TLS_NAMES, '--forward-to'),
  'pass-through': {
    type: 'boolean',
    description: "answer the service with your app's status (the highest of them), not 200",
  },
  respond: {
    type: 'string',
    value: 'STATUS',
    description: 'answer every verified delivery with this status (rehearse retries)',
  },
  'max-body': { type: 'string', value: 'BYTES', description: 'refuse larger bodies with 413 (default 1048576)' },
  log: { type: 'string', value: 'FILE', description: 'keep every delivery as JSON lines in FILE, reloaded at start' },
  'history-memory': { type: 'string', value: 'MIB', description: 'memory the delivery history may use (default 64)' },
  'history-disk': {
    type: 'string',
    value: 'MIB',
    description: 'with --log: size the file may reach before it is compacted (default 256)',
  },
};
