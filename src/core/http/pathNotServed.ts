// A 404 without a problem document: the address answered, but nothing there serves the service's path (spec: Errors,
// "404 (infrastructure)"). What to change depends on the base URL the request was built from: the toolkit adds every
// service path itself (/user-management-services-ws/…, /workflow-services-ws/…, /test-webhook), so a base URL that
// already carries one of them doubles it, and one that carries none is not the service.
import { REFRESH_PATH, SIGN_IN_PATH, TEST_WEBHOOK_PATH, WORKFLOW_ROOT } from './paths';

export type PathOperation = 'start' | 'read' | 'reconfirm' | 'sign-in' | 'refresh' | 'test-webhook';

/** How a setting is named where the user meets the message: the CLI's variables, or the extension's words. */
export interface BaseUrlNames {
  baseUrl: string;
  testWebhookUrl: string;
}

const SETTING_NAMES: BaseUrlNames = {
  baseUrl: "the environment's base URL",
  testWebhookUrl: "the environment's test webhook URL",
};

/** The service paths the toolkit appends, longest first, each with what it is. */
const SERVICE_PATHS: [string, string][] = [
  [SIGN_IN_PATH, 'sign-in'],
  [REFRESH_PATH, 'token refresh'],
  [WORKFLOW_ROOT, 'workflow API'],
  [TEST_WEBHOOK_PATH, 'webhook test endpoint'],
];

/** The message for a 404 without a problem document on `url`, a request of `operation`. */
export function pathNotServedAdvice(
  operation: PathOperation,
  url: string | undefined,
  names: BaseUrlNames = SETTING_NAMES,
): string {
  const setting = operation === 'test-webhook' ? names.testWebhookUrl : names.baseUrl;
  let parsed: URL | undefined;
  try {
    parsed = url ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed)
    return `The path is not served (404 without a problem document): the address answered, but it does not serve the Workflow Service's path there. Check ${setting}.`;
  const path = parsed.pathname;
  const known = SERVICE_PATHS.find(([p]) => path.includes(p));
  const what = known?.[1] ?? 'path';
  const basePath = known ? path.slice(0, path.indexOf(known[0])) : '';
  const head = `${parsed.origin}${path} answered 404 without a problem document: the Workflow Service's ${what} is not there`;
  // A base URL with a path of its own: the path the toolkit adds came after it. Most often it is one of the
  // service's own roots (/workflow-services-ws), copied from the spec's URLs.
  if (basePath && basePath !== '/')
    return `${head}. ${setting} ends in the path ${basePath}, and the toolkit adds each service path itself (${SIGN_IN_PATH.split('/').slice(0, 2).join('/')}/…, ${WORKFLOW_ROOT.split('/').slice(0, 2).join('/')}/…): set ${setting} to ${parsed.origin} alone.`;
  if (operation === 'start' || operation === 'read' || operation === 'reconfirm')
    return `${head}, though the sign-in worked at this address (the toolkit adds the context root ${WORKFLOW_ROOT.split('/').slice(0, 2).join('/')} itself). Check ${setting} against the service's documentation: the workflows may be served at another address.`;
  return `${head}, so this address is not the Workflow Service (another program listens there, such as a webhook receiver). Set ${setting} to the service's own address (for a local sandbox, the baseUrl its first line prints).`;
}
