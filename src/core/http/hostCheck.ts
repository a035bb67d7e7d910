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

/** Why a name given to answer (--allow-host NAME) cannot be one: a URL, a path, a port or an empty value would never
 * equal a Host header's name, so it is said at once. Undefined for a host name or an IP address. */
export function allowedHostProblem(name: string): string | undefined {
  const n = name.trim();
  if (!n) return 'is empty: give a host name, e.g. --allow-host app';
  if (n.includes('://') || n.includes('/'))
    return `${JSON.stringify(n.slice(0, 100))} is not a host name (a URL or a path?): give the name alone, e.g. --allow-host ${safeName(n)}`;
  const bare = n.replace(/^\[(.*)\]$/, '$1');
  if (/^[0-9a-f:.]+$/i.test(bare) && bare.includes(':')) return undefined; // an IPv6 address
  if (!/^[a-z0-9]([a-z0-9_-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9_-]*[a-z0-9])?)*$/i.test(n))
    return `${JSON.stringify(n.slice(0, 100))} is not a host name: letters, digits, hyphens and dots, without a port (e.g. --allow-host app)`;
  return undefined;
}

/** The host of what looks like a URL, for the example in the message. */
function safeName(n: string): string {
  try {
    const h = new URL(n).hostname;
    if (/^[a-z0-9.-]+$/i.test(h)) return h;
  } catch {
    // not a URL: a generic example
  }
  return 'app';
}
