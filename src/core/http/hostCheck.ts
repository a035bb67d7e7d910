// Loopback servers answer only their own names (docs/design.md): a DNS-rebinding page reaches 127.0.0.1 under
// a name of its own, and the Host header is what gives it away.
import { isLoopbackHost } from './loopback';

/** The host name of a Host header value, without port or IPv6 brackets, lower case; '' when absent. */
export function hostName(header: string | undefined): string {
  const h = (header ?? '').trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  const colon = h.lastIndexOf(':');
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

/** True when the Host header names a loopback address, localhost, or one of `extra` (host names, any port). */
export function isAllowedHost(header: string | undefined, extra: readonly string[] = []): boolean {
  const name = hostName(header);
  if (!name) return false;
  return isLoopbackHost(name) || extra.some((e) => hostName(e) === name);
}
