// A TLS failure at the user's own app (a forward target, `wfs send`'s target, the audit's receiver, a replay) named
// by its cause, with the fix: the one place that reads Node's and OpenSSL's codes. The service's own requests keep
// request.ts's hint, whose fix (a proxy that re-signs traffic) is another.
import { english, said, type Said, type SaidValue } from '../presentation/said';

/** What was wrong with the app's certificate, or with its TLS. */
export type TlsProblem = 'self-signed' | 'unknown-authority' | 'expired' | 'not-yet-valid' | 'wrong-name' | 'not-tls';

/** How the user can give the root that signed the app's certificate where the request was made: `ca` on a forward
 * rule, a flag of the command that sent (`--ca`, `--forward-ca`), or the process's environment (where neither is). */
export type CaRemedy = 'rule' | 'environment' | { flag: string };

export interface TlsFailure {
  problem: TlsProblem;
  /** Node's or OpenSSL's code, kept for searches. */
  code: string;
  /** What happened, then what to do (English, as the CLI prints it). */
  message: string;
  /** The same as core's Said, worded by the extension in the user's language. */
  said: Said;
}

const PROBLEM_OF_CODE: Readonly<Record<string, TlsProblem>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'unknown-authority',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknown-authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknown-authority',
  UNABLE_TO_GET_ISSUER_CERT: 'unknown-authority',
  CERT_UNTRUSTED: 'unknown-authority',
  CERT_SIGNATURE_FAILURE: 'unknown-authority',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not-yet-valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'wrong-name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'not-tls',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'not-tls',
  ERR_SSL_HTTP_REQUEST: 'not-tls',
};

/** The error's code, or its cause's (undici may wrap the socket's error). */
export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  if (typeof e?.code === 'string') return e.code;
  return typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
}

export function tlsProblemOf(code: string | undefined): TlsProblem | undefined {
  return code === undefined ? undefined : Object.hasOwn(PROBLEM_OF_CODE, code) ? PROBLEM_OF_CODE[code] : undefined;
}

/** The names a wrong-name certificate holds, as Node's error gives them (`cert.subjectaltname`): the app's own text,
 * so only the characters a name list holds, and bounded. */
function namesHeld(err: unknown): string | undefined {
  const alt = (err as { cert?: { subjectaltname?: unknown } } | undefined)?.cert?.subjectaltname;
  if (typeof alt !== 'string' || alt === '' || !/^[A-Za-z0-9.:*, _-]+$/.test(alt)) return undefined;
  return alt.length > 200 ? `${alt.slice(0, 200)}…` : alt;
}

/** Where the root goes, in the words of the face that made the request. */
function trustRoot(remedy: CaRemedy, what: Said): Said {
  if (remedy === 'rule')
    return said(
      'add `ca` to the forward rule with {0} (mkcert -CAROOT shows where mkcert keeps its root, rootCA.pem)',
      what,
    );
  if (remedy === 'environment')
    return said(
      'give {0} in NODE_EXTRA_CA_CERTS in the environment wfs or VS Code starts from (mkcert -CAROOT shows where mkcert keeps its root, rootCA.pem)',
      what,
    );
  return said(
    'give {0} FILE with {1} as PEM (mkcert -CAROOT shows where mkcert keeps its root, rootCA.pem)',
    remedy.flag,
    what,
  );
}

function problemSaid(problem: TlsProblem, host: string, o: NameOptions, err: unknown): Said {
  switch (problem) {
    case 'self-signed':
      return said(
        'presented a self-signed certificate: {0}',
        trustRoot(o.remedy, said('the root that signed it, or that certificate itself')),
      );
    case 'unknown-authority': {
      const root = trustRoot(o.remedy, said('the root that signed it'));
      return o.caFile !== undefined
        ? said(
            'presented a certificate signed by an authority this process does not know (not the one in ca {0}): {1}',
            o.caFile,
            root,
          )
        : said('presented a certificate signed by an authority this process does not know: {0}', root);
    }
    case 'expired':
      return said(
        'presented an expired certificate: make a new one (e.g. mkcert localhost 127.0.0.1 ::1) and restart the app with it',
      );
    case 'not-yet-valid':
      return said(
        "presented a certificate that is not valid yet: check this machine's clock, or make a new certificate",
      );
    case 'wrong-name': {
      const names = namesHeld(err);
      return names
        ? said(
            'presented a certificate for other names ({0}), not {1}: make one that names {1} (e.g. mkcert localhost 127.0.0.1 ::1), or use a name the certificate holds in the URL',
            names,
            host,
          )
        : said(
            'presented a certificate for other names, not {0}: make one that names {0} (e.g. mkcert localhost 127.0.0.1 ::1), or use a name the certificate holds in the URL',
            host,
          );
    }
    case 'not-tls':
      return said('does not speak TLS on that port: if it serves plain http, use an http:// URL');
  }
}

export interface NameOptions {
  remedy: CaRemedy;
  /** The `ca` file the request trusted, when it had one (named when it did not cover the certificate). */
  caFile?: string;
  /** Who answered at the target, for the sentence (default "your app"). */
  who?: SaidValue;
}

/** The failure named when it is a TLS one, undefined otherwise. `target` is the URL requested; only its origin is
 * said (the path and query may carry anything). */
export function namedTlsFailure(err: unknown, target: string, o: NameOptions): TlsFailure | undefined {
  const code = errorCode(err);
  const problem = tlsProblemOf(code);
  if (!problem || code === undefined) return undefined;
  let origin = target;
  let host = target;
  try {
    const u = new URL(target);
    origin = u.origin;
    host = u.hostname;
  } catch {
    // named as given: a URL that does not parse never reached a socket, but the words stay right
  }
  const s = said('{0} at {1} {2} ({3})', o.who ?? said('your app'), origin, problemSaid(problem, host, o, err), code);
  return { problem, code, message: english(s), said: s };
}
