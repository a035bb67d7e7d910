// `wfs listen`: the webhook receiver (and, when asked, a public address), headless. It configures a core
// ReceiverSession and prints one JSON line per event: deliveries, tunnel changes, self-tests, warnings.
import { EXIT } from '../exitCodes';
import { statSync } from 'node:fs';
import { isEveryInterface, TransportError } from '../../core/http';
import { ReceiverSession } from '../../core/receiver';
import { SandboxControlClient } from '../../core/sandbox';
import { type DeliveryRecord, faultMarkText, fileModeWarning, type TrustedIssuer } from '../../core/webhooks';
import { PROXY_ENV, type CommandSpec } from '../commandSpec';
import { UsageError, type ParsedFlags } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import { worded } from '../../core/presentation';
import type { CliIO } from '../output';
import { sandboxSecretFromEnv, sandboxSecretHelp } from '../sandboxSecret';
import { SandboxUnreachable } from '../sandboxTarget';
import {
  LISTEN_FLAGS,
  forwardFields,
  listenRunFromFlags,
  readTrustFile,
  trustFromFlags,
  trustFromKeyFolders,
  trustSource,
} from './listenFlags';
import { keySetsWithFolders } from '../../core/signing';
import { renderPublicPath } from './listenPublicPath';
import { watchSandboxRegistration } from './listenSandboxWatch';

/** The trusted sandbox, when --trust-sandbox names one: its trust, and the client that registers this receiver. */
interface TrustedSandbox {
  client: SandboxControlClient;
  issuers: TrustedIssuer[];
}

export const listenCommand: CommandSpec = {
  name: 'listen',
  synopsis: [
    'listen (--trust-sandbox URL | --trust-keys DIR … | --trust-file FILE | --issuer I --audience A --jwks-url U …)',
    '           [--host H] [--allow-host NAME …] [--port P] [--path /webhooks]',
    '           [--public-url URL | --tunnel [--tunnel-host URL] [--subdomain S]]',
    '           [--self-test] [--path-check-every SECONDS]',
    "           [--forward 'PATTERN=URL [ca=FILE | insecure]' … | --forward-to URL [--forward-ca FILE | --forward-insecure]]",
    '           [--pass-through]',
    '           [--respond STATUS] [--max-body BYTES] [--log FILE [--history-disk MIB]] [--history-memory MIB]',
  ].join('\n'),
  description: [
    'Runs the receiver on loopback: by default only there. --public-url names a public address of your own in front of',
    'it; --tunnel opens a localtunnel, a third-party relay (https://localtunnel.me is run by volunteers, and its data',
    'channel to this machine is not encrypted: deliveries and their tokens cross it in the clear), so it opens only when',
    "asked. Every delivery is verified by the spec's seven steps against the issuers you trust.",
    'In a container, --host 0.0.0.0 (or ::) listens on every interface; it answers loopback names, localhost and each',
    '--allow-host name, and any other Host gets 421. The first --allow-host name is the address it registers with',
    'the sandbox ("registeredUrl" in the ready line). GET /healthz answers 200 {"status":"ok"} once it is ready (503',
    'before); it is never a delivery, needs no token, and goes through the same Host check.',
    'With --trust-sandbox it registers its address with that sandbox, so workflow events arrive, and removes it at exit;',
    'when that sandbox restarts (on a fixed port it keeps its secret), it registers again and prints',
    '{"event":"sandbox-registered",…}.',
    'Prints {"event":"ready","url":…,"publicUrl":…} once listening (publicUrl null when loopback only; with --log, a',
    '{"event":"history","loaded":…,"skipped":…} line comes before it), then {"event":"delivery",…} per request and',
    '{"event":"tunnel","state":…} per tunnel change. SIGINT/SIGTERM/SIGHUP stop it (exit 0).',
    'With --self-test (and --trust-sandbox, whose key signs it), one signed delivery goes through the public address once',
    'it is up, and again after each tunnel reconnection: {"event":"self-test","ok":…,"failedHop":…,"roundTripMs":…}.',
    'While a public address is in use, it is checked end to end (a probe through it, not recorded) at once, every',
    '--path-check-every seconds, and at once after the machine wakes: {"event":"public-path","state":"reaching"} when it',
    'carries deliveries, {"event":"public-path","state":"not-reaching",…} when it stops (with what to do), and',
    '"reaching" again when it is back. A localtunnel that stops is reopened; a new name is a warning line.',
    "An https app with its own certificate: --forward '**=https://localhost:3443/webhooks ca=./rootCA.pem' trusts that",
    "PEM root for that target only (mkcert -CAROOT holds mkcert's); `insecure` instead skips the check, for a loopback",
    'target only, and every line of that target says "(certificate not checked)". With --forward-to, the same are',
    '--forward-ca FILE and --forward-insecure.',
  ].join('\n'),
  flags: LISTEN_FLAGS,
  env: [sandboxSecretHelp('--trust-sandbox'), ...PROXY_ENV],
  // It runs until stopped: the first signal stops it cleanly (exit 0).
  exits: [[EXIT.interrupted, 'a second SIGINT, SIGTERM or SIGHUP while it was stopping']],
  async run(flags, io) {
    const source = trustSource(flags);
    const run = listenRunFromFlags(flags, io.clock);
    const sandbox = source === 'sandbox' ? await trustedSandbox(flags, io) : undefined;
    const folders = source === 'keys' ? trustFromKeyFolders(flags) : [];
    const issuers =
      source === 'file'
        ? readTrustFile(flags.values.get('trust-file')!)
        : source === 'keys'
          ? folders.map((f) => f.entry)
          : (sandbox?.issuers ?? trustFromFlags(flags));
    const { emit } = io;
    const session = new ReceiverSession({
      clock: io.clock,
      issuers,
      ...(folders.length ? { keySet: keySetsWithFolders(folders, io.clock) } : {}),
      history: {
        file: run.historyFile,
        memoryBudgetBytes: run.historyMemoryBytes,
        diskBudgetBytes: run.historyDiskBytes,
        holderName: 'wfs listen',
      },
    });
    renderEvents(session, run.historyFile, emit);
    renderPublicPath(session, emit);
    try {
      const loaded = await session.loadHistory();
      if (run.historyFile)
        emit({ event: 'history', file: run.historyFile, loaded: loaded.loaded, skipped: loaded.skipped });
    } catch (err) {
      // The lock it took goes with it, so the next start, once the cause is put right, takes the file at once.
      await session.close();
      throw new UsageError(`--log ${run.historyFile}: ${(err as Error).message}`);
    }
    if (run.historyFile) {
      const warning = fileModeWarning(run.historyFile, statSync(run.historyFile).mode);
      if (warning) emit({ event: 'warning', message: `--log ${run.historyFile}: ${warning}` });
    }
    let started;
    try {
      started = await session.start({ ...run, endpoints: sandbox ? [sandbox.client.asEndpoint()] : [] });
    } catch (err) {
      await session.close();
      throw err;
    }
    emit({
      event: 'ready',
      url: started.url,
      publicUrl: started.publicUrl ?? null,
      issuers: issuers.map((i) => i.issuer),
      ...(isEveryInterface(run.host) ? { listeningOn: run.host, allowedHosts: run.allowedHosts } : {}),
      ...(started.registeredUrl !== started.url ? { registeredUrl: started.registeredUrl } : {}),
    });
    const stopped = new Promise<void>((resolve) => io.onStop(resolve));
    // A restarted sandbox has forgotten this receiver: registered again, and said so.
    const unwatch = sandbox
      ? watchSandboxRegistration(sandbox.client, started.registeredUrl, io.clock, emit)
      : undefined;
    if (run.selfTest && sandbox) {
      const signer = async (body: Buffer) => ({ token: (await sandbox.client.sign(body)).token, issuers });
      await Promise.race([
        session.testPublicAddress(signer).catch((err: Error) =>
          emit({
            event: 'self-test',
            ok: false,
            failedHop: 'sandbox',
            detail: `the sandbox could not sign the test delivery: ${err.message}`,
          }),
        ),
        stopped,
      ]);
    }
    await stopped;
    unwatch?.();
    await session.close();
    emit({ event: 'stopped' });
    return EXIT.ok;
  },
};

/** Each session event as its JSON line (the lines' fields are the CLI's promise). */
function renderEvents(session: ReceiverSession, historyFile: string | undefined, emit: CliIO['emit']): void {
  session.on('delivery', (r: DeliveryRecord) =>
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
      checks: r.checks.map(({ step, name, ok, detail }) => ({ step, name, ok, detail })),
      ...forwardFields(r),
      ...(r.note ? { note: r.note } : {}),
      ...(r.sandboxFault ? { sandboxFault: { ...r.sandboxFault, text: faultMarkText(r.sandboxFault) } } : {}),
    }),
  );
  session.on('failure', (r) =>
    emit({ event: 'warning', message: `a request to ${r.path} was answered 500: ${r.note}` }),
  );
  session.on('tunnel', ({ state, publicUrl, changedFrom }) =>
    emit({
      event: 'tunnel',
      state,
      publicUrl: tunnelOrigin(publicUrl),
      ...(changedFrom ? { changedFrom: tunnelOrigin(changedFrom) } : {}),
    }),
  );
  session.on('self-test', (result) => emit({ event: 'self-test', ...result }));
  session.on('warning', (message) => emit({ event: 'warning', message }));
  session.on('endpoint-warning', (message) => emit({ event: 'warning', message }));
  session.on('history-warning', (message) =>
    emit({ event: 'warning', message: `--log ${historyFile}: ${worded(message)}` }),
  );
  session.on('history-write-failed', (err) =>
    emit({
      event: 'warning',
      message: `the delivery history file ${historyFile} could not be written (${err.message}); verified deliveries are answered 503 until it can`,
    }),
  );
}

/** The tunnel line has always carried the tunnel's own URL, without the webhook path. */
function tunnelOrigin(publicUrl: string | undefined): string | null {
  return publicUrl ? new URL(publicUrl).origin : null;
}

/** Reads the sandbox's trust; nothing answering there is SandboxUnreachable, as for every
 * command. */
async function trustedSandbox(flags: ParsedFlags, io: CliIO): Promise<TrustedSandbox> {
  const url = flags.values.get('trust-sandbox')!;
  httpUrlValue('--trust-sandbox', url, "the sandbox's http(s) baseUrl");
  const client = new SandboxControlClient(url, sandboxSecretFromEnv(io.env, `--trust-sandbox ${url}`));
  try {
    const t = await client.trust();
    return { client, issuers: [{ issuer: t.issuer, audience: t.audience, jwksUrl: t.jwksUrl }] };
  } catch (err) {
    if (err instanceof TransportError) throw new SandboxUnreachable(err, url, '--trust-sandbox');
    // A sandbox that refuses (a wrong secret) or something else answering is a usage error.
    throw new UsageError(`--trust-sandbox ${url}: ${(err as Error).message}`);
  }
}
