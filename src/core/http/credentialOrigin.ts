// Where a password or a token may be sent: an https origin, or plain http on this machine (a local sandbox). An
// http proxy on the way changes nothing: the bytes inside its CONNECT tunnel are only as private as the origin's
// scheme makes them, so it is the origin that decides.
import { isLoopbackHost } from './loopback';
import { said, type Said, type SaidValue } from '../presentation/said';
import { LocalValidationError } from './serviceErrors';

/** The end of a sentence naming the address ("WFS_BASE_URL is plain http to …"), or undefined when credentials
 * may go there. An address that is not an http(s) URL is left to httpUrlProblem. */
export function credentialOriginProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' || isLoopbackHost(u.hostname)) return undefined;
  return `is plain http to ${u.host}, which is not this machine: a password or token sent there would cross the network unencrypted, so none is sent. Use the service's https:// address, or a loopback address (127.0.0.1, localhost) for a local sandbox`;
}

/** Throws before anything is sent when `url` may not receive credentials; `what` names the address's source. */
export function assertCredentialOrigin(url: string, what: SaidValue): void {
  const problem = credentialOriginSaid(url, what);
  if (problem) throw new LocalValidationError('credential-origin', problem);
}

/** The whole sentence, "… is plain http to …, ….", naming the address's source, as core's Said. */
function credentialOriginSaid(url: string, what: SaidValue): Said | undefined {
  if (credentialOriginProblem(url) === undefined) return undefined;
  return said(
    "{0} is plain http to {1}, which is not this machine: a password or token sent there would cross the network unencrypted, so none is sent. Use the service's https:// address, or a loopback address (127.0.0.1, localhost) for a local sandbox.",
    what,
    new URL(url).host,
  );
}
