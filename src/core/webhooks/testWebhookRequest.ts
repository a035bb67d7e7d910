// Builds and sends a request to the webhook test endpoint (spec: Endpoints 3).
import { randomUUID } from 'node:crypto';
import { authorizedRequest, type AuthorizedCallOptions } from '../http/authorizedRequest';
import { TEST_WEBHOOK_PATH, joinUrl } from '../http/paths';
import { LocalValidationError } from '../http/serviceErrors';
import { checkOutgoingValue } from '../http/edgeFilter';
import { triggeredAtTimestamp } from '../time/timestamps';
import { isLoopbackHost } from '../http/loopback';
import { said } from '../presentation/said';
import { testWebhookOutcome, type TestWebhookOutcome } from './testWebhookOutcome';

export interface TestWebhookInput {
  address: string;
  topic: string;
  subTopic: string;
  tenantId: string;
  webhookId?: string;
  testData?: unknown;
}

export interface TestWebhookRequest {
  headers: Record<string, string>;
  json: { address: string; testData?: unknown };
  webhookId: string;
  triggeredAt: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * @param allowLoopbackHttp true only when the test endpoint is the sandbox: the real service needs a public https
 * address.
 */
export function buildTestWebhookRequest(
  input: TestWebhookInput,
  nowMs: number,
  allowLoopbackHttp: boolean,
): TestWebhookRequest {
  let url: URL;
  try {
    url = new URL(input.address);
  } catch {
    throw new LocalValidationError('address-invalid', said('"{0}" is not a URL.', input.address));
  }
  const loopbackHttp = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(allowLoopbackHttp && loopbackHttp))
    throw new LocalValidationError(
      'address-not-https',
      loopbackHttp
        ? said(
            '{0} is a local address: the service needs a publicly reachable https URL. Start the receiver with a tunnel and use its public URL.',
            url.origin,
          )
        : said('The address must be an https URL (got {0}//).', url.protocol),
    );
  // The header's id is the body's when the body carries one, so the app and the reports see one id (spec: the
  // header is the "event id used for duplicate detection"; an app dedupes on the body's webhookId).
  const webhookId = input.webhookId ?? bodyWebhookId(input.testData) ?? randomUUID();
  if (!UUID.test(webhookId))
    throw new LocalValidationError('webhook-id-not-uuid', said('The webhook id "{0}" is not a UUID.', webhookId));
  for (const [name, v, required] of [
    ['topic', input.topic, said('The topic is required.')],
    ['sub-topic', input.subTopic, said('The sub-topic is required.')],
    ['tenant id', input.tenantId, said('The tenant id is required.')],
  ] as const) {
    if (!v || !v.trim()) throw new LocalValidationError('header-required', required);
    checkOutgoingValue(name, v);
  }
  const triggeredAt = triggeredAtTimestamp(nowMs);
  return {
    webhookId,
    triggeredAt,
    headers: {
      'x-svc-topic': input.topic,
      'x-svc-sub-topic': input.subTopic,
      'x-svc-tenant-id': input.tenantId,
      'x-svc-webhook-id': webhookId,
      'x-svc-triggered-at': triggeredAt,
    },
    json: { address: input.address, ...(input.testData !== undefined ? { testData: input.testData } : {}) },
  };
}

/** The ids of a test webhook as the app sees them: the body's webhookId (what an app dedupes on, spec: Webhook
 * event) when the testData holds one, else the X-Svc-Webhook-Id header's; the header's is named too when they differ.
 * Both faces report these, so neither names an id the app never sees as the event's. */
export function testWebhookIds(request: TestWebhookRequest): { webhookId: string; headerWebhookId?: string } {
  const data = (request.json as { testData?: unknown }).testData;
  const bodyId =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? (data as { webhookId?: unknown }).webhookId
      : undefined;
  if (typeof bodyId !== 'string' || bodyId === request.webhookId) return { webhookId: request.webhookId };
  return { webhookId: bodyId, headerWebhookId: request.webhookId };
}

/** The testData's own webhookId, when it is a UUID (the header's form). */
function bodyWebhookId(testData: unknown): string | undefined {
  const id =
    testData !== null && typeof testData === 'object' && !Array.isArray(testData)
      ? (testData as { webhookId?: unknown }).webhookId
      : undefined;
  return typeof id === 'string' && UUID.test(id) ? id : undefined;
}

/** The test endpoint's answer as it came, and what it says became of the delivery (decided here for every face). */
export interface TestWebhookSent {
  response: unknown;
  outcome: TestWebhookOutcome;
}

export async function sendTestWebhook(
  testWebhookUrl: string,
  request: TestWebhookRequest,
  opts: AuthorizedCallOptions & { timeoutMs?: number },
): Promise<TestWebhookSent> {
  const res = await authorizedRequest(
    {
      method: 'POST',
      url: joinUrl(testWebhookUrl, TEST_WEBHOOK_PATH),
      json: request.json,
      headers: request.headers,
      timeoutMs: opts.timeoutMs,
    },
    { operation: 'test-webhook' },
    opts,
  );
  return { response: res.json, outcome: testWebhookOutcome(res.json, request.json.testData) };
}
