// The service's rate throttle counts every endpoint per source address (spec: Limits, "Rate throttle"; docs/design.md,
// Layers: "the shared 429 gate"). So one 429 anywhere holds every request to that service until its
// backoff has passed: polling, a start, a refresh and a sign-in all wait together instead of each meeting the
// throttle again on its own.
import type { Clock } from '../time/clock';
import type { HttpResponse } from './request';
import { randomInt } from 'node:crypto';

export interface BackoffPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_429_BACKOFF: BackoffPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** Exponential with "equal jitter": half fixed, half random, capped. */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = () => randomInt(0, 1_000_000) / 1_000_000,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** A request met its n-th 429 and waits delayMs before it is sent again. */
export interface BackoffEvent {
  attempt: number;
  delayMs: number;
}

export class RateGate {
  private readonly backoffListeners = new Set<(e: BackoffEvent) => void>();
  /** No request is sent before this time (ms since the epoch, on the injected clock). */
  private openAt = 0;
  /** When the current backoff was set: a 429 to a request sent before then is the same episode, not a new one. */
  private lastThrottleAt = -Infinity;
  private consecutive = 0;

  constructor(
    private readonly clock: Clock,
    readonly policy: BackoffPolicy = DEFAULT_429_BACKOFF,
    private readonly random?: () => number,
  ) {}

  /** Milliseconds until requests may go again (0 when they may now). */
  get remainingMs(): number {
    return Math.max(0, this.openAt - this.clock.now());
  }

  /** Resolves once no backoff is pending: at once when none is. */
  async wait(): Promise<void> {
    for (let left = this.remainingMs; left > 0; left = this.remainingMs)
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, left));
  }

  /** A request sent at `sentAt` was answered 429. Returns the wait from now before anything is sent again. Requests
   * that were already in flight when the backoff began join it without lengthening it. */
  throttled(sentAt: number): number {
    if (sentAt >= this.lastThrottleAt) {
      const now = this.clock.now();
      this.openAt = Math.max(this.openAt, now + backoffDelay(this.consecutive++, this.policy, this.random));
      this.lastThrottleAt = now;
    }
    return this.remainingMs;
  }

  /** Called each time a request waits out a 429 to be sent again, whichever request it is: one place for a UI or CLI
   * to say so. A 429 after which a request gives up is not a backoff and is not announced. */
  onBackoff(listener: (e: BackoffEvent) => void): () => void {
    this.backoffListeners.add(listener);
    return () => this.backoffListeners.delete(listener);
  }

  /** sendThroughGate announces its waits here. */
  announceBackoff(event: BackoffEvent): void {
    for (const l of this.backoffListeners) l(event);
  }

  /** Any answer but 429: the throttle let a request through, so the next 429 starts again from the base delay. */
  passed(): void {
    this.consecutive = 0;
  }

  /** Reports the status answered to a request sent at `sentAt`: for a 429, the wait from now (as throttled());
   * for anything else, undefined (as passed()). */
  answered(status: number, sentAt: number): number | undefined {
    if (status === 429) return this.throttled(sentAt);
    this.passed();
    return undefined;
  }
}

/** What a request went through at the gate before its final answer. */
export interface GatedResponse {
  response: HttpResponse;
  /** 429s this request met and waited out. */
  backoffs: number;
  /** Time from the first send to the final answer, on the gate's clock. */
  elapsedMs: number;
}

/**
 * Sends through the gate: waits out any backoff, reports the answer, and on a 429 waits and sends again, up to the
 * policy's attempts. The last answer is returned as it is (a 429 too, once the attempts are spent), so the caller
 * classifies it. `send` is called once per attempt and must build a fresh request each time.
 */
export async function sendThroughGate(
  gate: RateGate,
  clock: Clock,
  send: () => Promise<HttpResponse>,
  onBackoff?: (attempt: number, delayMs: number) => void,
): Promise<GatedResponse> {
  let backoffs = 0;
  let firstSentAt: number | undefined;
  for (;;) {
    await gate.wait();
    const sentAt = clock.now();
    firstSentAt ??= sentAt;
    const response = await send();
    const delay = gate.answered(response.status, sentAt);
    if (delay === undefined || backoffs + 1 >= gate.policy.maxAttempts)
      return { response, backoffs, elapsedMs: clock.now() - firstSentAt };
    backoffs++;
    gate.announceBackoff({ attempt: backoffs, delayMs: delay });
    onBackoff?.(backoffs, delay);
  }
}
