// Service paths (spec: Endpoints, Versioning). Path parameters are always percent-encoded.

export const SIGN_IN_PATH = '/user-management-services-ws/oauth2/002/signInWithPassword';
export const REFRESH_PATH = '/user-management-services-ws/oauth2/002/refreshIdToken';
export const TEST_WEBHOOK_PATH = '/test-webhook';
export const WORKFLOW_ROOT = '/workflow-services-ws/resources/v1';

/** Percent-encodes one path segment: '/', spaces, '?', '#' and '%' can never change the route. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value);
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

export function startWorkflowUrl(baseUrl: string, sessionId: string): string {
  return joinUrl(baseUrl, `${WORKFLOW_ROOT}/sessions/${encodeSegment(sessionId)}/workflows`);
}

export function workflowUrl(baseUrl: string, workflowId: string): string {
  return joinUrl(baseUrl, `${WORKFLOW_ROOT}/workflows/${encodeSegment(workflowId)}`);
}
