// One check of the path from the public address to the receiver, as the public path watch makes it: a bodiless
// POST to the public webhook URL carrying a value only this process holds. The receiver answers it 204 without
// recording it, so a check every few minutes adds nothing to the delivery history and reaches no app.
import { httpRequest } from '../http/request';
import type { PathProbes } from '../webhooks/pathProbes';
import { PATH_PROBE_HEADER } from '../webhooks/pathProbes';
import { english, said, type Said } from '../presentation/said';
import { answeredWithoutArrival, hopOfTransportError, type PublicAddressHop } from './publicAddressHops';

export interface PathCheckResult {
  ok: boolean;
  /** What answered, when something did. */
  status?: number;
  roundTripMs?: number;
  failedHop?: PublicAddressHop;
  /** One sentence: what happened, and where it stopped (English, as the CLI shows it). */
  detail: string;
  /** The same as core's Said, worded by the extension in the user's language (absent: the English is shown). */
  detailSaid?: Said;
}

/** The detail in English and as core's Said. */
export function pathCheckDetail(detailSaid: Said): { detail: string; detailSaid: Said } {
  return { detail: english(detailSaid), detailSaid };
}

export interface PathProbeOptions {
  /** The public webhook address (with its path). */
  publicUrl: string;
  /** The receiver's probes (Receiver.pathProbes). */
  probes: PathProbes;
  timeoutMs: number;
}

export async function probePublicPath(o: PathProbeOptions): Promise<PathCheckResult> {
  const probe = o.probes.expect();
  const t0 = performance.now();
  try {
    const res = await httpRequest({
      method: 'POST',
      url: o.publicUrl,
      headers: { 'content-type': 'application/json', [PATH_PROBE_HEADER]: probe.value },
      timeoutMs: o.timeoutMs,
      maxResponseBytes: 64 * 1024,
    });
    const roundTripMs = Math.round((performance.now() - t0) * 10) / 10;
    if (probe.arrived && res.status === 204)
      return {
        ok: true,
        status: 204,
        roundTripMs,
        ...pathCheckDetail(said('through {0} and back in {1} ms', new URL(o.publicUrl).host, roundTripMs)),
      };
    if (!probe.arrived) return { ok: false, status: res.status, roundTripMs, ...answeredWithoutArrival(res) };
    return {
      ok: false,
      status: res.status,
      roundTripMs,
      failedHop: 'tunnel',
      ...pathCheckDetail(
        said(
          'the check reached the receiver, which answered 204, but {0} came back: something on the way changes answers',
          res.status,
        ),
      ),
    };
  } catch (err) {
    return { ok: false, ...hopOfTransportError(err, o.publicUrl, probe.arrived, o.timeoutMs).hop };
  } finally {
    probe.done();
  }
}
