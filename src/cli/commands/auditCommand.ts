// `wfs audit`: runs the receiver audit against a developer's endpoint; one JSON line per case, then a summary.
import { appendFileSync, writeFileSync } from 'node:fs';
import { EXIT } from '../exitCodes';
import { AUDIT_CASES } from '../../core/audit/auditCases';
import { AuditRefused, AuditTargetUnreachable, runAudit } from '../../core/audit/receiverAudit';
import { errnoInWords } from '../errnoWords';
import { auditJunit, auditSummaryMarkdown } from '../../core/audit/auditReport';
import { Sandbox } from '../../core/sandbox/Sandbox';
import type { CommandSpec } from '../commandSpec';
import { intFlag, requiredFlag, UsageError } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import { sandboxSecretFromEnv, sandboxSecretHelp } from '../sandboxSecret';

/** Nothing answered at --target: nothing was audited, which is not a failed case. */

export const auditCommand: CommandSpec = {
  name: 'audit',
  synopsis:
    'audit --target URL [--sandbox-url URL | --sandbox-port P] [--allow-remote] [--timeout SECONDS] [--processed-url URL] [--junit FILE] [--summary-md FILE]',
  description: [
    'Sends signed and deliberately broken deliveries to your receiver and checks each answer against the spec.',
    "Your receiver must trust the sandbox's issuer, audience and jwksUrl (printed by `wfs sandbox`).",
    'Prints {"event":"case",…} per case (with "fix" when it failed), then {"event":"summary",…}.',
  ].join('\n'),
  flags: {
    target: {
      type: 'string',
      value: 'URL',
      description: 'your receiver, e.g. http://localhost:3000/webhooks (required)',
    },
    'sandbox-url': {
      type: 'string',
      value: 'URL',
      description: 'a running `wfs sandbox` whose keys sign the deliveries (its secret in WFS_SANDBOX_SECRET)',
    },
    'sandbox-port': {
      type: 'string',
      value: 'P',
      description: 'without --sandbox-url: run one here on this port (default: a free one)',
    },
    'allow-remote': { type: 'boolean', description: 'allow a target that is not on loopback' },
    timeout: { type: 'string', value: 'SECONDS', description: 'per-request timeout, 1 to 60 (default 10)' },
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
  env: [sandboxSecretHelp('--sandbox-url')],
  exits: [
    [1, 'a case failed, or the sandbox could not be reached (the error line says why)'],
    [EXIT.targetUnreachable, 'nothing answered at --target (nothing audited): start your receiver, or check the URL'],
  ],
  async run(flags, io) {
    const { emit } = io;
    const target = httpUrlValue(
      '--target',
      requiredFlag(flags, 'target', 'the URL of your webhook receiver, e.g. http://localhost:3000/webhooks'),
    );
    const sandboxUrl = flags.values.get('sandbox-url');
    if (sandboxUrl && flags.values.has('sandbox-port')) throw new UsageError('--sandbox-url excludes --sandbox-port');
    if (sandboxUrl) httpUrlValue('--sandbox-url', sandboxUrl, "the sandbox's http(s) baseUrl");
    let secret = sandboxUrl ? sandboxSecretFromEnv(io.env, `--sandbox-url ${sandboxUrl}`) : '';
    const processedUrl = flags.values.get('processed-url');
    if (processedUrl) httpUrlValue('--processed-url', processedUrl);
    const timeoutS = intFlag(flags, 'timeout', 1, 60) ?? 10;
    const sandboxPort = intFlag(flags, 'sandbox-port', 0, 65535) ?? 0;
    // Report files are checked before anything is sent: a typo in a path must not cost a whole audit run.
    for (const [flag, write] of [
      ['junit', writeFileSync],
      ['summary-md', appendFileSync],
    ] as const) {
      const file = flags.values.get(flag);
      if (!file) continue;
      try {
        write(file, '');
      } catch (err) {
        throw new UsageError(`--${flag} ${file}: ${(err as Error).message}`);
      }
    }
    let embedded: Sandbox | undefined;
    let url = sandboxUrl;
    try {
      if (!url) {
        // No sandbox given: run one here. Give it a fixed port so your receiver can trust its key-set address.
        embedded = new Sandbox({ port: sandboxPort });
        io.progress?.('starting a sandbox to sign the deliveries');
        ({ baseUrl: url, controlSecret: secret } = await embedded.start());
      }
      let done = 0;
      io.progress?.(() => `auditing ${target}: ${done} of ${AUDIT_CASES.length} cases`);
      const summary = await runAudit({
        target,
        sandboxUrl: url,
        sandboxSecret: secret,
        clock: io.clock,
        allowNonLocal: flags.switches.has('allow-remote'),
        requestTimeoutMs: timeoutS * 1000,
        processedUrl,
        onResult: (r) => {
          done++;
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
      for (const c of summary.inYourCode)
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
        if (junit) writeFileSync(junit, auditJunit(summary));
        if (summaryMd) writeFileSync(summaryMd, auditSummaryMarkdown(summary), { flag: 'a' });
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
      });
      return summary.failed === 0 ? 0 : 1;
    } catch (err) {
      if (err instanceof AuditRefused) throw new UsageError(err.message);
      if (err instanceof AuditTargetUnreachable) {
        const origin = new URL(err.target).origin;
        emit({
          event: 'error',
          kind: 'target-unreachable',
          target: err.target,
          ...(err.code ? { code: err.code } : {}),
          message: `${errnoInWords(err.code, origin) ?? `${origin} could not be reached (${err.message})`}: nothing was audited. Start your receiver (it must listen at ${err.target}), or check --target.`,
        });
        return EXIT.targetUnreachable;
      }
      throw err;
    } finally {
      io.progress?.(undefined);
      await embedded?.stop();
    }
  },
};
