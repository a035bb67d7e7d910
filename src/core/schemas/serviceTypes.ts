// The service's objects: the JSON Schemas beside this file (json/*.schema.json) describe each for any language and
// ship in the CLI's package; a unit test checks the sandbox's answers against them. Core's TypeScript types for the
// same objects live with their code (workflows/workflowTypes.ts); the webhook event's is here.

/** The JSON body of a webhook delivery. */
export interface WebhookEvent {
  /** UUID; the same event may arrive more than once: dedupe on it. */
  webhookId: string;
  /** <group>/<name> */
  topic: string;
  /** <kind>:<group>/<name> */
  subTopic: string;
  tenantId: string;
  /** UTC, exactly 7 fractional digits: keep the string; Date keeps 3. */
  triggeredAt: string;
  actorId: string;
  data: Record<string, unknown>;
}

export const SCHEMA_NAMES = [
  'webhook-event',
  'webhook-jwt-claims',
  'workflow',
  'token-response',
  'messages-envelope',
  'problem-document',
] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];
