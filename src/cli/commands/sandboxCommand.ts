// `wfs sandbox`: runs the simulator until SIGTERM/SIGINT, printing a ready line and one line per event.
import { Sandbox } from '../../core/sandbox';
import { EXIT } from '../exitCodes';
import type { CommandSpec } from '../commandSpec';
import { durationFlag, intFlag, wholeSecondsFlag } from '../flags';
import { readProfileFlag } from './sandboxProfileFlag';
import { keptSandboxState } from '../sandboxKeptState';
import { givenSecretProblem, SANDBOX_SECRET_ENV, STATE_DIR_ENV } from '../../core/sandbox';
import { isEveryInterface } from '../../core/http';
import { allowHostFlag } from '../allowHostFlag';
import { UsageError } from '../flags';

export const sandboxCommand: CommandSpec = {
  name: 'sandbox',
  synopsis:
    'sandbox [--host H] [--port P] [--access-token-ttl DURATION] [--workflow-duration DURATION] [--allow-host NAME …] [--profile FILE]',
  description: [
    'Runs the sandbox until SIGTERM or SIGINT (exit 0). The first line, {"event":"ready",…}, carries its baseUrl,',
    'testWebhookUrl, issuer, audience, jwksUrl, the demo credentials, sessions and products, and its controlSecret;',
    'then one line per request served and per webhook attempt. Faults are injected through its control API under',
    '/sandbox/, which (with /sandbox/sign) needs the header X-Sandbox-Secret: controlSecret. For wfs listen',
    '--trust-sandbox and wfs audit --sandbox-url, put it in WFS_SANDBOX_SECRET. Requests from web pages (a',
    'non-loopback Origin) are refused. On a free port (the default) its key and controlSecret are new at each start;',
    'with --port P they are kept in your state folder ("keptIn" in the ready line; mode 0600), so a restart on P',
    'publishes the same key set and takes the same secret: apps and `wfs listen` that trust it go on working.',
    `With ${SANDBOX_SECRET_ENV} set (at least 32 characters), that is its controlSecret: containers and CI steps that`,
    'share the variable need not read the ready line. --host 0.0.0.0 (or ::) listens on every interface; it answers',
    'loopback names, localhost and each --allow-host name, and any other Host gets 421. GET /healthz answers 200',
    '{"status":"ok","service":"sandbox"} once it serves (503 before): no secret needed, not logged as a request.',
  ].join('\n'),
  flags: {
    host: { type: 'string', value: 'H', description: 'the address to listen on (default 127.0.0.1)' },
    port: {
      type: 'string',
      value: 'P',
      description: 'the port (default 0: a free one); a fixed one keeps its key set and secret across restarts',
    },
    'access-token-ttl': {
      type: 'string',
      value: 'DURATION',
      description:
        'expires_in of issued access tokens, whole seconds: 90s, 5m, 1h (a bare number is seconds; default 1h)',
    },
    'workflow-duration': {
      type: 'string',
      value: 'DURATION',
      description: 'how long a workflow stays processing: 500ms, 20s, 2m (a bare number is seconds; default 20s)',
    },
    'allow-host': {
      type: 'string',
      multiple: true,
      value: 'NAME',
      description: 'answer this Host name too (loopback names always); others get 421',
    },
    profile: {
      type: 'string',
      value: 'FILE',
      description: 'imitate an environment where the spec is silent (a file from wfs probe-service --profile-out)',
    },
  },
  env: [
    [STATE_DIR_ENV, 'with --port: the folder its key and secret are kept in (default: your state folder)'],
    [SANDBOX_SECRET_ENV, 'its controlSecret, in place of a new or kept one (at least 32 characters)'],
  ],
  // It runs until stopped: the first signal stops it cleanly (exit 0).
  exits: [[EXIT.interrupted, 'a second SIGINT, SIGTERM or SIGHUP while it was stopping']],
  async run(flags, io) {
    const { emit } = io;
    const profile = readProfileFlag(flags.values.get('profile'));
    const port = intFlag(flags, 'port', 0, 65535) ?? 0;
    const controlSecret = givenSecret(io.env);
    const allowedHosts = allowHostFlag(flags);
    const keep = keptSandboxState(io.env, port, (message) => emit({ event: 'warning', message }), controlSecret);
    const sandbox = new Sandbox({
      ...keep.options,
      controlSecret,
      profile: profile?.profile,
      host: flags.values.get('host') ?? '127.0.0.1',
      port,
      accessTokenTtlSeconds: wholeSecondsFlag(flags, 'access-token-ttl', 1, 86400),
      workflowDurationSeconds: seconds(durationFlag(flags, 'workflow-duration', 's', 0, 86_400_000)),
      allowedHosts,
      // Healthy only once the ready line is out: a container's healthcheck then means what the line says.
      healthWaitsForReady: true,
    });
    // A stop asked for while it starts (a container stopped at once) is kept, and honoured once it has started.
    const stopped = new Promise<void>((resolve) => io.onStop(resolve));
    io.progress?.('starting the sandbox');
    // The ready line names the signing key (kid): `wfs sandbox` makes it before that line; a sandbox in another
    // process (wfs mcp, the editor's) makes it at its first signature or key-set request.
    const info = await sandbox
      .start()
      .then(() => sandbox.infoWithKey())
      .finally(() => io.progress?.(undefined));
    await keep.afterStart(sandbox);
    const host = flags.values.get('host');
    // Bound to every interface: its addresses are loopback ones (they work here), and other machines need a name.
    const everywhere = host !== undefined && isEveryInterface(host);
    emit({
      event: 'ready',
      ...info,
      ...(everywhere ? { listeningOn: host } : {}),
      ...(keep.file ? { keptIn: keep.file } : {}),
    });
    sandbox.markReady();
    if (profile) {
      emit({
        event: 'profile',
        file: flags.values.get('profile'),
        imitated: profile.imitated,
        ignored: profile.ignored,
      });
      for (const why of profile.ignored) emit({ event: 'warning', message: `--profile: not imitated: ${why}` });
    }
    sandbox.on('request', (e) => emit(e));
    sandbox.on('webhook', (e) => emit(e));
    sandbox.on('error-event', (e) => emit(e));
    await stopped;
    await sandbox.stop();
    emit({ event: 'stopped' });
    return EXIT.ok;
  },
};

/** WFS_SANDBOX_SECRET, when set: the secret this sandbox takes. */
function givenSecret(env: NodeJS.ProcessEnv): string | undefined {
  const secret = env[SANDBOX_SECRET_ENV]?.trim();
  if (!secret) return undefined;
  const problem = givenSecretProblem(secret);
  if (problem) throw new UsageError(problem);
  return secret;
}

function seconds(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : ms / 1000;
}
