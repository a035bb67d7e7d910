// The address a receiver gives the senders it registers with (a sandbox sends it workflow events there). On loopback
// that is its own URL. Bound to every interface in a container, its URL here names loopback, which another container
// cannot reach: it is named by the first --allow-host name instead, the name the others reach it by.
import { isEveryInterface } from '../http/everyInterface';

/** `localUrl` with its host replaced by the first allowed name, when `host` is every interface and a name is given. */
export function addressForOthers(localUrl: string, host: string | undefined, allowedHosts?: readonly string[]): string {
  const name = allowedHosts?.[0];
  if (!host || !isEveryInterface(host) || !name) return localUrl;
  const url = new URL(localUrl);
  url.hostname = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
  return url.toString();
}
