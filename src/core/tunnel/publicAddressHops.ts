// Where a request through a public address stopped, in words: shared by Test Public Address (a signed delivery)
// and the public path watch (its unrecorded probe), so both name a failed hop alike.
import { TransportError, type HttpResponse } from '../http/request';
import { english, said, saidOf, type Said } from '../presentation/said';

export type PublicAddressHop = 'dns' | 'connect' | 'tls' | 'reminder-page' | 'tunnel' | 'timeout' | 'receiver';

export interface HopFailure {
  failedHop: PublicAddressHop;
  /** One sentence: what happened, and where it stopped (English, as the CLI and the MCP tools show it). */
  detail: string;
  /** The same as core's Said, worded by the extension in the user's language. */
  detailSaid: Said;
}

/** A hop failure said once: its English is derived from the Said. */
function failure(failedHop: PublicAddressHop, detailSaid: Said): HopFailure {
  return { failedHop, detail: english(detailSaid), detailSaid };
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
    return failure(
      'reminder-page',
      said(
        'the tunnel answered {0} with its reminder page instead of forwarding: the service would get that page, not your receiver',
        res.status,
      ),
    );
  return failure(
    'tunnel',
    res.headers.server
      ? said(
          'something on the way answered {0} (server: {1}), but the request never reached the receiver: the tunnel or proxy does not forward to it',
          res.status,
          res.headers.server.slice(0, 60),
        )
      : said(
          'something on the way answered {0}, but the request never reached the receiver: the tunnel or proxy does not forward to it',
          res.status,
        ),
  );
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
      hop: failure(
        'timeout',
        arrived
          ? said(
              'the delivery reached the receiver, but its answer did not come back through the tunnel within {0} ms',
              timeoutMs,
            )
          : said(
              'no answer within {0} ms, and nothing reached the receiver: the tunnel drops requests silently',
              timeoutMs,
            ),
      ),
    };
  return { timedOut: false, hop: hopOfCode(e instanceof TransportError ? e.code : undefined, err, publicUrl, arrived) };
}

function hopOfCode(code: string | undefined, err: unknown, publicUrl: string, arrived: boolean): HopFailure {
  const host = new URL(publicUrl).hostname;
  if (code && DNS_CODES.includes(code)) return failure('dns', said('the name {0} does not resolve ({1})', host, code));
  if (code && (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) || code === 'ERR_TLS_CERT_ALTNAME_INVALID'))
    return failure('tls', said('the TLS handshake with {0} failed ({1})', host, code));
  if (code && CONNECT_CODES.includes(code))
    return arrived
      ? failure(
          'tunnel',
          said(
            'the delivery reached the receiver, but the tunnel closed the connection before its answer came back ({0})',
            code,
          ),
        )
      : failure('connect', said('no connection to {0} ({1})', new URL(publicUrl).host, code));
  return failure('connect', said('the request failed: {0}', saidOf(err)));
}
