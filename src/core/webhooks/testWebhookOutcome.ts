// What became of a test webhook, read from the test endpoint's answer once, here, for every face: the sandbox puts
// its first attempt's "receiverStatus" (what the address answered) or "error" (nothing answered) there, and
// "retryScheduled" when it will try again. The real service's answer is not documented: one without either says
// nothing of the delivery.
import { english, said, type Said } from '../presentation/said';

/** Why, in one word: what the receiver's answer (or its absence) says. */
type TestWebhookCause =
  /** The address answered 2xx. */
  | 'delivered'
  /** The endpoint took the request; its answer names neither a status nor an error. */
  | 'not-reported'
  /** Nothing answered at the address (refused, unknown host, timeout). */
  | 'not-reached'
  /** 401 or 403: the receiver did not take the delivery as verified. */
  | 'refused'
  /** 413: the body is over the receiver's size limit. */
  | 'too-large'
  /** 404 or 405: nothing at that path takes webhooks. */
  | 'no-webhooks-here'
  /** 421: the receiver does not answer that host name. */
  | 'wrong-host'
  /** 502 or 504: the receiver (or a proxy) took it, but the app behind did not answer. */
  | 'app-not-answering'
  /** 503: the receiver says it cannot take deliveries now. */
  | 'unavailable'
  /** Any other answer outside 2xx. */
  | 'answered-error';

export interface TestWebhookOutcome {
  cause: TestWebhookCause;
  /** True when the endpoint says the delivery failed: the faces say so as a failure (the CLI exits 7). */
  failed: boolean;
  /** What the address answered, when it answered. */
  receiverStatus?: number;
  /** The endpoint's words when nothing answered (outside text: shown through terminalSafe on a terminal). */
  error?: string;
  /** The endpoint will try again. */
  retryScheduled: boolean;
  /** The testData's size as delivered, in bytes. */
  bodyBytes: number;
  /** One clause, the same in every face: "your receiver refused it: it answered 403, …". */
  summary: string;
  /** The summary as core says it, for a face that words it in its own language. */
  summarySaid: Said;
}

type Answer = { error?: unknown; receiverStatus?: unknown; retryScheduled?: unknown };

/** The outcome of a test webhook whose request carried `testData` and whose endpoint answered `response`. */
export function testWebhookOutcome(response: unknown, testData: unknown): TestWebhookOutcome {
  const r: Answer = response && typeof response === 'object' ? (response as Answer) : {};
  const retryScheduled = r.retryScheduled === true;
  const bodyBytes = Buffer.byteLength(JSON.stringify(testData ?? null) ?? 'null');
  const status = typeof r.receiverStatus === 'number' ? r.receiverStatus : undefined;
  const error = typeof r.error === 'string' && r.error ? r.error : undefined;
  const base = { retryScheduled, bodyBytes };
  const withRetry = (words: Said): Said => (retryScheduled ? said('{0}; the service will try again', words) : words);
  if (error !== undefined && status === undefined)
    return {
      ...base,
      cause: 'not-reached',
      failed: true,
      error,
      ...summed(withRetry(said('not delivered: the service could not reach the address: {0}', error))),
    };
  if (status === undefined)
    return {
      ...base,
      cause: 'not-reported',
      failed: false,
      ...summed(said('the service took it (its answer does not say what the address answered)')),
    };
  if (status >= 200 && status <= 299 && error === undefined)
    return {
      ...base,
      cause: 'delivered',
      failed: false,
      receiverStatus: status,
      ...summed(said('delivered: your receiver answered {0}', status)),
    };
  const [cause, words] = answered(status);
  return {
    ...base,
    cause,
    failed: true,
    receiverStatus: status,
    ...(error ? { error } : {}),
    ...summed(withRetry(words)),
  };
}

/** The summary in English (what the CLI prints) beside the Said it comes from. */
function summed(summarySaid: Said): { summary: string; summarySaid: Said } {
  return { summary: english(summarySaid), summarySaid };
}

/** An answer outside 2xx: its cause and the words that name it, the status among them. */
function answered(status: number): [TestWebhookCause, Said] {
  switch (status) {
    case 401:
    case 403:
      return [
        'refused',
        said('your receiver refused it: it answered {0}, so it did not take the delivery as verified', status),
      ];
    case 413:
      return ['too-large', said('your receiver refused it: it answered 413, the body being over its size limit')];
    case 404:
    case 405:
      return ['no-webhooks-here', said('nothing at the address takes webhooks: it answered {0}', status)];
    case 421:
      return ['wrong-host', said("the receiver does not answer the address's host name: it answered 421")];
    case 502:
      return [
        'app-not-answering',
        said('your receiver answered 502: it (or a proxy) took the delivery, but what is behind it did not answer'),
      ];
    case 504:
      return [
        'app-not-answering',
        said(
          'your receiver answered 504: it (or a proxy) took the delivery, but what is behind it did not answer in time',
        ),
      ];
    case 503:
      return ['unavailable', said('your receiver answered 503: it cannot take deliveries now')];
    default:
      return ['answered-error', said('your receiver answered {0}, so the delivery failed', status)];
  }
}
