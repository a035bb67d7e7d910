// Who may use the sandbox. Its control API and /sandbox/sign need the per-start secret: without it any local
// process (another user, a container sharing loopback) could mint "verified" deliveries. And no request from a web
// page is served at all: a non-loopback Origin is refused before the throttle counts it, so a page cannot spend
// the user's own budget.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../http/loopback';
import { problemReply, type Reply } from './sandboxResponses';

/** The header that carries the control secret. A browser cannot add it cross-site without a preflight, which the
 * sandbox never allows. */
export const SANDBOX_SECRET_HEADER = 'x-sandbox-secret';
/** Where a CLI user puts the secret for the commands that drive a running sandbox (docs/cli.md). */
export const SANDBOX_SECRET_ENV = 'WFS_SANDBOX_SECRET';

/** 32 random bytes, hex: new at every start. */
export function newControlSecret(): string {
  return randomBytes(32).toString('hex');
}

/** A secret given to a sandbox at start (its environment's WFS_SANDBOX_SECRET, shared by containers) is at least
 * this long: it guards signing with the sandbox's key on an address other machines may reach. */
const MIN_GIVEN_SECRET_CHARS = 32;

/** Why a given control secret cannot be taken; undefined when it can. */
export function givenSecretProblem(secret: string): string | undefined {
  if (secret.length < MIN_GIVEN_SECRET_CHARS)
    return `${SANDBOX_SECRET_ENV} holds ${secret.length} characters: a sandbox takes a secret of at least ${MIN_GIVEN_SECRET_CHARS} (make one with: openssl rand -hex 32), or unset it for a new one at each start`;
  if (/\s/.test(secret))
    return `${SANDBOX_SECRET_ENV} holds white space: give one word, e.g. from openssl rand -hex 32`;
  return undefined;
}

/** Compares in constant time, over digests so that the length of the expected secret does not show either. */
export function secretMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** A refusal when the request does not carry this sandbox's control secret; undefined when it does. */
export function secretRefusal(
  problemsBase: string,
  headerValue: string | string[] | undefined,
  expected: string,
): Reply | undefined {
  const given = single(headerValue);
  const type = `${problemsBase}/sandbox-secret`;
  if (given === undefined || given === '')
    return problemReply(
      403,
      type,
      'Sandbox secret missing',
      `The sandbox's control API and /sandbox/sign need the header X-Sandbox-Secret. Its value is "controlSecret" in the sandbox's ready line (wfs sandbox prints it first); for wfs commands, set ${SANDBOX_SECRET_ENV} to it. A sandbox makes a new one at each start.`,
    );
  if (!secretMatches(given, expected))
    return problemReply(
      403,
      type,
      'Sandbox secret wrong',
      `X-Sandbox-Secret is not this sandbox's secret. A sandbox makes a new one at each start: take "controlSecret" from the ready line of the sandbox running now (for wfs commands, in ${SANDBOX_SECRET_ENV}).`,
    );
  return undefined;
}

/** True for an Origin a page on this machine's loopback names has (http://127.0.0.1:3000, http://localhost). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && isLoopbackHost(u.hostname);
  } catch {
    // "null" (a sandboxed frame, a file: page) and anything unreadable are not loopback.
    return false;
  }
}

/** A refusal when the request comes from a web page that is not on loopback; undefined otherwise. Programs (curl,
 * wfs, the extension) send no Origin. Said in plain text, echoing the origin only as a JSON string. */
export function originRefusal(headerValue: string | string[] | undefined): Reply | undefined {
  if (headerValue === undefined) return undefined;
  const origins = Array.isArray(headerValue) ? headerValue : [headerValue];
  if (origins.every(isLoopbackOrigin)) return undefined;
  return {
    status: 403,
    // The body is never read: the connection closes after the answer.
    headers: { 'content-type': 'text/plain; charset=utf-8', connection: 'close' },
    body: `This sandbox serves programs on this machine, not web pages: a request from Origin ${JSON.stringify(origins.join(', ').slice(0, 200))} is refused. Send it without an Origin header (curl, wfs, your app's server side).\n`,
  };
}
