// A 404 without a problem document: the address answered, but nothing there serves the service's path (spec: Errors,
// "404 (infrastructure)"). What to change depends on the base URL the request was built from: the toolkit adds every
// service path itself (/user-management-services-ws/…, /workflow-services-ws/…, /test-webhook), so a base URL that
// already carries one of them doubles it, and one that carries none is not the service.
import { english, said, type Said, type SaidValue } from '../presentation/said';
import { REFRESH_PATH, SIGN_IN_PATH, TEST_WEBHOOK_PATH, WORKFLOW_ROOT } from './paths';

export type PathOperation = 'start' | 'read' | 'reconfirm' | 'sign-in' | 'refresh' | 'test-webhook';

/** How a setting is named where the user meets the message: the CLI's variables, or the extension's words. */
export interface BaseUrlNames {
  baseUrl: SaidValue;
  testWebhookUrl: SaidValue;
}

const SETTING_NAMES: BaseUrlNames = {
  baseUrl: said("the environment's base URL"),
  testWebhookUrl: said("the environment's test webhook URL"),
};

/** The service paths the toolkit appends, longest first, each with what it is. */
const SERVICE_PATHS: [string, Said][] = [
  [SIGN_IN_PATH, said('sign-in')],
  [REFRESH_PATH, said('token refresh')],
  [WORKFLOW_ROOT, said('workflow API')],
  [TEST_WEBHOOK_PATH, said('webhook test endpoint')],
];

/** The message for a 404 without a problem document on `url`, a request of `operation`, as core's Said. */
export function pathNotServedSaid(
  operation: PathOperation,
  url: string | undefined,
  names: BaseUrlNames = SETTING_NAMES,
): Said {
  const setting = operation === 'test-webhook' ? names.testWebhookUrl : names.baseUrl;
  let parsed: URL | undefined;
  try {
    parsed = url ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed)
    return said(
      "The path is not served (404 without a problem document): the address answered, but it does not serve the Workflow Service's path there. Check {0}.",
      setting,
    );
  const path = parsed.pathname;
  const known = SERVICE_PATHS.find(([p]) => path.includes(p));
  const what = known?.[1] ?? said('path');
  const basePath = known ? path.slice(0, path.indexOf(known[0])) : '';
  const at = `${parsed.origin}${path}`;
  const root = (p: string) => p.split('/').slice(0, 2).join('/');
  // A base URL with a path of its own: the path the toolkit adds came after it. Most often it is one of the
  // service's own roots (/workflow-services-ws), copied from the spec's URLs.
  if (basePath && basePath !== '/')
    return said(
      "{0} answered 404 without a problem document: the Workflow Service's {1} is not there. {2} ends in the path {3}, and the toolkit adds each service path itself ({4}/…, {5}/…): set {2} to {6} alone.",
      at,
      what,
      setting,
      basePath,
      root(SIGN_IN_PATH),
      root(WORKFLOW_ROOT),
      parsed.origin,
    );
  if (operation === 'start' || operation === 'read' || operation === 'reconfirm')
    return said(
      "{0} answered 404 without a problem document: the Workflow Service's {1} is not there, though the sign-in worked at this address (the toolkit adds the context root {2} itself). Check {3} against the service's documentation: the workflows may be served at another address.",
      at,
      what,
      root(WORKFLOW_ROOT),
      setting,
    );
  return said(
    "{0} answered 404 without a problem document: the Workflow Service's {1} is not there, so this address is not the Workflow Service (another program listens there, such as a webhook receiver). Set {2} to the service's own address (for a local sandbox, the baseUrl its first line prints).",
    at,
    what,
    setting,
  );
}

/** The same message in English, as the CLI prints it (with its variables' names). */
export function pathNotServedAdvice(operation: PathOperation, url: string | undefined, names?: BaseUrlNames): string {
  return english(pathNotServedSaid(operation, url, names));
}
