// The public path watch's probes (core/tunnel/publicPathWatch.ts): a request that came back through the public
// address to this receiver, known by a random value only this process holds. It is answered 204 before any body
// is read and is not a delivery: nothing is recorded, verified or forwarded. A header that names no probe under way
// is ignored, and the request goes through the seven steps like any other.
import { randomBytes } from 'node:crypto';

export const PATH_PROBE_HEADER = 'x-wfs-path-probe';

export interface PendingProbe {
  /** The header value the probe carries: 256 random bits, pending only while its probe runs. */
  readonly value: string;
  /** Whether the receiver answered it. */
  readonly arrived: boolean;
  /** Withdraws it (the probe is over): the value is never accepted again. */
  done(): void;
}

export class PathProbes {
  private readonly pending = new Map<string, { arrived: boolean }>();

  /** A new probe value, accepted once until done(). */
  expect(): PendingProbe {
    const value = randomBytes(32).toString('base64url');
    const state = { arrived: false };
    this.pending.set(value, state);
    return {
      value,
      get arrived() {
        return state.arrived;
      },
      done: () => void this.pending.delete(value),
    };
  }

  /** True when `header` names a probe under way, which is then spent. A guess is worthless: 256 bits, a few seconds. */
  take(header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    const state = this.pending.get(header);
    if (!state) return false;
    this.pending.delete(header);
    state.arrived = true;
    return true;
  }
}
