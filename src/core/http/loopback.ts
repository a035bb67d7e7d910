// The one loopback check: this machine's own addresses. Plain http is allowed to them (credentials to a local
// sandbox, webhooks to a local receiver), loopback servers answer only their names, and the CLI listens only there.

/** True for localhost, 127.0.0.0/8 (dotted quad) and ::1, as a URL's hostname, a Host header's name or a flag
 * gives them: IPv6 brackets optional, any case. Nothing else ("localhost.", "127.1") is taken for this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  const quad = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return !!quad && quad.slice(1).every((n) => Number(n) <= 255);
}

/**
 * Whether the webhook test endpoint at this address runs on this machine (a local sandbox, the editor's own or a
 * `wfs sandbox`), so it reaches the receiver's loopback address: plain http on a loopback host. The CLI, the
 * editor's Send Test Webhook and fixture sends, and the contract check all ask this, so they draw one line. Anything
 * else (https, another host, not a URL) is taken for a service elsewhere, which needs a public https address.
 */
export function testEndpointIsLocal(testWebhookUrl: string): boolean {
  if (!URL.canParse(testWebhookUrl)) return false;
  const url = new URL(testWebhookUrl);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}
