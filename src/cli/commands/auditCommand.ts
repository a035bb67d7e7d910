// `wfs audit`: runs the receiver audit against a developer's endpoint; one JSON line per case, then a summary.
import { AuditRefused, runAudit } from '../../core/audit/receiverAudit';
import { Sandbox } from '../../core/sandbox/Sandbox';
import { intFlag, parseFlags, UsageError } from '../flags';
import type { CliIO } from '../output';

export async function auditCommand(argv: string[], io: CliIO): Promise<number> {
  const { emit } = io;
  const flags = parseFlags(argv, { values: ['target', 'sandbox-url', 'sandbox-port', 'timeout'], switches: ['allow-remote'] });
  const target = flags.values.get('target');
  if (!target) throw new UsageError('--target is required: the URL of your webhook receiver, e.g. http://localhost:3000/webhooks');
  const sandboxUrl = flags.values.get('sandbox-url');
  if (sandboxUrl && flags.values.has('sandbox-port')) throw new UsageError('--sandbox-url excludes --sandbox-port');
  const timeoutS = intFlag(flags, 'timeout', 1, 60) ?? 10;
  let embedded: Sandbox | undefined;
  let url = sandboxUrl;
  if (!url) {
    // No sandbox given: run one here. Give it a fixed port so your receiver can trust its key-set address.
    embedded = new Sandbox({ port: intFlag(flags, 'sandbox-port', 0, 65535) ?? 0 });
    const info = await embedded.start();
    url = info.baseUrl;
  }
  try {
    const summary = await runAudit({
      target,
      sandboxUrl: url,
      clock: io.clock,
      allowNonLocal: flags.switches.has('allow-remote'),
      requestTimeoutMs: timeoutS * 1000,
      onResult: (r) =>
        emit({ event: 'case', id: r.id, title: r.title, expected: r.expected, status: r.status ?? null, passed: r.passed, detail: r.detail, ...(r.passed ? {} : { fix: r.fix }) }),
    });
    emit({ event: 'summary', target: summary.target, issuer: summary.trust.issuer, audience: summary.trust.audience, jwksUrl: summary.trust.jwksUrl, passed: summary.passed, failed: summary.failed, total: summary.total });
    return summary.failed === 0 ? 0 : 1;
  } catch (err) {
    if (err instanceof AuditRefused) throw new UsageError(err.message);
    throw err;
  } finally {
    await embedded?.stop();
  }
}
