// The service's objects as TypeScript types (spec: Resources and their fields), published by the test kit. The JSON
// Schemas beside them (json/*.schema.json) say the same for any language and ship in the CLI's package; a unit test
// checks the sandbox's answers against the schemas. The Workflow itself is in workflows/workflowTypes.ts.
import type { Workflow, WorkflowLinks } from '../workflows/workflowTypes';

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

/** A webhook delivery token's claims (kid is in its header). */
export interface WebhookJwtClaims {
  iss: string;
  aud: string | string[];
  exp: number;
  iat?: number;
  jti?: string;
  /** Lower-case hex SHA-256 of the exact body bytes. */
  body_sha256: string;
}

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface Message {
  code: string;
  /** Human copy: never parsed. */
  text: string;
  /** RFC 3339 UTC; fractional seconds only when non-zero. */
  timestamp: string;
}

/** A JSON answer of the service: messages is an array whenever present, never null. */
export interface MessagesEnvelope {
  messages?: Message[];
  workflow?: Workflow;
  links?: WorkflowLinks;
}

export interface ProblemDocument {
  /** Absolute URI, or about:blank. */
  type: string;
  title: string;
  status: number;
  detail?: string;
  /** urn form: quote it to support. */
  instance?: string;
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
