// `wfs audit`: runs the receiver audit against a developer's endpoint; one JSON line per case, then a summary.
import { appendFileSafely, refuseFolderLinkOut, UnsafeFilePath, writeFileSafely } from '../../core/files';
import { EXIT } from '../exitCodes';
import {
  AUDIT_CASES,
  auditJunit,
  AuditRefused,
  type AuditSummary,
  auditSummaryMarkdown,
  AuditTargetUnreachable,
  matchAdvice,
  notServedThere,
  refusalText,
  runAudit,
} from '../../core/audit';
import { errnoInWords } from '../errnoWords';
import type { CommandSpec } from '../commandSpec';
import { durationFlag, type ParsedFlags, requiredFlag, UsageError } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import type { TargetTls } from '../../core/http';
import type { CliIO } from '../output';
import {
  announceKey,
  KEY_ENV,
  KEY_FLAGS,
  keySource,
  type KeySource,
  openKey,
  trustAdvice,
  type OpenKey,
} from '../signingKey';
import { TARGET_TLS_NAMES, targetTlsFlags, tlsFlagSpecs } from '../targetTlsFlags';

export const auditCommand: CommandSpec = {
  name: 'audit',
  synopsis:
    'audit --target URL [--ca FILE | --insecure] [--sandbox-url URL | --keys DIR | --sandbox-port P] [--allow-remote] [--timeout DURATION] [--processed-url URL] [--junit FILE] [--summary-md FILE]',
  description: [
    'Sends signed and deliberately broken deliveries to your receiver and checks each answer against the spec.',
    'It signs with the sandbox WFS_BASE_URL names (with WFS_SANDBOX_SECRET), or the key a flag names: your receiver',
    'must trust its issuer, audience and jwksUrl. The genuine delivery goes first: refused, the audit stops there',
    '(exit 9) with {"event":"trust-mismatch",…} naming the key it signed with, what the receiver answered and how to',
    'make them match, since a refusal of the other cases would say nothing.',
    'Prints {"event":"case",…} per case (with "fix" when it failed), then {"event":"summary",…}.',
  ].join('\n'),
  flags: {
    target: {
      type: 'string',
      value: 'URL',
      description: 'your receiver, e.g. http://localhost:3000/webhooks (required)',
    },
    ...tlsFlagSpecs(TARGET_TLS_NAMES, '--target'),
    ...KEY_FLAGS,
    'allow-remote': { type: 'boolean', description: 'allow a target that is not on loopback' },
    timeout: {
      type: 'string',
      value: 'DURATION',
      description: 'per-request timeout: 1s to 60s, e.g. 30s (a bare number is seconds; default 10s)',
    },
    'processed-url': {
      type: 'string',
      value: 'URL',
      description: 'your receiver\'s count of processed deliveries (a number, or {"processed": N}): probes dedupe',
    },
    junit: {
      type: 'string',
      value: 'FILE',
      description: 'also write JUnit XML (one testcase per case, the fix as the failure message)',
    },
    'summary-md': {
      type: 'string',
      value: 'FILE',
      description: 'also write a Markdown table for a CI job summary (e.g. $GITHUB_STEP_SUMMARY)',
    },
  },
  env: KEY_ENV,
  exits: [
    [EXIT.failed, 'a case failed, or the sandbox could not be reached (the error line says why)'],
    [EXIT.targetUnreachable, 'nothing answered at --target (nothing audited): start your receiver, or check the URL'],
    [EXIT.pathNotServed, '--target answered 404, 405 or 421: nothing takes webhooks at that path (nothing audited)'],
    [
      EXIT.trustMismatch,
      'the receiver refused the genuine delivery (most often: it does not trust the key the audit signed with); the other cases were not sent',
    ],
  ],
  async run(flags, io) {
    const o = auditFlags(flags, io.env);
    await checkReportFiles(o);
    let key: OpenKey | undefined;
    try {
      if (o.source.kind === 'here') io.progress?.('starting a sandbox to sign the deliveries');
      key = await openKey(o.source, io.clock);
      announceKey(key, io.emit);
      const summary = await auditTarget(o, key, io);
      return await renderSummary(summary, o, io);
    } catch (err) {
      return renderFailure(err, io);
    } finally {
      io.progress?.(undefined);
      await key?.stop();
    }
  },
};

/** What the flags ask for, checked before anything is sent or started. */
interface AuditFlags {
  target: string;
  source: KeySource;
  processedUrl?: string;
  timeoutMs: number;
  allowRemote: boolean;
  /** --ca or --insecure: the receiver's own TLS, its file read. */
  tls?: TargetTls;
  junit?: string;
  summaryMd?: string;
}

function auditFlags(flags: ParsedFlags, env: NodeJS.ProcessEnv): AuditFlags {
  const target = httpUrlValue(
    '--target',
    requiredFlag(flags, 'target', 'the URL of your webhook receiver, e.g. http://localhost:3000/webhooks'),
  );
  const source = keySource(flags, env, 'audit');
  const processedUrl = flags.values.get('processed-url');
  if (processedUrl) httpUrlValue('--processed-url', processedUrl);
  const tls = targetTlsFlags(flags, target, TARGET_TLS_NAMES, '--target');
  return {
    target,
    source,
    ...(processedUrl ? { processedUrl } : {}),
    timeoutMs: durationFlag(flags, 'timeout', 's', 1000, 60_000) ?? 10_000,
    allowRemote: flags.switches.has('allow-remote'),
    ...(tls ? { tls } : {}),
    junit: flags.values.get('junit'),
    summaryMd: flags.values.get('summary-md'),
  };
}

/** Report files are checked before anything is sent: a typo in a path must not cost a whole audit run. Neither is
 * ever written through a link at its path (#74): JUnit replaces the file, the summary appends to it. */
async function checkReportFiles(o: AuditFlags): Promise<void> {
  for (const [flag, file, write] of [
    ['junit', o.junit, (f: string) => writeFileSafely(f, '', { existing: 'replace' })],
    ['summary-md', o.summaryMd, (f: string) => appendFileSafely(f, '')],
  ] as const) {
    if (!file) continue;
    try {
      // A folder on the way that links out of the folder it runs in is refused too (#74).
      await refuseFolderLinkOut(file, process.cwd());
      await write(file);
    } catch (err) {
      throw new UsageError(
        err instanceof UnsafeFilePath ? `--${flag}: ${err.message}` : `--${flag} ${file}: ${(err as Error).message}`,
      );
    }
  }
}

/** The audit itself, each case said as it is judged. */
async function auditTarget(o: AuditFlags, key: OpenKey, io: CliIO): Promise<AuditSummary> {
  let done = 0;
  io.progress?.(() => `auditing ${o.target}: ${done} of ${AUDIT_CASES.length} cases`);
  const summary = await runAudit({
    target: o.target,
    issuer: key.issuer,
    clock: io.clock,
    allowNonLocal: o.allowRemote,
    requestTimeoutMs: o.timeoutMs,
    processedUrl: o.processedUrl,
    ...(o.tls ? { tls: o.tls } : {}),
    caRemedy: { flag: '--ca' },
    onResult: (r) => {
      done++;
      // A refused genuine delivery is said once, as the trust-mismatch line (renderSummary).
      if (r.trustMismatch) return;
      io.emit({
        event: 'case',
        id: r.id,
        title: r.title,
        expected: r.expected,
        status: r.status ?? null,
        passed: r.passed,
        detail: r.detail,
        ...(r.passed ? {} : { fix: r.fix }),
      });
    },
  });
  io.progress?.(undefined);
  return summary;
}

/** The refusal of the genuine delivery, the checks in your code, the reports, the summary line; the exit code. */
async function renderSummary(summary: AuditSummary, o: AuditFlags, io: CliIO): Promise<number> {
  const m = summary.trustMismatch;
  if (m) io.emit(mismatchLine(summary, m, o.source));
  for (const c of m ? [] : summary.inYourCode)
    io.emit({
      event: 'check-in-your-code',
      id: c.id,
      title: c.title,
      lookFor: c.lookFor,
      ...(c.probe ? { probed: true, passed: c.probe.passed, detail: c.probe.detail } : { probed: false }),
    });
  // The reports are written before the exit code says anything: CI keeps them for a failed job too.
  try {
    if (o.junit) await writeFileSafely(o.junit, auditJunit(summary), { existing: 'replace' });
    if (o.summaryMd) await appendFileSafely(o.summaryMd, auditSummaryMarkdown(summary));
  } catch (err) {
    throw new UsageError(`the report could not be written: ${(err as Error).message}`);
  }
  io.emit({
    event: 'summary',
    target: summary.target,
    issuer: summary.trust.issuer,
    audience: summary.trust.audience,
    jwksUrl: summary.trust.jwksUrl,
    passed: summary.passed,
    failed: summary.failed,
    total: summary.total,
    ...(m ? { trustMismatch: true, notSent: summary.notSent ?? 0 } : {}),
  });
  if (m) return notServedThere(m) ? EXIT.pathNotServed : EXIT.trustMismatch;
  return summary.failed === 0 ? EXIT.ok : EXIT.failed;
}

type TrustMismatch = NonNullable<AuditSummary['trustMismatch']>;

/** The genuine delivery refused: a path nothing serves (#79), or a trust mismatch with how to make them match. */
function mismatchLine(summary: AuditSummary, m: TrustMismatch, source: KeySource): Record<string, unknown> {
  if (notServedThere(m))
    return {
      event: 'error',
      kind: 'path-not-served',
      target: summary.target,
      status: m.status,
      ...(m.said ? { answer: m.said } : {}),
      notSent: summary.notSent ?? 0,
      message: `${summary.target} answered ${m.status} to the audit's genuine delivery: nothing takes webhooks at that path, so nothing was audited. Check --target: the path your receiver serves (\`wfs listen\` prints it in its ready line, /webhooks by default), its host and port.`,
    };
  return {
    event: 'trust-mismatch',
    target: summary.target,
    issuer: m.signedWith.issuer,
    audience: m.signedWith.audience,
    jwksUrl: m.signedWith.jwksUrl,
    kid: m.signedWith.kid ?? null,
    status: m.status,
    ...(m.said ? { answer: m.said } : {}),
    ...(m.step !== undefined ? { step: m.step } : {}),
    ...(m.retryAfter ? { retryAfter: m.retryAfter } : {}),
    trust: m.trust,
    notSent: summary.notSent ?? 0,
    message: `${refusalText(m, "the audit's genuine delivery", summary.target)} The other ${summary.notSent ?? 0} cases were not sent: a refusal of theirs would say nothing.`,
    fix: m.trust ? `${matchAdvice(m)} ${trustAdvice(source, m.signedWith)}` : matchAdvice(m),
  };
}

/** A refusal before anything was sent is a usage error; nothing answering at the target is said as such. */
function renderFailure(err: unknown, io: CliIO): number {
  if (err instanceof AuditRefused) throw new UsageError(err.message);
  if (!(err instanceof AuditTargetUnreachable)) throw err;
  const origin = new URL(err.target).origin;
  io.emit({
    event: 'error',
    kind: 'target-unreachable',
    target: err.target,
    ...(err.code ? { code: err.code } : {}),
    ...(err.tls ? { tls: err.tls } : {}),
    message: err.tls
      ? `${err.message}: nothing was audited.`
      : `${errnoInWords(err.code, origin) ?? `${origin} could not be reached (${err.message})`}: nothing was audited. Start your receiver (it must listen at ${err.target}), or check --target.`,
  });
  return EXIT.targetUnreachable;
}
