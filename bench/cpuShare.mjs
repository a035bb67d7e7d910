// Where a receiver's CPU goes besides its own JavaScript: V8's garbage collector pausing the main thread, and the
// process's other threads (V8's helpers, which scavenge and mark in parallel with it, and libuv's pool). Through
// HTTP the Receiver costs more than its code costs without sockets (receiverOwnWork.mjs): this says how much of that
// is collecting what it allocates and keeps.
import { readdirSync, readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

let pausedMs = 0;
let observer;

/** Starts adding up GC pauses. Node reports each pause shortly after it ends (from an immediate), so a window's
 * edges may gain or lose one pause: about 5 ms against the 0.5–1 s of CPU of a 4,000-delivery round. */
export function watchGc() {
  if (observer) return;
  observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pausedMs += e.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
}

export function unwatchGc() {
  observer?.disconnect();
  observer = undefined;
}

/** CPU time so far of every thread but the main one, in ns, from the scheduler's own accounting
 * (/proc/self/task/<tid>/schedstat: nanoseconds, where /proc's stat counts 10 ms ticks); undefined off Linux. */
function otherThreadsCpuNs() {
  let ns = 0;
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      if (Number(tid) === process.pid) continue;
      try {
        ns += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that ended meanwhile
      }
    }
  } catch {
    return undefined;
  }
  return ns;
}

export function cpuShareMark() {
  return { pausedMs, otherThreadsNs: otherThreadsCpuNs() };
}

/** Per request since mark: µs of GC pauses on the main thread, and µs of the other threads (null off Linux). */
export function cpuShareSince(mark, requests) {
  const otherThreadsNs = otherThreadsCpuNs();
  return {
    gcPauseUsPerRequest: ((pausedMs - mark.pausedMs) * 1000) / requests,
    otherThreadsUsPerRequest:
      otherThreadsNs === undefined || mark.otherThreadsNs === undefined
        ? null
        : (otherThreadsNs - mark.otherThreadsNs) / 1000 / requests,
  };
}
