// The front door of core/schemas: the service's objects as types, published by the test kit.
export {
  type Message,
  type MessagesEnvelope,
  type ProblemDocument,
  type TokenResponse,
  type WebhookEvent,
  type WebhookJwtClaims,
} from './serviceTypes';
