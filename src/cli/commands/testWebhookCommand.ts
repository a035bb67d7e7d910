// `wfs test-webhook`: asks the service to send a simulated webhook to an address.
import { MAX_STDIN_BYTES, readBoundedText } from '../boundedRead';
import { EXIT } from '../exitCodes';
import { MAX_REQUEST_BYTES, sizeInWords } from '../../core/sandbox';
import {
  buildTestWebhookRequest,
  DEFAULT_MAX_BODY,
  sendTestWebhook,
  testWebhookIds,
  type TestWebhookOutcome,
} from '../../core/webhooks';
import { readServiceTarget, signIn } from '../cliEnvironment';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';
import { requiredFlag, UsageError } from '../flags';
import { missingSchemeHint } from '../../core/http';
import { parseJsonText } from '../../core';
import { applyOverrides, type EventOverride } from '../../core/fixtures';
import { notSentError, overridesOf, SET_FLAG } from '../eventOverrideFlags';

/** What to do about a failed delivery, by its cause (core/webhooks decides it): no answer is a receiver that is not
 * running, but an answer is the receiver (or what is behind it) saying why. In the CLI's words: its commands and
 * flags. */
export function deliveryFailureAdvice(outcome: TestWebhookOutcome, address: string): string {
  const listen = '`wfs listen` prints every delivery with its answer and why';
  const status = outcome.receiverStatus;
  switch (outcome.cause) {
    case 'not-reached':
    case 'not-reported':
    case 'delivered':
      return `Check that your receiver is running and reachable at ${address} (\`wfs listen\` prints its address).`;
    case 'too-large': {
      const needed = Math.ceil(outcome.bodyBytes / MIB) * MIB;
      return `The receiver refused the body of ${sizeInWords(outcome.bodyBytes)} as over its size limit. \`wfs listen\` takes ${sizeInWords(DEFAULT_MAX_BODY)} unless started with --max-body BYTES: restart it with --max-body ${needed}, or send smaller --data. (The receiver in VS Code takes ${sizeInWords(DEFAULT_MAX_BODY)}.)`;
    }
    case 'app-not-answering':
      return `The receiver took the delivery, but the app behind it did not answer${status === 504 ? ' in time' : ''}: with \`wfs listen --pass-through\`, its answer is your app's, so check that the app is running at the --forward-to (or --forward) address (${listen}). Through a tunnel or a proxy, ${status} can also mean that nothing listens behind it.`;
    case 'refused':
      return `The receiver refused the delivery as not verified: ${listen}. Make it trust this service's issuer and key set (\`wfs listen --trust-sandbox URL\` for a local sandbox).`;
    case 'no-webhooks-here':
      return `Nothing at ${address} takes webhooks: check the path (\`wfs listen\` prints the address to use).`;
    case 'wrong-host':
      return `The receiver does not answer the host name of ${address}: use the address \`wfs listen\` prints, or the public address it was given (--public-url, --tunnel).`;
    default:
      return `${listen[0]!.toUpperCase()}${listen.slice(1)}.`;
  }
}

const MIB = 1024 * 1024;

export const testWebhookCommand: CommandSpec = {
  name: 'test-webhook',
  synopsis:
    'test-webhook --address URL --topic T --sub-topic S --tenant-id T [--webhook-id UUID] [--data FILE|-] [--set PATH=VALUE …]',
  description: [
    'Asks the webhook test endpoint to send testData to URL, with the five X-Svc-* headers.',
    'The address must be https; only when the test endpoint is a local sandbox is a loopback http address allowed.',
    'Prints {"event":"sent","webhookId":…,"triggeredAt":…,"response":…}: webhookId is the body\'s (what apps dedupe on),',
    'with "headerWebhookId" when X-Svc-Webhook-Id differs. Backs off on 429 like every command. "response" is the',
    'endpoint\'s answer: the sandbox puts the first attempt\'s "receiverStatus" or "error" there, and "retryScheduled" when it',
    'will try again. "outcome" is what that says: {"cause":…,"failed":…,"receiverStatus":…,"summary":…}, the same',
    'cause and words the editor shows. When it says the delivery failed (an "error", or a "receiverStatus" outside 2xx),',
    'an error line {"kind":"delivery-failed","cause":…,…} follows and the exit code is 7. Exit 0: the endpoint took it',
    'and reported no failure.',
  ].join('\n'),
  flags: {
    address: {
      type: 'string',
      value: 'URL',
      description: 'the public https address that receives the event (required)',
      required: true,
    },
    topic: {
      type: 'string',
      value: 'T',
      description: 'X-Svc-Topic, e.g. workflow/completed (required)',
      required: true,
    },
    'sub-topic': {
      type: 'string',
      value: 'S',
      description: 'X-Svc-Sub-Topic, e.g. status:workflow/completed (required)',
      required: true,
    },
    'tenant-id': { type: 'string', value: 'T', description: 'X-Svc-Tenant-Id (required)', required: true },
    'webhook-id': { type: 'string', value: 'UUID', description: 'X-Svc-Webhook-Id (default: a new UUID)' },
    data: { type: 'string', value: 'FILE|-', description: 'testData as JSON, from a file or standard input (-)' },
    ...SET_FLAG,
  },
  env: SERVICE_ENV,
  exits: [
    [
      EXIT.deliveryFailed,
      'the service took the request and says the delivery to the address failed (the error line says how)',
    ],
  ],
  async run(flags, io) {
    const input = {
      address: requiredFlag(flags, 'address'),
      topic: requiredFlag(flags, 'topic'),
      subTopic: requiredFlag(flags, 'sub-topic'),
      tenantId: requiredFlag(flags, 'tenant-id'),
      webhookId: flags.values.get('webhook-id'),
    };
    // "localhost:4020/webhooks" parses as the scheme "localhost:": say what is missing, as the extension does.
    const hint = missingSchemeHint(input.address);
    if (hint) throw new UsageError(`--address ${input.address} is not a URL${hint}`);
    const testData = readTestData(flags.values.get('data'), io.readStdin, overridesOf(flags));
    const target = readServiceTarget(io.env);
    // Every local rule (https address, UUID, header values, the size) is checked before the sign-in goes out.
    const local = buildTestWebhookRequest({ ...input, testData }, io.clock.now(), target.isLocalSandbox);
    const requestBytes = Buffer.byteLength(JSON.stringify(local.json));
    if (requestBytes > MAX_REQUEST_BYTES)
      throw new UsageError(
        `--data: the request would be ${sizeInWords(requestBytes)}, over the limit of ${sizeInWords(MAX_REQUEST_BYTES)}; nothing was sent`,
      );
    const env = await signIn(target, io);
    try {
      const request = buildTestWebhookRequest({ ...input, testData }, env.clock.now(), env.isLocalSandbox);
      const { response, outcome } = await sendTestWebhook(env.testWebhookUrl, request, {
        tokens: env.tokens,
        gate: env.gate,
        clock: env.clock,
      });
      const ids = testWebhookIds(request);
      io.emit({ event: 'sent', ...ids, triggeredAt: request.triggeredAt, response, outcome: outcomeFields(outcome) });
      if (!outcome.failed) return EXIT.ok;
      io.emit({
        event: 'error',
        kind: 'delivery-failed',
        ...ids,
        address: input.address,
        cause: outcome.cause,
        ...(outcome.receiverStatus !== undefined ? { receiverStatus: outcome.receiverStatus } : {}),
        message: `${outcome.summary}. ${deliveryFailureAdvice(outcome, input.address)}`,
      });
      return EXIT.deliveryFailed;
    } finally {
      env.tokens.dispose();
    }
  },
};

/** The outcome on the `sent` line: what core decided, for scripts that read it rather than "response". */
function outcomeFields(o: TestWebhookOutcome): Record<string, unknown> {
  return {
    cause: o.cause,
    failed: o.failed,
    ...(o.receiverStatus !== undefined ? { receiverStatus: o.receiverStatus } : {}),
    retryScheduled: o.retryScheduled,
    summary: o.summary,
  };
}

/** The --data JSON, with the --set changes made to it (the sandbox signs it as it delivers it). */
function readTestData(data: string | undefined, readStdin: () => string, overrides: EventOverride[]): unknown {
  if (data === undefined) {
    if (overrides.length)
      throw new UsageError('--set changes values of the testData: give it with --data FILE|- (nothing was sent)');
    return undefined;
  }
  let text: string;
  try {
    text = data === '-' ? readStdin() : readBoundedText(data, MAX_STDIN_BYTES);
  } catch (err) {
    throw new UsageError(`--data: cannot read ${data === '-' ? 'standard input' : data}: ${(err as Error).message}`);
  }
  // A byte-order mark (Windows editors save one) is dropped; an error says its line and column.
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (err) {
    throw new UsageError(`--data ${data === '-' ? '-' : data}: not valid JSON: ${(err as Error).message}`);
  }
  if (!overrides.length) return value;
  try {
    return JSON.parse(applyOverrides(text, overrides)) as unknown;
  } catch (err) {
    throw notSentError(err);
  }
}
