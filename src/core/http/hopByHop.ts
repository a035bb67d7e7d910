// Headers that belong to one connection, not to the message (RFC 9110 §7.6.1), plus those a new request computes
// itself. Whatever passes a delivery on (forwarding, replay) drops them, and any header the Connection header names.
const CONNECTION_SCOPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const RECOMPUTED = new Set(['host', 'content-length']);

/** The headers worth sending on, lower-cased, multi-valued ones joined. */
export function forwardableHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const named = new Set(
    String(headers.connection ?? headers.Connection ?? '')
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(headers)) {
    const k = key.toLowerCase();
    if (v === undefined || CONNECTION_SCOPED.has(k) || RECOMPUTED.has(k) || named.has(k)) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
