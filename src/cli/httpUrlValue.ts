// One check for every address the CLI is given (WFS_* variables, --jwks-url, --forward-to, --public-url,
// --trust-sandbox, a trust file's jwksUrl): parsed as a URL, so `http://` with no host is refused at start rather
// than failing each delivery later, and `HTTP://` is accepted as the same scheme.
import { missingSchemeHint } from '../core/http/schemeHint';
import { UsageError } from './flags';

/** `value` when it is an http(s) URL with a host; otherwise a UsageError naming `name` (a flag, a variable, a trust
 * file's entry) and, for an address without its scheme, the address written with one. */
export function httpUrlValue(name: string, value: string, what = 'an http(s) URL'): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`${name} is not a URL: ${value}${missingSchemeHint(value)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${name} must be ${what}${missingSchemeHint(value)}`);
  return value;
}
