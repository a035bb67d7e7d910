// The load generator: a separate process, so the receiver under test does not share its event loop.
// Reads {url, requests: [{headers, body(base64)}], concurrency, warmup} from a JSON file; prints one JSON line
// {count, seconds, rps, p50, p99, statuses} (latencies in ms, measured per request on this side).
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const { url, requests, concurrency, warmup } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const u = new URL(url);
const pool = new Pool(u.origin, { connections: concurrency, pipelining: 1 });
const bodies = requests.map((r) => ({ headers: r.headers, body: Buffer.from(r.body, 'base64') }));

async function run(list) {
  const latencies = new Float64Array(list.length);
  const statuses = {};
  let next = 0;
  const t0 = process.hrtime.bigint();
  async function worker() {
    while (next < list.length) {
      const i = next++;
      const r = list[i];
      const s = process.hrtime.bigint();
      const res = await pool.request({ method: 'POST', path: u.pathname, headers: r.headers, body: r.body });
      await res.body.dump();
      latencies[i] = Number(process.hrtime.bigint() - s) / 1e6;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { count: list.length, seconds, rps: list.length / seconds, p50: pct(50), p99: pct(99), statuses };
}

await run(bodies.slice(0, warmup));
const result = await run(bodies.slice(warmup));
await pool.close();
process.stdout.write(JSON.stringify(result) + '\n');
