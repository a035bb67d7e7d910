// "Is this base URL our sandbox?": a server is taken for a `wfs sandbox` on this machine, where nothing is billed,
// only when it proves that it holds the control secret the environment holds (WFS_SANDBOX_SECRET), without that
// secret being sent to it. The client sends a fresh nonce; the sandbox answers with an HMAC of the nonce and its own
// baseUrl under its secret. A server that only says it is a sandbox cannot make the proof, and one that relays the
// question to the user's real sandbox gets a proof bound to that sandbox's address, not its own.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../http/loopback';
import { joinUrl } from '../http/paths';
import { httpRequest, TransportError } from '../http/request';

/** The control route that answers the proof; it needs no secret (it never reveals it). */
const CLAIM_PATH = '/sandbox/claim';
export const MAX_NONCE_CHARS = 128;

/** The proof a sandbox holding `secret` gives for `nonce` at `baseUrl` (hex). The fixed prefix keeps the HMAC
 * useless for anything but this question. */
export function claimProof(secret: string, nonce: string, baseUrl: string): string {
  return createHmac('sha256', secret).update(`wfs-sandbox-claim\n${nonce}\n${baseUrl}`, 'utf8').digest('hex');
}

/** Not proven; `unreachable` when nothing answered at all (a sandbox not running, not one that lied). */
export type SandboxClaim =
  { proven: true; baseUrl: string } | { proven: false; why: string; unreachable?: TransportError };

/** Loopback names are one machine: the same port under 127.0.0.1, localhost or [::1] is the same address. */
function sameLoopbackAddress(a: URL, b: URL): boolean {
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  return a.protocol === b.protocol && isLoopbackHost(a.hostname) && isLoopbackHost(b.hostname) && port(a) === port(b);
}

/** Asks the server at `baseUrl` to prove it is the sandbox whose control secret is `secret`. Never throws: what
 * failed is said in `why`, in words that end with how to name the sandbox. */
export async function proveSandboxClaim(baseUrl: string, secret: string, timeoutMs = 5000): Promise<SandboxClaim> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { proven: false, why: `${baseUrl} is not a URL` };
  }
  if (!isLoopbackHost(url.hostname)) return { proven: false, why: `${url.host} is not on this machine` };
  const nonce = randomBytes(24).toString('hex');
  let answer: { baseUrl?: unknown; proof?: unknown };
  try {
    const res = await httpRequest({
      method: 'POST',
      url: joinUrl(baseUrl, CLAIM_PATH),
      json: { nonce },
      timeoutMs,
    });
    if (res.status !== 200) return { proven: false, why: `it answered ${res.status} to ${CLAIM_PATH}` };
    answer = JSON.parse(res.body.subarray(0, 4096).toString('utf8')) as typeof answer;
  } catch (err) {
    if (err instanceof TransportError)
      return { proven: false, why: `nothing answered there (${err.code ?? err.reason})`, unreachable: err };
    return { proven: false, why: `its answer to ${CLAIM_PATH} is not JSON` };
  }
  if (typeof answer.baseUrl !== 'string' || typeof answer.proof !== 'string')
    return { proven: false, why: `its answer to ${CLAIM_PATH} is not a sandbox's` };
  const expected = Buffer.from(claimProof(secret, nonce, answer.baseUrl), 'hex');
  const given = Buffer.from(answer.proof, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { proven: false, why: 'it did not prove that it holds WFS_SANDBOX_SECRET' };
  let own: URL;
  try {
    own = new URL(answer.baseUrl);
  } catch {
    return { proven: false, why: `its answer to ${CLAIM_PATH} is not a sandbox's` };
  }
  if (!sameLoopbackAddress(own, url))
    return { proven: false, why: `the sandbox that holds WFS_SANDBOX_SECRET is at ${own.origin}, not ${url.origin}` };
  return { proven: true, baseUrl: own.origin };
}
