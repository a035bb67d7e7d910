// Spec-valid webhook events for tests (spec: Webhook event).
import { randomBytes, randomUUID } from 'node:crypto';
import { triggeredAtTimestamp } from '../core/time';
import type { WebhookEvent } from '../core/schemas';

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
    ...fields,
    // The data given is laid over the topic's own, so `{ data: { runId } }` keeps the rest of a realistic event.
    data: { ...topicData(topic), ...fields.data },
  };
}

/** A workflow event's status, by its name: what the sandbox (and the service's workflow) says at that moment. */
const WORKFLOW_STATUS: Record<string, string> = {
  started: 'processing',
  completed: 'complete',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The data the sandbox sends for a topic: a workflow event carries its workflow's ids, session, status and
 * product (a handler tested with it reads what it will read in production); other topics' data is not shown by
 * the spec, so it is empty. */
function topicData(topic: string): Record<string, unknown> {
  const [group, name] = topic.split('/');
  const status = group === 'workflow' ? WORKFLOW_STATUS[name!] : undefined;
  if (status === undefined) return {};
  return {
    workflowId: `wf_${randomBytes(10).toString('hex')}`,
    runId: `wfrun_${randomBytes(10).toString('hex')}`,
    sessionId: 'sess-demo-staged',
    status,
    productType: 'Appraisal',
    productName: 'Standard',
  };
}
