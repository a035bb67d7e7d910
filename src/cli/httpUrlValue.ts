// Every address the CLI is given (WFS_* variables, --jwks-url, --forward-to, --public-url, --tunnel-host,
// --trust-sandbox, --target, --sandbox-url, --processed-url, a trust file's jwksUrl) is checked at start.
import { httpUrlProblem } from '../core/http';
import { UsageError } from './flags';

/** `value` when it is an http(s) URL; otherwise a UsageError naming `name` (a flag, a variable, a trust file's
 * entry) and, for an address without its scheme, the address written with one. */
export function httpUrlValue(name: string, value: string, what?: string): string {
  const problem = httpUrlProblem(value, what);
  if (problem) throw new UsageError(`${name} ${problem}`);
  return value;
}
