// Per-source-address throttle counted across every endpoint (spec: Limits). Refused credentials weigh more,
// so repeated attempts with a refused credential meet the throttle sooner (spec: Errors, rule 5).
import type { Clock } from '../time/clock';

export interface ThrottleOptions {
  /** Weight allowed per address in one window. */
  limit: number;
  windowMs: number;
  /** Weight a refused credential (a 401) adds. */
  refusedCredentialWeight: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { limit: 600, windowMs: 60_000, refusedCredentialWeight: 20 };

export class RateThrottle {
  private readonly windows = new Map<string, { start: number; weight: number }>();
  private forced = 0;
  /** Requests still let through before the forced refusals begin. */
  private forcedAfter = 0;

  constructor(
    private readonly clock: Clock,
    readonly options: ThrottleOptions = DEFAULT_THROTTLE,
  ) {}

  /** Counts one request; false when it must be refused with 429. */
  admit(address: string): boolean {
    if (this.forced > 0) {
      if (this.forcedAfter > 0) this.forcedAfter--;
      else {
        this.forced--;
        return false;
      }
    }
    const w = this.window(address);
    if (w.weight + 1 > this.options.limit) return false;
    w.weight += 1;
    return true;
  }

  /** A refused credential adds weight beyond the request itself. */
  recordRefusedCredential(address: string): void {
    this.window(address).weight += this.options.refusedCredentialWeight - 1;
  }

  /** Control API: refuse n requests whatever their source, after letting `after` more through (e.g. after = 1 lets
   * a sign-in pass and throttles the call that follows it). */
  throttleNext(n: number, after = 0): void {
    if (this.forced === 0) this.forcedAfter = after;
    this.forced += n;
  }

  /** Forced refusals still to come (the control API lists them with the other faults). */
  get forcedPending(): number {
    return this.forced;
  }

  /** Ends forced refusals (DELETE /sandbox/faults); the per-address windows stay. */
  clearForced(): void {
    this.forced = 0;
    this.forcedAfter = 0;
  }

  reset(): void {
    this.windows.clear();
    this.clearForced();
  }

  private window(address: string): { start: number; weight: number } {
    const now = this.clock.now();
    let w = this.windows.get(address);
    if (!w || now - w.start >= this.options.windowMs) {
      w = { start: now, weight: 0 };
      this.windows.set(address, w);
    }
    return w;
  }
}
