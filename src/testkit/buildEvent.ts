// Spec-valid webhook events for tests (spec: Webhook event).
import { randomUUID } from 'node:crypto';
import { triggeredAtTimestamp } from '../core/time/timestamps';
import type { WebhookEvent } from './testkit';

export function buildEvent(
  topic: string,
  fields: Partial<WebhookEvent> = {},
  now: () => number = Date.now,
): WebhookEvent {
  if (typeof topic !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(topic))
    throw new TypeError(`buildEvent: topic "${topic}" is not <group>/<name>`);
  // Sub-millisecond digits from the high-resolution clock, so events built in the same millisecond still differ.
  const subMs = Math.floor((performance.now() % 1) * 10_000);
  return {
    webhookId: randomUUID(),
    topic,
    subTopic: `status:${topic}`,
    tenantId: 'tenant-test',
    triggeredAt: triggeredAtTimestamp(now(), subMs),
    actorId: 'act_test',
    data: {},
    ...fields,
  };
}
