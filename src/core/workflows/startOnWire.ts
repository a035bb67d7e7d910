// Whether a billed start may have reached the service, seen from undici's diagnostics channels: the request's head
// written to a socket, and its answer. A stop before that point started nothing; a stop after it is "outcome
// unknown", like a lost answer: `wfs start` stopped by a signal, a start cancelled in the extension. The channels are
// process-wide, so only requests that match are counted.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

interface ChannelRequest {
  method?: string;
  origin?: string | URL;
  path?: string;
}

export interface StartOnWire {
  /** True from the moment a matching request's head was written until an answer that started nothing (4xx). */
  readonly mayHaveStarted: boolean;
  dispose(): void;
}

/** Watches POSTs to `url` (origin and path, query ignored). */
export function watchStartOnWire(url: string): StartOnWire {
  const target = new URL(url);
  const matches = (r: ChannelRequest) =>
    r.method === 'POST' &&
    String(r.origin ?? '').replace(/\/+$/, '') === target.origin &&
    (r.path ?? '').split('?')[0] === target.pathname;
  const sent = new Set<ChannelRequest>();
  let ambiguous = false;
  const onSend = (m: unknown) => {
    const r = (m as { request: ChannelRequest }).request;
    if (matches(r)) sent.add(r);
  };
  const onHeaders = (m: unknown) => {
    const { request, response } = m as { request: ChannelRequest; response: { statusCode: number } };
    if (!sent.delete(request)) return;
    // A 4xx (401/403 retried with a new token, 429 backed off, 400/404/409 refused) started nothing; a 2xx or a
    // 5xx may have.
    if (response.statusCode < 400 || response.statusCode >= 500) ambiguous = true;
  };
  const onError = (m: unknown) => {
    const r = (m as { request: ChannelRequest }).request;
    if (sent.delete(r)) ambiguous = true;
  };
  subscribe('undici:client:sendHeaders', onSend);
  subscribe('undici:request:headers', onHeaders);
  subscribe('undici:request:error', onError);
  return {
    get mayHaveStarted() {
      return ambiguous || sent.size > 0;
    },
    dispose() {
      unsubscribe('undici:client:sendHeaders', onSend);
      unsubscribe('undici:request:headers', onHeaders);
      unsubscribe('undici:request:error', onError);
    },
  };
}
