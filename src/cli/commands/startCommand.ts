// `wfs start`: starts one billed workflow and prints the service's JSON on 202.
import { WorkflowClient } from '../../core/workflows/WorkflowClient';
import { signedInEnvironment } from '../cliEnvironment';
import { parseFlags, UsageError } from '../flags';
import type { CliIO } from '../output';

export async function startCommand(argv: string[], io: CliIO): Promise<number> {
  const { emit } = io;
  const flags = parseFlags(argv, { values: ['session', 'service', 'model', 'correlation-id'] });
  const need = (n: string) => {
    const v = flags.values.get(n);
    if (!v) throw new UsageError(`--${n} is required`);
    return v;
  };
  const sessionId = need('session');
  const product = { service: need('service'), model: need('model') };
  const env = await signedInEnvironment(io.env, io.clock);
  try {
    const client = new WorkflowClient({
      baseUrl: env.baseUrl,
      userAlias: env.userAlias,
      tokens: env.tokens,
      gate: env.tokens.gate,
      clock: env.clock,
      onBackoff: (attempt, delayMs) => emit({ event: 'backoff', status: 429, attempt, delayMs }),
    });
    const result = await client.start({ sessionId, product, correlationId: flags.values.get('correlation-id') });
    const { correlationId, ...body } = result;
    emit({ event: 'started', correlationId, ...body });
    return 0;
  } finally {
    env.tokens.dispose();
  }
}
