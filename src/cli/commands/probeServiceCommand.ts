// `wfs probe-service`: checks an environment against the contract with a fixed series of requests that can never
// bill, reports each observation against the spec and the sandbox, and can write a profile the sandbox imitates.
import { checkPathToWrite, refuseFolderLinkOut, UnsafeFilePath, writeFileSafely } from '../../core/files';
import { EXIT } from '../exitCodes';
import { isLoopbackHost, joinUrl } from '../../core/http';
import {
  DEFAULT_SPACING_MS,
  MAX_KEY_SETS,
  MAX_PROBE_REQUESTS,
  probeMarkdown,
  probeProfile,
  runProbe,
  summaryLine,
  WebhookCapture,
} from '../../core/probe';
import { buildTestWebhookRequest } from '../../core/webhooks';
import { DEFAULT_FIND_WORKFLOWS_PATH, findWorkflowsUrl } from '../../core/workflows';
import { readServiceTarget } from '../cliEnvironment';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';
import { durationFlag, intFlag, UsageError } from '../flags';
import { httpUrlValue } from '../httpUrlValue';

export const probeServiceCommand: CommandSpec = {
  name: 'probe-service',
  synopsis: [
    'probe-service [--include-refusal] [--jwks-url URL …] [--spacing DURATION]',
    '              [--webhook-address URL [--webhook-port P] [--webhook-wait DURATION]]',
    '              [--markdown FILE] [--profile-out FILE]',
  ].join('\n'),
  description: [
    `Sends a fixed series of at most ${MAX_PROBE_REQUESTS} requests, ${DEFAULT_SPACING_MS} ms apart, none of which can bill: a sign-in with`,
    'the given credentials, a refresh and a garbage refresh, five starts that cannot be accepted (no Authorization, a',
    'malformed token, malformed JSON, no Content-Type, an unresolvable product on a session that cannot exist), a path',
    'without the workflow context root, a read of a workflow that cannot exist, Find Workflows (where `wfs find` searches),',
    'the key sets (--jwks-url) and, with --webhook-address, one test webhook. Credentials go only to WFS_BASE_URL and',
    'WFS_TEST_WEBHOOK_URL. One {"event":"probe-row",…} line per observation: what the spec says, what the sandbox does,',
    'what the service did (status, media type, body kind, field names; JWT header and claim names, never values), and',
    'the verdict: "as-spec", "silent" (with matchesSandbox) or "differs". Then {"event":"probe-summary",…}.',
    'A 429 stops the probe. A 2xx on any start stops it at once with the workflow and correlationId (exit 3).',
    'The test webhook: the probe listens on 127.0.0.1:--webhook-port for it; --webhook-address is the address the service',
    'is given (your tunnel or proxy in front of that port; for a local sandbox, http://127.0.0.1:P/… itself).',
    '--profile-out writes what the service chose where the spec is silent, for wfs sandbox --profile.',
  ].join('\n'),
  flags: {
    'include-refusal': {
      type: 'boolean',
      description: 'also sign in once with a wrong password (a refused credential: repeated ones meet the throttle)',
    },
    'jwks-url': {
      type: 'string',
      multiple: true,
      value: 'URL',
      description: `a key set of the environment's webhook issuers (at most ${MAX_KEY_SETS}; no credential is sent there)`,
    },
    'webhook-address': {
      type: 'string',
      value: 'URL',
      description: 'send one test webhook to this address and record what arrives',
    },
    'webhook-port': {
      type: 'string',
      value: 'P',
      description: "the loopback port the probe receives it on (default: the address's port when it is loopback)",
    },
    'webhook-wait': {
      type: 'string',
      value: 'DURATION',
      description: 'how long to wait for the test webhook to arrive, up to 10m (a bare number is seconds; default 30s)',
    },
    spacing: {
      type: 'string',
      value: 'DURATION',
      description: `time between requests, 100ms to 60s (a bare number is milliseconds; default ${DEFAULT_SPACING_MS}ms)`,
    },
    markdown: { type: 'string', value: 'FILE', description: 'write the report as Markdown' },
    'profile-out': {
      type: 'string',
      value: 'FILE',
      description: 'write a sandbox profile (wfs sandbox --profile FILE)',
    },
  },
  env: [
    ...SERVICE_ENV,
    ['WFS_PROBLEMS_BASE', "the base of the service's problem types (default: WFS_BASE_URL)"],
    [
      'WFS_FIND_WORKFLOWS_URL',
      "Find Workflows address with {correlationId}, as for wfs find (default: the sandbox's path on WFS_BASE_URL)",
    ],
  ],
  exits: [
    [EXIT.failed, 'something differs from the spec, or the probe stopped early (429, a refused sign-in, no answer)'],
    [EXIT.outcomeUnknown, 'a start was answered 2xx: the probe stopped at once (the error line names the workflow)'],
  ],
  async run(flags, io) {
    await checkOutputPaths(flags);
    const plan = probePlan(flags, io);
    const capture = await openCapture(flags, io, plan.target.isLocalSandbox);
    announce(flags, io, plan);
    let report;
    try {
      report = await runProbe(
        {
          baseUrl: plan.target.baseUrl,
          testWebhookUrl: plan.target.testWebhookUrl,
          credentials: plan.target.credentials,
          aliasPlacement: plan.target.aliasPlacement,
          problemsBase: plan.problemsBase,
          findWorkflowsUrl: plan.findTemplate,
          jwksUrls: plan.jwksUrls,
          isLocalSandbox: plan.target.isLocalSandbox,
        },
        {
          clock: io.clock,
          spacingMs: plan.spacingMs,
          includeRefusal: flags.switches.has('include-refusal'),
          webhook: capture ? { address: capture.address, capture: capture.capture, waitMs: plan.waitMs } : undefined,
          onRow: (row) => io.emit({ event: 'probe-row', ...row }),
        },
      );
    } finally {
      await capture?.capture.close();
    }
    await writeReports(flags, io, report);
    return finish(io, report);
  },
};

type Flags = Parameters<CommandSpec['run']>[0];
type Io = Parameters<CommandSpec['run']>[1];
type ProbeReport = Awaited<ReturnType<typeof runProbe>>;

/** Output paths first: a link or a folder there must not cost a whole probe (they are checked again when written). */
async function checkOutputPaths(flags: Flags): Promise<void> {
  for (const flag of ['markdown', 'profile-out']) {
    const file = flags.values.get(flag);
    if (file)
      await Promise.all([checkPathToWrite(file), refuseFolderLinkOut(file, process.cwd())]).catch((err: unknown) => {
        throw err instanceof UnsafeFilePath ? new UsageError(`--${flag}: ${err.message}`) : err;
      });
  }
}

/** Where the probe goes and how fast, from the environment and the flags; a usage error before anything is sent. */
function probePlan(flags: Flags, io: Io) {
  const target = readServiceTarget(io.env);
  const problemsBase = io.env.WFS_PROBLEMS_BASE
    ? httpUrlValue('WFS_PROBLEMS_BASE', io.env.WFS_PROBLEMS_BASE).replace(/\/+$/, '')
    : undefined;
  // Where `wfs find` searches: the variable, or the sandbox's own path (the service's is not documented).
  const findTemplate = io.env.WFS_FIND_WORKFLOWS_URL || joinUrl(target.baseUrl, DEFAULT_FIND_WORKFLOWS_PATH);
  if (findTemplate)
    try {
      findWorkflowsUrl(target.baseUrl, 'x', findTemplate);
    } catch (err) {
      throw new UsageError(`WFS_FIND_WORKFLOWS_URL: ${(err as Error).message}`);
    }
  const jwksUrls = (flags.lists.get('jwks-url') ?? []).map((u) => httpUrlValue('--jwks-url', u));
  if (jwksUrls.length > MAX_KEY_SETS) throw new UsageError(`--jwks-url: at most ${MAX_KEY_SETS} key sets`);
  const spacingMs = durationFlag(flags, 'spacing', 'ms', 100, 60_000) ?? DEFAULT_SPACING_MS;
  const waitMs = durationFlag(flags, 'webhook-wait', 's', 1000, 600_000) ?? 30_000;
  return { target, problemsBase, findTemplate, jwksUrls, spacingMs, waitMs };
}

/** With --webhook-address: the loopback listener the test webhook arrives at, every rule checked before a
 * credential leaves. */
async function openCapture(
  flags: Flags,
  io: Io,
  isLocalSandbox: boolean,
): Promise<{ address: string; capture: WebhookCapture } | undefined> {
  const address = flags.values.get('webhook-address');
  if (address === undefined) {
    if (flags.values.has('webhook-port')) throw new UsageError('--webhook-port goes with --webhook-address');
    return undefined;
  }
  httpUrlValue('--webhook-address', address);
  buildTestWebhookRequest(
    { address, topic: 'probe/test', subTopic: 'probe:probe/test', tenantId: 'wfs-probe' },
    io.clock.now(),
    isLocalSandbox,
  );
  const url = new URL(address);
  const port =
    intFlag(flags, 'webhook-port', 1, 65535) ??
    (isLoopbackHost(url.hostname) && url.port ? Number(url.port) : undefined);
  if (port === undefined)
    throw new UsageError(
      '--webhook-port is required with a public --webhook-address: the loopback port your tunnel or proxy forwards that address to',
    );
  const capture = new WebhookCapture(url.hostname);
  await capture.listen(port);
  return { address, capture };
}

function announce(flags: Flags, io: Io, plan: ReturnType<typeof probePlan>): void {
  if (flags.switches.has('include-refusal'))
    io.emit({
      event: 'warning',
      message:
        "With --include-refusal the probe signs in once with a wrong password. Refused credentials weigh on the service's throttle (spec: Errors, rule 5): do not repeat it in a loop.",
    });
  io.emit({
    event: 'probing',
    origin: new URL(plan.target.baseUrl).origin,
    testWebhookOrigin: new URL(plan.target.testWebhookUrl).origin,
    plannedRequests: MAX_PROBE_REQUESTS,
    spacingMs: plan.spacingMs,
    // Without its query, as every address the probe prints.
    findWorkflowsAt: plan.findTemplate.split('?')[0],
    ...(io.env.WFS_FIND_WORKFLOWS_URL ? {} : { findWorkflowsDefault: true }),
  });
}

async function writeReports(flags: Flags, io: Io, report: ProbeReport): Promise<void> {
  const markdownFile = flags.values.get('markdown');
  if (markdownFile) {
    // Replaced whole, never through a link at the path (#74).
    await writeFileSafely(markdownFile, probeMarkdown(report), { existing: 'replace' });
    io.emit({ event: 'written', what: 'markdown', file: markdownFile });
  }
  const profileFile = flags.values.get('profile-out');
  if (profileFile) {
    await writeFileSafely(profileFile, JSON.stringify(probeProfile(report), null, 2) + '\n', { existing: 'replace' });
    io.emit({ event: 'written', what: 'profile', file: profileFile });
  }
}

function finish(io: Io, report: ProbeReport): number {
  io.emit({
    event: 'probe-summary',
    ended: report.outcome.ended,
    counts: report.counts,
    requests: report.requests,
    summary: summaryLine(report),
  });
  const o = report.outcome;
  if (o.ended === 'start-accepted') {
    io.emit({
      event: 'error',
      kind: 'start-accepted',
      status: o.accepted?.status,
      ...(o.accepted?.workflowId ? { workflowId: o.accepted.workflowId } : {}),
      correlationId: o.accepted?.correlationId,
      message: o.message,
    });
    return EXIT.outcomeUnknown;
  }
  if (o.ended !== 'complete') {
    io.emit({ event: 'error', kind: o.ended, message: o.message });
    return EXIT.failed;
  }
  return report.counts.differs > 0 ? EXIT.failed : EXIT.ok;
}
