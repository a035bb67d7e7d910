// Why an address is not an http(s) URL, in one shape for every place one is given: the CLI's flags and variables,
// the extension's settings. Parsed, not matched: `http://` (no host) and `https://[bad` are refused where they are
// given rather than failing each request later, and `HTTP://` is the same scheme as `http://`. An address with a
// user name or password in it is refused here too, so every place that takes one refuses it (addressUserInfo.ts).
import { addressWithoutUserInfo, userInfoProblemSaid } from './addressUserInfo';
import { schemeHintSaid } from './schemeHint';
import { english, said, type Said, type SaidValue } from '../presentation/said';

/** The end of a sentence that names the address ("is not a URL: x (it lacks its scheme: write https://x)"), or
 * undefined when `value` is an http(s) URL without user info. `what` says what it must be, when that is more than
 * "an http(s) URL". The address is never repeated with what may be a password in it. */
export function httpUrlProblem(value: string, what?: string): string | undefined {
  const problem = httpUrlProblemSaid(value, what);
  return problem && english(problem);
}

/** The same as core says it, for a face that words it in its own language. */
export function httpUrlProblemSaid(value: string, what?: SaidValue): Said | undefined {
  const shown = addressWithoutUserInfo(value);
  // A hint rewrites the address itself: none is given for one that had to be cut.
  const hint = shown === value ? schemeHintSaid(value) : undefined;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return hint ? said('is not a URL: {0} {1}', shown, hint) : said('is not a URL: {0}', shown);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    if (what === undefined) return hint ? said('must be an http(s) URL {0}', hint) : said('must be an http(s) URL');
    return hint ? said('must be {0} {1}', what, hint) : said('must be {0}', what);
  }
  return userInfoProblemSaid(u);
}
