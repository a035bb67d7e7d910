// The load generator: a separate process, so the receivers under test do not share its event loop.
// Reads {urls, warmUrls?, requestsFile, from?, count, concurrency, warmup, blocks?} from a JSON file; the requests
// file holds [{headers, body(base64)}]. Request i goes to urls[i % urls.length], so several receivers measured in one
// run (one at a time, alternating) see the same conditions; with blocks, the measured requests go to each URL in turn
// as one contiguous block, so what one receiver does after answering never delays a request to another. Warms up
// first with requests [0, warmup) (undici's own code needs a few thousand requests before it stops being the
// bottleneck), sent to warmUrls when given (so a receiver measured in several rounds sees each delivery once), prints
// "warm", then measures requests [from, from + count) (from defaults to warmup) and prints one JSON line
// {count, seconds, rps, cpuUsPerRequest, statuses, perUrl: [{p50, p99, count, overFirst?}]} (latencies in ms, measured
// per request on this side).
import { Pool } from 'undici';
import { readLoadConfig } from './loadConfig.mjs';

const decode = (list) => list.map((r) => ({ headers: r.headers, body: Buffer.from(r.body, 'base64') }));
// Only the decoded requests stay alive, not the stored ones.
const { urls, warmUrls, concurrency, blocks, warmList, measuredList } = (() => {
  const config = readLoadConfig(process.argv[2]);
  return { ...config, warmList: decode(config.warmList), measuredList: decode(config.measuredList) };
})();
const pools = (list) =>
  list.map((url) => {
    const u = new URL(url);
    return { path: u.pathname, pool: new Pool(u.origin, { connections: concurrency, pipelining: 1 }) };
  });

async function run(targets, list, blocks) {
  const latencies = targets.map(() => []);
  const inOrder = new Float64Array(list.length);
  const statuses = {};
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  async function worker() {
    while (next < list.length) {
      const i = next++;
      const r = list[i];
      const at = blocks ? Math.floor((i * targets.length) / list.length) : i % targets.length;
      const t = targets[at];
      const s = process.hrtime.bigint();
      const res = await t.pool.request({ method: 'POST', path: t.path, headers: r.headers, body: r.body });
      await res.body.dump();
      inOrder[i] = Number(process.hrtime.bigint() - s) / 1e6;
      latencies[at].push(inOrder[i]);
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const percentiles = (l) => {
    const sorted = l.sort((a, b) => a - b);
    const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
    return { count: sorted.length, p50: pct(50), p99: pct(99) };
  };
  const perUrl = latencies.map(percentiles);
  // One at a time: each request minus the one just before it to urls[0] (the baseline), pair by pair. A stall
  // on this side lands in one request of a pair, so its p99 errs high, never below zero as p99s subtracted do.
  if (concurrency === 1 && !blocks)
    perUrl.forEach((u, t) => {
      if (t > 0)
        u.overFirst = percentiles(
          Array.from(
            { length: Math.floor(list.length / targets.length) },
            (_, k) => inOrder[k * targets.length + t] - inOrder[k * targets.length],
          ),
        );
    });
  return {
    count: list.length,
    seconds,
    rps: list.length / seconds,
    cpuUsPerRequest: (cpu.user + cpu.system) / list.length,
    statuses,
    perUrl,
  };
}

const warmTargets = pools(warmUrls ?? urls);
await run(warmTargets, warmList, false);
const targets = warmUrls ? pools(urls) : warmTargets;
process.stdout.write('warm\n');
const result = await run(targets, measuredList, blocks);
await Promise.all([...new Set([...warmTargets, ...targets])].map((t) => t.pool.close()));
process.stdout.write(JSON.stringify(result) + '\n');
