// `wfs audit`: runs the receiver audit against a developer's endpoint; one JSON line per case, then a summary.
import { appendFileSafely, refuseFolderLinkOut, UnsafeFilePath, writeFileSafely } from '../../core/files';
import { EXIT } from '../exitCodes';
import {
  AUDIT_CASES,
  auditJunit,
  AuditRefused,
  auditSummaryMarkdown,
  AuditTargetUnreachable,
  matchAdvice,
  notServedThere,
  refusalText,
  runAudit,
} from '../../core/audit';
import { errnoInWords } from '../errnoWords';
import type { CommandSpec } from '../commandSpec';
import { durationFlag, requiredFlag, UsageError } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import { announceKey, KEY_ENV, KEY_FLAGS, keySource, openKey, trustAdvice, type OpenKey } from '../signingKey';

/** Nothing answered at --target: nothing was audited, which is not a failed case. */

export const auditCommand: CommandSpec = {
  name: 'audit',
  synopsis:
    'audit --target URL [--sandbox-url URL | --keys DIR | --sandbox-port P] [--allow-remote] [--timeout DURATION] [--processed-url URL] [--junit FILE] [--summary-md FILE]',
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
    const { emit } = io;
    const target = httpUrlValue(
      '--target',
      requiredFlag(flags, 'target', 'the URL of your webhook receiver, e.g. http://localhost:3000/webhooks'),
    );
    const source = keySource(flags, io.env, 'audit');
    const processedUrl = flags.values.get('processed-url');
    if (processedUrl) httpUrlValue('--processed-url', processedUrl);
    const timeoutMs = durationFlag(flags, 'timeout', 's', 1000, 60_000) ?? 10_000;
    // Report files are checked before anything is sent: a typo in a path must not cost a whole audit run.
    // Neither is ever written through a link at its path (#74): JUnit replaces the file, the summary appends to it.
    for (const [flag, write] of [
      ['junit', (file: string) => writeFileSafely(file, '', { existing: 'replace' })],
      ['summary-md', (file: string) => appendFileSafely(file, '')],
    ] as const) {
      const file = flags.values.get(flag);
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
    let key: OpenKey | undefined;
    try {
      if (source.kind === 'here') io.progress?.('starting a sandbox to sign the deliveries');
      key = await openKey(source, io.clock);
      announceKey(key, emit);
      let done = 0;
      io.progress?.(() => `auditing ${target}: ${done} of ${AUDIT_CASES.length} cases`);
      const summary = await runAudit({
        target,
        issuer: key.issuer,
        clock: io.clock,
        allowNonLocal: flags.switches.has('allow-remote'),
        requestTimeoutMs: timeoutMs,
        processedUrl,
        onResult: (r) => {
          done++;
          // A refused genuine delivery is said once, as the trust-mismatch line below.
          if (r.trustMismatch) return;
          emit({
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
      const m = summary.trustMismatch;
      if (m && notServedThere(m)) {
        // A path typo is no trust mismatch: nothing took the delivery at all (#79).
        emit({
          event: 'error',
          kind: 'path-not-served',
          target: summary.target,
          status: m.status,
          ...(m.said ? { answer: m.said } : {}),
          notSent: summary.notSent ?? 0,
          message: `${summary.target} answered ${m.status} to the audit's genuine delivery: nothing takes webhooks at that path, so nothing was audited. Check --target: the path your receiver serves (\`wfs listen\` prints it in its ready line, /webhooks by default), its host and port.`,
        });
      } else if (m) {
        emit({
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
        });
      }
      for (const c of m ? [] : summary.inYourCode)
        emit({
          event: 'check-in-your-code',
          id: c.id,
          title: c.title,
          lookFor: c.lookFor,
          ...(c.probe ? { probed: true, passed: c.probe.passed, detail: c.probe.detail } : { probed: false }),
        });
      // The reports are written before the exit code says anything: CI keeps them for a failed job too.
      const junit = flags.values.get('junit');
      const summaryMd = flags.values.get('summary-md');
      try {
        if (junit) await writeFileSafely(junit, auditJunit(summary), { existing: 'replace' });
        if (summaryMd) await appendFileSafely(summaryMd, auditSummaryMarkdown(summary));
      } catch (err) {
        throw new UsageError(`the report could not be written: ${(err as Error).message}`);
      }
      emit({
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
    } catch (err) {
      if (err instanceof AuditRefused) throw new UsageError(err.message);
      if (err instanceof AuditTargetUnreachable) {
        const origin = new URL(err.target).origin;
        emit({
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
      throw err;
    } finally {
      io.progress?.(undefined);
      await key?.stop();
    }
  },
};
