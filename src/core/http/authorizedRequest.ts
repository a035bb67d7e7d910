// An authenticated service call: bearer token, one fresh token and one retry on 401/403 (spec: Authentication 5),
// backoff and resume on 429 (spec: Errors), then classification into a typed outcome.
import type { AccessTokenProvider } from '../auth/TokenManager';
import type { Clock } from '../time/clock';
import { classifyResponse, type ClassifyContext } from './classifyResponse';
import { said } from '../presentation/said';
import { assertCredentialOrigin } from './credentialOrigin';
import { httpRequest, type HttpRequest, type HttpResponse } from './request';
import { RateGate, sendThroughGate, type BackoffPolicy } from './rateGate';

export interface AuthorizedCallOptions {
  tokens: AccessTokenProvider;
  clock: Clock;
  backoff?: BackoffPolicy;
  random?: () => number;
  /** Called before each backoff wait, so a UI or CLI can say what is happening. */
  onBackoff?: (attempt: number, delayMs: number) => void;
  /** The throttle shared by every request to this service (sign-in and refresh included). Without one, this call
   * backs off on its own (policy and random as above). */
  gate?: RateGate;
}

export interface AuthorizedResult {
  json: unknown;
  status: number;
  response: HttpResponse;
}

export async function authorizedRequest(
  request: Omit<HttpRequest, 'headers'> & { headers?: Record<string, string | undefined> },
  ctx: ClassifyContext,
  opts: AuthorizedCallOptions,
): Promise<AuthorizedResult> {
  // Before the token is even read: reading it may refresh, which sends the refresh token.
  assertCredentialOrigin(request.url, said('The address'));
  const gate = opts.gate ?? new RateGate(opts.clock, opts.backoff, opts.random);
  let token = await opts.tokens.getAccessToken();
  let authRetried = false;
  for (;;) {
    const sent = await sendThroughGate(
      gate,
      opts.clock,
      () => httpRequest({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } }),
      opts.onBackoff,
    );
    const res = sent.response;
    if ((res.status === 401 || res.status === 403) && !authRetried) {
      authRetried = true;
      token = await opts.tokens.freshAccessToken(token);
      continue;
    }
    const out = classifyResponse(res, { url: request.url, ...ctx, backoffs: sent.backoffs, backoffMs: sent.elapsedMs });
    if (!out.ok) throw out.error;
    return { json: out.json, status: res.status, response: res };
  }
}
