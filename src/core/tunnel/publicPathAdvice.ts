// What the service does with the deliveries that failed while the public path was down, as far as the spec says
// (Events 3 and 4), and what the user can do about them. The same words in every face that reports the path.
import { said, type Said } from '../presentation/said';

/** The spec's retry rule, and what it leaves unsaid. */
export const MISSED_DELIVERIES =
  "The spec says the service resends a delivery answered with a status of 500 or more, with exponential backoff (its schedule and retry count are not stated). It says nothing of deliveries that got no answer, or a 4xx such as a tunnel's own error page: count those as lost. A copy sent again carries the same webhookId.";

/** What the user can do while, and after, the path is down. */
export const WHAT_TO_DO =
  'Resend test webhooks (wfs test-webhook, or Send Test Webhook… in the editor), and read the status of workflows started meanwhile (wfs status --workflow ID, or Refresh Workflow) rather than wait for their events.';

/** The public address moved (a tunnel reconnected under another name): the old one reaches nothing now. Core's
 * Said, worded by the extension in the user's language. */
export function addressChangedSaid(from: string, to: string): Said {
  return said(
    'the public address changed from {0} to {1}: deliveries sent to the old one reach nothing now. Register {1} with the service wherever {0} was registered (this toolkit registers only loopback addresses, with the sandbox); ask for a fixed name (--subdomain, wfs.receiver.tunnelSubdomain) to keep one.',
    from,
    to,
  );
}
