// `wfs audit`: runs the receiver audit against a developer's endpoint; one JSON line per case, then a summary.
import { AuditRefused, runAudit } from '../../core/audit/receiverAudit';
import { Sandbox } from '../../core/sandbox/Sandbox';
import type { CommandSpec } from '../commandSpec';
import { intFlag, requiredFlag, UsageError } from '../flags';

export const auditCommand: CommandSpec = {
  name: 'audit',
  summary: 'probe your webhook receiver for the classic verification mistakes',
  synopsis: 'audit --target URL [--sandbox-url URL | --sandbox-port P] [--allow-remote] [--timeout SECONDS]',
  description: [
    'Sends signed and deliberately broken deliveries to your receiver and checks each answer against the spec.',
    'Your receiver must trust the sandbox\'s issuer, audience and jwksUrl (printed by `wfs sandbox`).',
    'Prints {"event":"case",…} per case (with "fix" when it failed), then {"event":"summary",…}.',
  ].join('\n'),
  flags: {
    target: { type: 'string', value: 'URL', description: 'your receiver, e.g. http://localhost:3000/webhooks (required)' },
    'sandbox-url': { type: 'string', value: 'URL', description: 'a running `wfs sandbox` whose keys sign the deliveries' },
    'sandbox-port': { type: 'string', value: 'P', description: 'without --sandbox-url: run one here on this port (default: a free one)' },
    'allow-remote': { type: 'boolean', description: 'allow a target that is not on loopback' },
    timeout: { type: 'string', value: 'SECONDS', description: 'per-request timeout, 1 to 60 (default 10)' },
  },
  exits: [[1, 'a case failed (also: the service could not be reached)']],
  async run(flags, io) {
    const { emit } = io;
    const target = requiredFlag(flags, 'target', 'the URL of your webhook receiver, e.g. http://localhost:3000/webhooks');
    const sandboxUrl = flags.values.get('sandbox-url');
    if (sandboxUrl && flags.values.has('sandbox-port')) throw new UsageError('--sandbox-url excludes --sandbox-port');
    const timeoutS = intFlag(flags, 'timeout', 1, 60) ?? 10;
    const sandboxPort = intFlag(flags, 'sandbox-port', 0, 65535) ?? 0;
    let embedded: Sandbox | undefined;
    let url = sandboxUrl;
    try {
      if (!url) {
        // No sandbox given: run one here. Give it a fixed port so your receiver can trust its key-set address.
        embedded = new Sandbox({ port: sandboxPort });
        url = (await embedded.start()).baseUrl;
      }
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
  },
};
