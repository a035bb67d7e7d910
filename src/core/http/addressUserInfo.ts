// A user name or password written inside an address (`https://alice:pw@host`) is refused wherever an address is
// configured: it would travel with every request, land in logs and history, and reach a model in every answer that
// names the address. The refusal never repeats it, neither the password nor the user: the address is shown with its
// user info replaced by `…`.
import { english, said, type Said } from '../presentation/said';

/** `value` with anything that may be user info replaced by `…`, for a message: `https://…@host/path`. An address
 * that does not parse is cut the same way at its last `@` before the host, so a password is not shown either. */
export function addressWithoutUserInfo(value: string): string {
  let u: URL | undefined;
  try {
    u = new URL(value);
  } catch {
    u = undefined;
  }
  if (u && (u.protocol === 'http:' || u.protocol === 'https:')) {
    if (!u.username && !u.password) return value;
    return `${u.protocol}//…@${u.host}${u.pathname}${u.search ? '?…' : ''}`;
  }
  // Not an http(s) URL: a password may hold `/`, `?` or `#`, so everything up to the last `@` goes.
  const at = value.lastIndexOf('@');
  if (at < 0) return value;
  const scheme = /^\s*[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  return `${scheme}…@${value.slice(at + 1)}`;
}

/** The end of a sentence naming the address ("WFS_BASE_URL holds a user name or password (https://…@host): …"),
 * or undefined when `url` (already an http(s) URL) carries no user info. */
export function userInfoProblem(url: URL): string | undefined {
  const problem = userInfoProblemSaid(url);
  return problem && english(problem);
}

/** The same as core says it, for a face that words it; credentials are told where they go instead. */
export function userInfoProblemSaid(url: URL): Said | undefined {
  if (!url.username && !url.password) return undefined;
  return said(
    "holds a user name or password ({0}): an address never carries credentials: remove them. The service's user name and password go to sign-in (`wfs sign-in` and every `wfs` command read WFS_USERNAME and WFS_PASSWORD; the extension's Sign In keeps them in SecretStorage); an app's go in a forward rule's {1}",
    `${url.protocol}//…@${url.host}${url.pathname}`,
    '"headers"',
  );
}
