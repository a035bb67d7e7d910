// The public path watch for one run of the receiver: it probes the public address the provider holds now (a tunnel
// may move), asks the provider to renew a path that stopped (localtunnel reconnects), and tells the session what a
// face shows: stopped, reaching (again), and a wake that made it check at once.
import { said } from '../presentation/said';
import type { PathCheckResult } from '../tunnel/publicPathProbe';
import { pathCheckDetail, probePublicPath } from '../tunnel/publicPathProbe';
import { PublicPathWatch, type PathCheckReason } from '../tunnel/publicPathWatch';
import type { Clock } from '../time/clock';
import type { PathProbes } from '../webhooks/pathProbes';
import type { PublicAddressProvider } from './publicAddressProvider';

/** How the watch runs; `false` turns it off. */
export interface PublicPathCheckOptions {
  /** Between checks while the path works (default 2 minutes). */
  intervalMs?: number;
  /** One check's wait for its answer (default 10 s, at most the interval). */
  timeoutMs?: number;
}

/** A change a face reports. `state` is where the path is now; `reason` why the check ran. */
export type PublicPathChange =
  | {
      state: 'not-reaching';
      at: number;
      publicUrl: string;
      result: PathCheckResult;
      /** The last check that carried through, if one did in this run. */
      lastReachedAt?: number;
    }
  | { state: 'reaching'; at: number; publicUrl: string; result: PathCheckResult; /** After a stop. */ downMs?: number }
  | { state: 'checking'; at: number; publicUrl: string; reason: PathCheckReason; sleptMs: number };

export interface PublicPathRunDeps {
  clock: Clock;
  address: PublicAddressProvider;
  probes: PathProbes;
  options: PublicPathCheckOptions;
  changed(change: PublicPathChange): void;
}

export function watchPublicPath(d: PublicPathRunDeps): PublicPathWatch {
  const intervalMs = d.options.intervalMs;
  const timeoutMs = Math.min(d.options.timeoutMs ?? 10_000, intervalMs ?? 10_000);
  const url = () => d.address.url() ?? '';
  const watch = new PublicPathWatch({
    clock: d.clock,
    intervalMs,
    check: async () => {
      const publicUrl = d.address.url();
      if (!publicUrl)
        return { ok: false, ...pathCheckDetail(said('the public address ({0}) is not open', d.address.source)) };
      return probePublicPath({ publicUrl, probes: d.probes, timeoutMs });
    },
  });
  watch.on('stopped', (e) => {
    d.changed({ state: 'not-reaching', publicUrl: url(), ...e });
    // Only a path that carried deliveries can have dropped: one that never reached the receiver (a name that resolves
    // nowhere, a router without hairpinning) is not mended by reopening the tunnel, which would only churn it.
    if (e.lastReachedAt !== undefined)
      d.address.renew?.(
        said('the public address stopped reaching the receiver: {0}', e.result.detailSaid ?? e.result.detail),
      );
  });
  watch.on('reaching', (e) => d.changed({ state: 'reaching', publicUrl: url(), ...e }));
  watch.on('wake', (e) => d.changed({ state: 'checking', reason: 'wake', publicUrl: url(), ...e }));
  return watch;
}
