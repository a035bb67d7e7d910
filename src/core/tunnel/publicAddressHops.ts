// Where a request through a public address stopped, in words: shared by Test Public Address (a signed delivery)
// and the public path watch (its unrecorded probe), so both name a failed hop alike.
import { TransportError, type HttpResponse } from '../http/request';

export type PublicAddressHop = 'dns' | 'connect' | 'tls' | 'reminder-page' | 'tunnel' | 'timeout' | 'receiver';

export interface HopFailure {
  failedHop: PublicAddressHop;
  /** One sentence: what happened, and where it stopped. */
  detail: string;
}

const DNS_CODES = ['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME'];
const CONNECT_CODES = [
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'EADDRNOTAVAIL',
];

/** Something answered, but the receiver never saw the request: the tunnel's reminder page, or the tunnel itself. */
export function answeredWithoutArrival(res: HttpResponse): HopFailure {
  const text = res.body.toString('utf8');
  if (res.contentType === 'text/html' && /localtunnel|reminder|tunnel password/i.test(text))
    return {
      failedHop: 'reminder-page',
      detail: `the tunnel answered ${res.status} with its reminder page instead of forwarding: the service would get that page, not your receiver`,
    };
  return {
    failedHop: 'tunnel',
    detail: `something on the way answered ${res.status}${res.headers.server ? ` (server: ${res.headers.server.slice(0, 60)})` : ''}, but the request never reached the receiver: the tunnel or proxy does not forward to it`,
  };
}

/** No answer: the hop the transport error names. `timedOut` when the wait ran out (a round trip is then known). */
export function hopOfTransportError(
  err: unknown,
  publicUrl: string,
  arrived: boolean,
  timeoutMs: number,
): { hop: HopFailure; timedOut: boolean } {
  const e = err as TransportError;
  if (e instanceof TransportError && e.reason === 'timeout')
    return {
      timedOut: true,
      hop: {
        failedHop: 'timeout',
        detail: arrived
          ? `the delivery reached the receiver, but its answer did not come back through the tunnel within ${timeoutMs} ms`
          : `no answer within ${timeoutMs} ms, and nothing reached the receiver: the tunnel drops requests silently`,
      },
    };
  return { timedOut: false, hop: hopOfCode(e instanceof TransportError ? e.code : undefined, err, publicUrl, arrived) };
}

function hopOfCode(code: string | undefined, err: unknown, publicUrl: string, arrived: boolean): HopFailure {
  const host = new URL(publicUrl).hostname;
  if (code && DNS_CODES.includes(code))
    return { failedHop: 'dns', detail: `the name ${host} does not resolve (${code})` };
  if (code && (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) || code === 'ERR_TLS_CERT_ALTNAME_INVALID'))
    return { failedHop: 'tls', detail: `the TLS handshake with ${host} failed (${code})` };
  if (code && CONNECT_CODES.includes(code))
    return arrived
      ? {
          failedHop: 'tunnel',
          detail: `the delivery reached the receiver, but the tunnel closed the connection before its answer came back (${code})`,
        }
      : { failedHop: 'connect', detail: `no connection to ${new URL(publicUrl).host} (${code})` };
  return { failedHop: 'connect', detail: `the request failed: ${(err as Error).message}` };
}
