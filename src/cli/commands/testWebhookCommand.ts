// `wfs test-webhook`: asks the service to send a simulated webhook to an address.
import { readFileSync } from 'node:fs';
import { buildTestWebhookRequest, sendTestWebhook } from '../../core/webhooks/testWebhookRequest';
import { signedInEnvironment } from '../cliEnvironment';
import { parseFlags, UsageError } from '../flags';
import type { CliIO } from '../output';

export async function testWebhookCommand(argv: string[], io: CliIO): Promise<number> {
  const { emit } = io;
  const flags = parseFlags(argv, { values: ['address', 'topic', 'sub-topic', 'tenant-id', 'webhook-id', 'data'] });
  const need = (n: string) => {
    const v = flags.values.get(n);
    if (!v) throw new UsageError(`--${n} is required`);
    return v;
  };
  const input = { address: need('address'), topic: need('topic'), subTopic: need('sub-topic'), tenantId: need('tenant-id'), webhookId: flags.values.get('webhook-id') };
  let testData: unknown;
  const data = flags.values.get('data');
  if (data !== undefined) {
    let text: string;
    try {
      text = data === '-' ? io.readStdin() : readFileSync(data, 'utf8');
    } catch (err) {
      throw new UsageError(`--data: cannot read ${data === '-' ? 'standard input' : data}: ${(err as Error).message}`);
    }
    try {
      testData = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`--data: not valid JSON: ${(err as Error).message}`);
    }
  }
  const env = await signedInEnvironment(io.env, io.clock);
  try {
    const request = buildTestWebhookRequest({ ...input, testData }, env.clock.now(), env.isLocalSandbox);
    const response = await sendTestWebhook(env.testWebhookUrl, request, { tokens: env.tokens, gate: env.tokens.gate, clock: env.clock });
    emit({ event: 'sent', webhookId: request.webhookId, triggeredAt: request.triggeredAt, response });
    return 0;
  } finally {
    env.tokens.dispose();
  }
}
