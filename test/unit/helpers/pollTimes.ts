// The spec's poll schedule written out: the elapsed times of every check before a deadline. The oracle the
// poller's tests and the polling benchmark compare against; the product only needs the next delay.
import { pollDelayMs } from '../../../src/core/workflows/pollSchedule';

/** Elapsed times (ms from the start) of every check made before the deadline. */
export function pollTimes(deadlineMs: number): number[] {
  const times: number[] = [];
  let t = 0;
  for (let check = 1; ; check++) {
    t += pollDelayMs(check);
    if (t > deadlineMs) return times;
    times.push(t);
  }
}
