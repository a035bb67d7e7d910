// The billed start, once for every face: whether a workflow was started, was surely not, or may have been. The
// request layer says when the start was handed to the socket (its `wire`), so a stop or a lost answer is judged by
// what happened to this request, not by guessing from an error code. Faces only render the outcome.
import { TransportError, type RequestWire } from '../http/request';
import { OutcomeUnknown, UnexpectedResponse } from '../http/serviceErrors';
import type { StartRequest, StartResult } from './WorkflowClient';

/** The workflow was started (202): the service's answer. */
interface Started<T> {
  kind: 'started';
  correlationId: string;
  result: T;
}

/** Nothing reached the service: stopped before the start was handed to the socket. Nothing was billed. */
interface NotSent {
  kind: 'not-sent';
  correlationId: string;
}

/** Why a billed workflow may exist although no answer says so. */
type UnknownCause =
  /** The user stopped (Ctrl-C, Cancel) after the start was sent and before its answer came. */
  | 'stopped-after-send'
  /** The answer was lost after the start was sent: a timeout, a cut connection. */
  | 'answer-lost'
  /** The service answered 5xx, or 2xx without a workflow: it may have started one all the same. */
  | 'service-error';

export interface StartOutcomeUnknown {
  kind: 'outcome-unknown';
  correlationId: string;
  cause: UnknownCause;
  /** What happened, in the service's or the transport's words (never a credential). */
  detail: string;
  /** The service's or the transport's error, when one said it (its status, instance, code). */
  error?: Error;
}

export type BilledStartOutcome<T = StartResult> = Started<T> | NotSent | StartOutcomeUnknown;

/** What sends the start: the workflow client, or a face's wrapper that also records the workflow. */
export type SendStart<T> = (req: StartRequest, options: { signal: AbortSignal; wire: RequestWire }) => Promise<T>;

/**
 * Sends one billed start with a correlationId fixed beforehand (so any unknown can be resolved with Find Workflows).
 * `stop` ends the wait at once: before the start was handed to the socket it is NotSent (and the request is
 * aborted); after, OutcomeUnknown. A 4xx answer (refused, or retried after a fresh token or a 429) started nothing,
 * so a stop during the retry's wait is NotSent again. Refusals the service gives (400, 404, 409, ...) are thrown as
 * its typed errors: nothing was started.
 */
export async function startBilledWorkflow<T>(
  send: SendStart<T>,
  req: StartRequest & { correlationId: string },
  stop?: AbortSignal,
): Promise<BilledStartOutcome<T>> {
  const { correlationId } = req;
  let onWire = false;
  const wire: RequestWire = {
    written: () => (onWire = true),
    answered: (status) => {
      if (status >= 400 && status < 500) onWire = false;
    },
  };
  const abort = new AbortController();
  const notSent = (): NotSent => ({ kind: 'not-sent', correlationId });
  const unknown = (cause: UnknownCause, detail: string, error?: Error): StartOutcomeUnknown => ({
    kind: 'outcome-unknown',
    correlationId,
    cause,
    detail,
    ...(error ? { error } : {}),
  });
  let onStop: (() => void) | undefined;
  const stopped = new Promise<BilledStartOutcome<T>>((resolve) => {
    onStop = () => {
      resolve(
        onWire ? unknown('stopped-after-send', 'stopped after the start was sent, before its answer came') : notSent(),
      );
      abort.abort();
    };
    if (stop?.aborted) onStop();
    else stop?.addEventListener('abort', onStop, { once: true });
  });
  const sent = send(req, { signal: abort.signal, wire }).then(
    (result): BilledStartOutcome<T> => ({ kind: 'started', correlationId, result }),
    (err: unknown): BilledStartOutcome<T> => {
      if (err instanceof OutcomeUnknown) return unknown('service-error', err.message, err);
      if (err instanceof UnexpectedResponse && err.billed === 'possibly')
        return unknown('service-error', err.message, err);
      if (err instanceof TransportError) {
        if (err.reason === 'aborted') return onWire ? unknown('stopped-after-send', err.message, err) : notSent();
        if (err.mayHaveBeenSent) return unknown('answer-lost', err.message, err);
      }
      throw err;
    },
  );
  // Once stopped, what the request does next is no longer anyone's answer.
  if (stop) sent.catch(() => undefined);
  try {
    return await Promise.race([sent, stopped]);
  } finally {
    if (onStop) stop?.removeEventListener('abort', onStop);
  }
}
