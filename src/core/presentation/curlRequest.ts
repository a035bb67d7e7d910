// What a copied delivery asks curl to send, checked once for every shell: the URL, each header as one `-H` argument
// (curl's own reading of it, not ours), the token's source, and the body. Whatever a delivery holds is data: what curl
// would read as more than data, or what no HTTP request can carry, is refused here with the reason, never altered.

export class ShellCommandError extends Error {}

export interface ShellRequest {
  url: string;
  /** Headers to send besides Authorization (Content-Type among them). Values are byte strings, one character per
   * byte, as node:http gives them: what arrived is what is sent. Hop-by-hop ones are dropped here. */
  headers: [string, string][];
  /** The body's bytes, or a file of the user's own that curl reads when the command runs (`wfs sign --body FILE`). */
  body: Buffer | { path: string };
  /** The environment variable holding the token (default WFS_WEBHOOK_TOKEN). */
  tokenVariable?: string;
  /** The token itself, written into the command instead (`wfs sign`, which just made it). */
  token?: string;
}

/** A request whose every part has been checked: what each shell's command hands to curl. */
export interface CurlRequest {
  url: string;
  /** Each header as curl's `-H` argument, one character per byte. */
  headerLines: string[];
  /** The Authorization token: from this environment variable, or this value. */
  token: { variable: string } | { value: string };
  body: Buffer | { path: string };
}

const TOKEN_VARIABLE = 'WFS_WEBHOOK_TOKEN';

/** Headers that belonged to the old connection or carry the token: never copied. */
const SKIPPED = new Set([
  'authorization',
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'accept-encoding',
]);

/** RFC 9110 token: a header name. It cannot start with `@` (curl's "read headers from this file") nor hold `:` or
 * `;`, the two characters curl's `-H` splits on. */
const TOKEN_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 field value bytes: HTAB, SP, VCHAR, obs-text. No CR, LF or NUL (a second header line, or a cut one), and
 * no other control byte (0x1a ends a file that Windows reads as text, such as curl's config file). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const PRINTABLE_URL = /^[\x21-\x7e]+$/;
const HTTP_URL = /^https?:\/\//i;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** RFC 6750 b64token: what a Bearer token may hold, and nothing any shell here reads specially inside quotes. */
const BEARER = /^[A-Za-z0-9._~+/-]+=*$/;

/** "a line feed (0x0a)": the first character of `s` that `allowed` refuses, for a message. */
export function firstRefused(s: string, allowed: RegExp): string {
  for (const c of s) {
    if (allowed.test(c)) continue;
    const code = c.codePointAt(0)!;
    const names: Record<number, string> = {
      0: 'NUL',
      9: 'a tab',
      10: 'a line feed',
      13: 'a carriage return',
      32: 'a space',
    };
    const hex = code.toString(16).padStart(2, '0');
    return code > 0xff
      ? `U+${hex.toUpperCase().padStart(4, '0')} (${c})`
      : `${names[code] ?? 'a control character'} (0x${hex})`;
  }
  return 'nothing';
}

/** The request as curl must receive it, or a ShellCommandError that says what cannot be carried and why. */
export function curlRequest(req: ShellRequest): CurlRequest {
  if (!HTTP_URL.test(req.url))
    throw new ShellCommandError(`The address ${JSON.stringify(req.url)} is not an http(s) URL.`);
  if (!PRINTABLE_URL.test(req.url))
    throw new ShellCommandError(
      `The address holds ${firstRefused(req.url, /[\x21-\x7e]/)}: percent-encode it (${JSON.stringify(req.url)}).`,
    );
  const headerLines: string[] = [];
  for (const [name, value] of req.headers) {
    if (SKIPPED.has(name.toLowerCase())) continue;
    if (!TOKEN_NAME.test(name))
      throw new ShellCommandError(
        `The header name ${JSON.stringify(name)} is not an HTTP header name (it holds ${firstRefused(name, /[!#$%&'*+.^_`|~0-9A-Za-z-]/)}), so no command can send it as one. Export the delivery instead.`,
      );
    if (!FIELD_VALUE.test(value))
      throw new ShellCommandError(
        `The header ${name} holds ${firstRefused(value, /[\t\x20-\x7e\x80-\xff]/)}, which no HTTP header value can carry. Export the delivery instead.`,
      );
    // `Name:` with nothing after the colon tells curl to remove the header; `Name;` is its way to send it empty.
    headerLines.push(value.trim() === '' ? `${name};` : `${name}: ${value}`);
  }
  let token: CurlRequest['token'];
  if (req.token !== undefined) {
    if (!BEARER.test(req.token)) throw new ShellCommandError('The token is not a Bearer token (RFC 6750).');
    token = { value: req.token };
  } else {
    const variable = req.tokenVariable ?? TOKEN_VARIABLE;
    if (!VARIABLE.test(variable))
      throw new ShellCommandError(`${JSON.stringify(variable)} is not an environment variable's name.`);
    token = { variable };
  }
  return { url: req.url, headerLines, token, body: req.body };
}
