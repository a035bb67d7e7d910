// The error line of a request that got no answer. One shape for every command: the JSON format is a promise.
import type { TransportError } from '../core/http';

export function transportErrorEvent(err: TransportError, message: string): Record<string, unknown> {
  return { event: 'error', kind: 'transport', reason: err.reason, ...(err.code ? { code: err.code } : {}), message };
}
