// Why an address is not an http(s) URL, in one shape for every place one is given: the CLI's flags and variables,
// the extension's settings. Parsed, not matched: `http://` (no host) and `https://[bad` are refused where they are
// given rather than failing each request later, and `HTTP://` is the same scheme as `http://`.
import { missingSchemeHint } from './schemeHint';

/** The end of a sentence that names the address ("is not a URL: x (it lacks its scheme: write https://x)"), or
 * undefined when `value` is an http(s) URL. `what` says what it must be, when that is more than "an http(s) URL". */
export function httpUrlProblem(value: string, what = 'an http(s) URL'): string | undefined {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return `is not a URL: ${value}${missingSchemeHint(value)}`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `must be ${what}${missingSchemeHint(value)}`;
  return undefined;
}
