// Why an address is not an http(s) URL, in one shape for every place one is given: the CLI's flags and variables,
// the extension's settings. Parsed, not matched: `http://` (no host) and `https://[bad` are refused where they are
// given rather than failing each request later, and `HTTP://` is the same scheme as `http://`. An address with a
// user name or password in it is refused here too, so every place that takes one refuses it (addressUserInfo.ts).
import { addressWithoutUserInfo, userInfoProblem } from './addressUserInfo';
import { missingSchemeHint } from './schemeHint';

/** The end of a sentence that names the address ("is not a URL: x (it lacks its scheme: write https://x)"), or
 * undefined when `value` is an http(s) URL without user info. `what` says what it must be, when that is more than
 * "an http(s) URL". The address is never repeated with what may be a password in it. */
export function httpUrlProblem(value: string, what = 'an http(s) URL'): string | undefined {
  const shown = addressWithoutUserInfo(value);
  // A hint rewrites the address itself: none is given for one that had to be cut.
  const hint = shown === value ? missingSchemeHint(value) : '';
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return `is not a URL: ${shown}${hint}`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `must be ${what}${hint}`;
  return userInfoProblem(u);
}
