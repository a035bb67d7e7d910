// What a replay's answer means. An app that dedupes on webhookId, as the spec asks, answers a replay under an id it
// already acknowledged as a duplicate and skips its handler: the history's forwards, and the apps' answers to earlier
// replays (replayLog.ts), say whether an app did, so each face (the panel, the assistant) says so and offers a fresh
// id.
import { forwardsOf, type DeliveryRecord } from './deliveryRecord';
import { answerBodyFields } from './forwardAnswer';
import { replayAcknowledged, type ReplayAnswer } from './replayLog';

/** Whether an app already answered 2xx for this webhookId: to a forward of a delivery, as the history recorded it, or
 * to a replay sent under it (`replays`: a ReplayLog's answers). */
export function appAcknowledged(
  records: Iterable<DeliveryRecord>,
  webhookId: string,
  replays: Iterable<ReplayAnswer> = [],
): boolean {
  if (replayAcknowledged(replays, webhookId)) return true;
  for (const r of records)
    if (
      r.webhookId === webhookId &&
      forwardsOf(r).some((f) => f.status !== undefined && f.status >= 200 && f.status < 300)
    )
      return true;
  return false;
}

/** Characters of an app's answer said with a replay's result: enough for `{"ok":true,"duplicate":true}` or an error
 * line, short enough to be read aloud. */
const EXCERPT_CHARS = 300;

/** The start of an app's answer body as text, without the credentials it must not echo (the token sent, secrets
 * held); undefined when the body is empty, not text, or withheld. */
export function answerExcerpt(body: Buffer, credentials: readonly string[]): string | undefined {
  if (body.length === 0) return undefined;
  const fields = answerBodyFields(body, false, credentials);
  if (!('body' in fields)) return undefined;
  const text = fields.body.trim();
  if (!text) return undefined;
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}
