import { isLoopbackHost } from './loopback';

/**
 * The hint for an address written without its scheme: "api.example.com" is not a URL at all, and "localhost:8080"
 * parses as the scheme "localhost:", so both would otherwise get a message that does not say what is wrong.
 * Loopback addresses are named with http (a local sandbox), every other with https.
 */
export function missingSchemeHint(value: string): string {
  const v = value.trim();
  const address = /^(\[[0-9a-f:]+\]|[\w.-]+)(:\d{1,5})?(\/\S*)?$/i.exec(v);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || !address) return '';
  return ` (it lacks its scheme: write ${isLoopbackHost(address[1]!) ? 'http' : 'https'}://${v})`;
}
