// `wfs test-webhook`: asks the service to send a simulated webhook to an address.
import { MAX_STDIN_BYTES, readBoundedText } from '../boundedRead';
import { buildTestWebhookRequest, sendTestWebhook } from '../../core/webhooks/testWebhookRequest';
import { readServiceTarget, signIn } from '../cliEnvironment';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';
import { requiredFlag, UsageError } from '../flags';

export const testWebhookCommand: CommandSpec = {
  name: 'test-webhook',
  summary: 'ask the service to send a simulated webhook to an address',
  synopsis: 'test-webhook --address URL --topic T --sub-topic S --tenant-id T [--webhook-id UUID] [--data FILE|-]',
  description: [
    'Asks the webhook test endpoint to send testData to URL, with the five X-Svc-* headers.',
    'The address must be https; only when the test endpoint is a local sandbox is a loopback http address allowed.',
    'Prints {"event":"sent","webhookId":…,"triggeredAt":…,"response":…}. Backs off on 429 like every command.',
    'Exit 0 means the test endpoint took the request, not that the address received it: see your receiver, or "response"',
    '(the sandbox puts the first attempt\'s "receiverStatus" or "error" there, and "retryScheduled" when it will try again).',
  ].join('\n'),
  flags: {
    address: { type: 'string', value: 'URL', description: 'the public https address that receives the event (required)' },
    topic: { type: 'string', value: 'T', description: 'X-Svc-Topic, e.g. workflow/completed (required)' },
    'sub-topic': { type: 'string', value: 'S', description: 'X-Svc-Sub-Topic, e.g. status:workflow/completed (required)' },
    'tenant-id': { type: 'string', value: 'T', description: 'X-Svc-Tenant-Id (required)' },
    'webhook-id': { type: 'string', value: 'UUID', description: 'X-Svc-Webhook-Id (default: a new UUID)' },
    data: { type: 'string', value: 'FILE|-', description: 'testData as JSON, from a file or standard input (-)' },
  },
  env: SERVICE_ENV,
  async run(flags, io) {
    const input = {
      address: requiredFlag(flags, 'address'),
      topic: requiredFlag(flags, 'topic'),
      subTopic: requiredFlag(flags, 'sub-topic'),
      tenantId: requiredFlag(flags, 'tenant-id'),
      webhookId: flags.values.get('webhook-id'),
    };
    const testData = readTestData(flags.values.get('data'), io.readStdin);
    const target = readServiceTarget(io.env);
    // Every local rule (https address, UUID, header values) is checked before the sign-in goes out.
    buildTestWebhookRequest({ ...input, testData }, io.clock.now(), target.isLocalSandbox);
    const env = await signIn(target, io);
    try {
      const request = buildTestWebhookRequest({ ...input, testData }, env.clock.now(), env.isLocalSandbox);
      const response = await sendTestWebhook(env.testWebhookUrl, request, { tokens: env.tokens, gate: env.gate, clock: env.clock });
      io.emit({ event: 'sent', webhookId: request.webhookId, triggeredAt: request.triggeredAt, response });
      return 0;
    } finally {
      env.tokens.dispose();
    }
  },
};

function readTestData(data: string | undefined, readStdin: () => string): unknown {
  if (data === undefined) return undefined;
  let text: string;
  try {
    text = data === '-' ? readStdin() : readBoundedText(data, MAX_STDIN_BYTES);
  } catch (err) {
    throw new UsageError(`--data: cannot read ${data === '-' ? 'standard input' : data}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--data ${data === '-' ? '-' : data}: not valid JSON: ${(err as Error).message}`);
  }
}
