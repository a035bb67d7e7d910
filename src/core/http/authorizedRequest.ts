// An authenticated service call: bearer token, one fresh token and one retry on 401/403 (spec: Authentication 5),
// backoff and resume on 429 (spec: Errors), then classification into a typed outcome.
import type { AccessTokenProvider } from '../auth/TokenManager';
import type { Clock } from '../time/clock';
import { classifyResponse, type ClassifyContext } from './classifyResponse';
import { httpRequest, type HttpRequest, type HttpResponse } from './request';
import { randomInt } from 'node:crypto';

export interface BackoffPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_429_BACKOFF: BackoffPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** Exponential with "equal jitter": half fixed, half random, capped. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = () => randomInt(0, 1_000_000) / 1_000_000): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export interface AuthorizedCallOptions {
  tokens: AccessTokenProvider;
  clock: Clock;
  backoff?: BackoffPolicy;
  random?: () => number;
  /** Called before each backoff wait, so a UI or CLI can say what is happening. */
  onBackoff?: (attempt: number, delayMs: number) => void;
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
  const policy = opts.backoff ?? DEFAULT_429_BACKOFF;
  let token = await opts.tokens.getAccessToken();
  let authRetried = false;
  let throttled = 0;
  for (;;) {
    const res = await httpRequest({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } });
    if ((res.status === 401 || res.status === 403) && !authRetried) {
      authRetried = true;
      token = await opts.tokens.freshAccessToken(token);
      continue;
    }
    if (res.status === 429 && throttled < policy.maxAttempts - 1) {
      const delay = backoffDelay(throttled++, policy, opts.random);
      opts.onBackoff?.(throttled, delay);
      await new Promise<void>((resolve) => opts.clock.setTimeout(resolve, delay));
      continue;
    }
    const out = classifyResponse(res, ctx);
    if (!out.ok) throw out.error;
    return { json: out.json, status: res.status, response: res };
  }
}
