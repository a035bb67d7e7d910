// `wfs listen`: the webhook receiver (and, when asked, a tunnel), headless. One JSON line per delivery and tunnel state
// change.
import { isLoopbackHost } from '../../core/http/loopback';
import { TransportError } from '../../core/http/request';
import { transportErrorEvent } from '../transportErrorEvent';
import { statSync } from 'node:fs';
import { readBoundedText } from '../boundedRead';
import { dirname } from 'node:path';
import { SandboxControlClient } from '../../core/sandbox/sandboxControlClient';
import { DeliveryHistory } from '../../core/webhooks/DeliveryHistory';
import { forwardsOf, type DeliveryRecord } from '../../core/webhooks/deliveryRecord';
import { Forwarder } from '../../core/webhooks/forwardFanOut';
import { ForwardRuleError, forwardEverything, parseForwardFlag } from '../../core/webhooks/forwardRules';
import { fileModeWarning, octal } from '../../core/webhooks/historyFile';
import { DEFAULT_MAX_BODY, Receiver } from '../../core/webhooks/Receiver';
import { Verifier, type TrustedIssuer } from '../../core/webhooks/Verifier';
import { tunnelNameProblem } from '../../core/tunnel/tunnelName';
import { Tunnel, type TunnelState } from '../../core/tunnel/Tunnel';
import { testPublicAddress } from '../../core/tunnel/publicAddressTest';
import { PROXY_ENV, type CommandSpec } from '../commandSpec';
import { intFlag, UsageError, type ParsedFlags } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import { sandboxSecretFromEnv, sandboxSecretHelp } from '../sandboxSecret';

/** A trust file lists a few issuers: a megabyte is thousands of them. */
const MAX_TRUST_FILE_BYTES = 1024 * 1024;

export function readTrustFile(file: string): TrustedIssuer[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readBoundedText(file, MAX_TRUST_FILE_BYTES));
  } catch (err) {
    throw new UsageError(`--trust-file ${file}: ${(err as Error).message}`);
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
function trustFromFlags(flags: ParsedFlags): TrustedIssuer[] {
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

/** A log file must be a file we can create or append to: say which flag and path when it cannot be. */
function checkLogPath(file: string): void {
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

/** --forward (repeatable) or --forward-to, and --pass-through: the forwarder, or undefined when nothing forwards. */
function forwarderFromFlags(flags: ParsedFlags, forwardTo: string | undefined): Forwarder | undefined {
  const patterns = flags.lists.get('forward') ?? [];
  if (patterns.length > 0 && forwardTo !== undefined)
    throw new UsageError("--forward-to excludes --forward: for everything, write --forward '**=URL' among the rules");
  let rules;
  try {
    rules =
      forwardTo !== undefined
        ? [forwardEverything(forwardTo, '--forward-to')]
        : patterns.map((p) => parseForwardFlag(p));
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
function forwardFields(r: DeliveryRecord): Record<string, unknown> {
  const forwards = forwardsOf(r);
  if (forwards.length === 0) return {};
  const { target, status, latencyMs, error } = forwards[0]!;
  return {
    forward: { target, ...(status !== undefined ? { status } : {}), latencyMs, ...(error ? { error } : {}) },
    forwards,
  };
}

export const listenCommand: CommandSpec = {
  name: 'listen',
  synopsis: [
    'listen (--trust-file FILE | --trust-sandbox URL | --issuer I --audience A --jwks-url U …)',
    '           [--host H] [--port P] [--path /webhooks] [--public-url URL | --tunnel [--tunnel-host URL] [--subdomain S]]',
    '           [--self-test]',
    "           [--forward 'PATTERN=URL' … | --forward-to URL] [--pass-through] [--respond STATUS] [--max-body BYTES]",
    '           [--log FILE [--history-disk MIB]] [--history-memory MIB]',
  ].join('\n'),
  description: [
    'Runs the receiver on loopback: by default only there. --public-url names a public address of your own in front of',
    'it; --tunnel opens a localtunnel, a third-party relay (https://localtunnel.me is run by volunteers, and its data',
    'channel to this machine is not encrypted: deliveries and their tokens cross it in the clear), so it opens only when',
    "asked. Every delivery is verified by the spec's seven steps against the issuers you trust.",
    'Prints {"event":"ready","url":…,"publicUrl":…} once listening (publicUrl null when loopback only; with --log, a',
    '{"event":"history","loaded":…,"skipped":…} line comes before it), then {"event":"delivery",…} per request and',
    '{"event":"tunnel","state":…} per tunnel change. SIGINT/SIGTERM/SIGHUP stop it (exit 0).',
    'With --self-test (and --trust-sandbox, whose key signs it), one signed delivery goes through the public address once',
    'it is up, and again after each tunnel reconnection: {"event":"self-test","ok":…,"failedHop":…,"roundTripMs":…}.',
  ].join('\n'),
  flags: {
    'trust-file': { type: 'string', value: 'FILE', description: 'a JSON array of {issuer, jwksUrl, audience}' },
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
    host: { type: 'string', value: 'H', description: 'a loopback address to listen on (default 127.0.0.1)' },
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
      value: 'PATTERN=URL',
      description:
        "POST verified deliveries whose signed topic matches PATTERN (a glob; 'TOPIC SUBTOPIC' for both) on to URL",
    },
    'forward-to': {
      type: 'string',
      value: 'URL',
      description: "POST every verified delivery on to your app (the same as --forward '**=URL')",
    },
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
  },
  env: [sandboxSecretHelp('--trust-sandbox'), ...PROXY_ENV],
  // It runs until stopped: the first signal stops it cleanly (exit 0).
  exits: [[130, 'a second SIGINT, SIGTERM or SIGHUP while it was stopping']],
  async run(flags, io) {
    const { emit } = io;
    const sources =
      ['trust-file', 'trust-sandbox'].filter((f) => flags.values.has(f)).length +
      (flags.lists.has('issuer') || flags.lists.has('audience') || flags.lists.has('jwks-url') ? 1 : 0);
    if (sources === 0)
      throw new UsageError(
        'say whom to trust: --trust-file FILE, --trust-sandbox URL, or --issuer/--audience/--jwks-url',
      );
    if (sources > 1)
      throw new UsageError('--trust-file, --trust-sandbox and --issuer/--audience/--jwks-url exclude each other');
    // Bound without IPv6 brackets: [::1] and ::1 are one address.
    const host = (flags.values.get('host') ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
    if (!isLoopbackHost(host))
      throw new UsageError('--host must be a loopback address: the public side is --public-url or --tunnel');
    const path = flags.values.get('path') ?? '/webhooks';
    if (!path.startsWith('/')) throw new UsageError('--path must start with /');
    // A third-party relay carries deliveries and their tokens unencrypted: it opens only when named (the extension asks
    // once per environment; a script says so with --tunnel).
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
    }
    const selfTest = flags.switches.has('self-test');
    if (selfTest && !flags.values.has('trust-sandbox'))
      throw new UsageError('--self-test signs its delivery with the sandbox: give --trust-sandbox URL');
    if (selfTest && ownPublicUrl === undefined && !wantsTunnel)
      throw new UsageError('--self-test needs a public address: --public-url URL, or --tunnel');
    const forwardTo = flags.values.get('forward-to');
    if (forwardTo) httpUrlValue('--forward-to', forwardTo);
    const forwarder = forwarderFromFlags(flags, forwardTo);
    const port = intFlag(flags, 'port', 0, 65535) ?? 0;
    const maxBodyBytes = intFlag(flags, 'max-body', 1, 100 * 1024 * 1024) ?? DEFAULT_MAX_BODY;
    const respondWith = intFlag(flags, 'respond', 200, 599);
    const logFile = flags.values.get('log');
    if (logFile) checkLogPath(logFile);
    const historyMemory = intFlag(flags, 'history-memory', 1, 65536) ?? 64;
    const historyDisk = intFlag(flags, 'history-disk', 1, 1024 * 1024) ?? 256;
    if (flags.values.has('history-disk') && !logFile) throw new UsageError('--history-disk applies only with --log');

    let issuers: TrustedIssuer[];
    const trustFile = flags.values.get('trust-file');
    const trustSandbox = flags.values.get('trust-sandbox');
    let sandboxSecret = '';
    if (trustFile) issuers = readTrustFile(trustFile);
    else if (trustSandbox) {
      httpUrlValue('--trust-sandbox', trustSandbox, "the sandbox's http(s) baseUrl");
      sandboxSecret = sandboxSecretFromEnv(io.env, `--trust-sandbox ${trustSandbox}`);
      try {
        const t = await new SandboxControlClient(trustSandbox, sandboxSecret).trust();
        issuers = [{ issuer: t.issuer, audience: t.audience, jwksUrl: t.jwksUrl }];
      } catch (err) {
        // Nothing answering there is "could not be reached" (exit 1), as for every command; a sandbox that refuses
        // (a wrong secret) or something else answering is a usage error.
        if (err instanceof TransportError) {
          io.emit(
            transportErrorEvent(
              err,
              `--trust-sandbox ${trustSandbox}: could not reach the sandbox (${err.code ?? err.reason}): is \`wfs sandbox\` running at that address?`,
            ),
          );
          return 1;
        }
        throw new UsageError(`--trust-sandbox ${trustSandbox}: ${(err as Error).message}`);
      }
    } else issuers = trustFromFlags(flags);

    const log = new DeliveryHistory({
      file: logFile,
      memoryBudgetBytes: historyMemory * 1024 * 1024,
      diskBudgetBytes: historyDisk * 1024 * 1024,
      holderName: 'wfs listen',
    });
    log.on('warning', (message: string) => emit({ event: 'warning', message: `--log ${logFile}: ${message}` }));
    try {
      const loaded = await log.load();
      if (logFile) emit({ event: 'history', file: logFile, loaded: loaded.loaded, skipped: loaded.skipped });
    } catch (err) {
      // The lock it took goes with it, so the next start, once the cause is put right, takes the file at once.
      await log.close();
      throw new UsageError(`--log ${logFile}: ${(err as Error).message}`);
    }
    if (logFile) {
      const warning = fileModeWarning(logFile, statSync(logFile).mode);
      if (warning) emit({ event: 'warning', message: `--log ${logFile}: ${warning}` });
    }
    log.on('error-persisting', (err: Error) =>
      emit({
        event: 'warning',
        message: `the delivery log ${logFile} could not be written (${err.message}); verified deliveries are answered 503 until it can`,
      }),
    );
    const receiver = new Receiver({
      verifier: new Verifier({ issuers, clock: io.clock }),
      clock: io.clock,
      host,
      port,
      path,
      maxBodyBytes,
      respondWith,
      forward: forwarder,
      history: log,
    });
    receiver.on('delivery', (r: DeliveryRecord) =>
      emit({
        event: 'delivery',
        id: r.id,
        status: r.status,
        verified: r.verified,
        duplicate: r.duplicate,
        webhookId: r.webhookId ?? null,
        topic: r.topic ?? null,
        ...(r.unsigned ? { unsigned: r.unsigned } : {}),
        bytes: r.body.size,
        checks: r.checks,
        ...forwardFields(r),
        ...(r.note ? { note: r.note } : {}),
      }),
    );
    receiver.on('failure', (r: DeliveryRecord) =>
      emit({ event: 'warning', message: `a request to ${r.path} was answered 500: ${r.note}` }),
    );
    const url = await receiver.start().catch(async (err: unknown) => {
      await log.close();
      throw err;
    });
    let tunnel: Tunnel | undefined;
    let publicUrl: string | null = null;
    let reconnected = false;
    const runSelfTest = async () => {
      if (!publicUrl) return;
      const sandbox = new SandboxControlClient(trustSandbox!, sandboxSecret);
      const r = await testPublicAddress({
        publicUrl,
        receiver,
        clock: io.clock,
        sign: async (body) => (await sandbox.sign(body)).token,
      }).catch((err: Error) => ({
        ok: false,
        failedHop: 'sandbox',
        detail: `the sandbox could not sign the test delivery: ${err.message}`,
      }));
      emit({ event: 'self-test', ...r });
    };
    try {
      if (ownPublicUrl !== undefined) {
        publicUrl = ownPublicUrl;
        receiver.setPublicHosts([new URL(ownPublicUrl).hostname]);
      } else if (wantsTunnel) {
        tunnel = new Tunnel({
          localPort: Number(new URL(url).port),
          host: flags.values.get('tunnel-host'),
          subdomain,
          clock: io.clock,
        });
        tunnel.on('state', (state: TunnelState) => {
          if (tunnel?.publicUrl) receiver.setPublicHosts([new URL(tunnel.publicUrl).hostname]);
          emit({ event: 'tunnel', state, publicUrl: tunnel?.publicUrl ?? null });
          // A reconnected tunnel is a new path (maybe a new name): test it again.
          if (state === 'open' && tunnel?.publicUrl) publicUrl = tunnel.publicUrl + path;
          if (selfTest && state === 'open' && reconnected) void runSelfTest();
          if (state === 'reconnecting') reconnected = true;
        });
        tunnel.on('warning', (err: Error) => emit({ event: 'warning', message: err.message }));
        publicUrl = (await tunnel.open()) + path;
      }
    } catch (err) {
      await receiver.stop();
      await log.close();
      throw err;
    }
    emit({ event: 'ready', url, publicUrl, issuers: issuers.map((i) => i.issuer) });
    const stopped = new Promise<void>((resolve) => io.onStop(resolve));
    if (selfTest) await Promise.race([runSelfTest(), stopped]);
    await stopped;
    tunnel?.close();
    await receiver.stop();
    await log.close();
    emit({ event: 'stopped' });
    return 0;
  },
};
