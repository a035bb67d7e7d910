// The delivery history under load, measured on `wfs listen --log` as a separate process (the same Receiver and
// DeliveryHistory as the extension): RSS after many 1 MiB deliveries, restart time on the full history, and what
// writing each record before acknowledging it costs in latency.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';

const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const MiB = 1024 * 1024;

/** `wfs listen` as a child process; resolves with its ready line, its pid and a way to stop it. */
async function listen(root, trust, extra) {
  const args = [
    join(root, 'dist', 'cli.js'),
    'listen',
    '--no-tunnel',
    '--issuer',
    trust.issuer,
    '--audience',
    trust.audience,
    '--jwks-url',
    trust.jwksUrl,
    ...extra,
  ];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let wake;
  createInterface({ input: child.stdout }).on('line', (l) => {
    lines.push(JSON.parse(l));
    wake?.();
  });
  const exited = new Promise((r) => child.once('exit', r));
  const event = async (name) => {
    for (;;) {
      const found = lines.find((l) => l.event === name);
      if (found) return found;
      if (child.exitCode !== null)
        throw new Error(`wfs listen exited before "${name}": ${JSON.stringify(lines.at(-1))}`);
      await new Promise((r) => (wake = r));
    }
  };
  const ready = await event('ready');
  return {
    ready,
    readyMs: performance.now() - t0,
    history: lines.find((l) => l.event === 'history'),
    pid: child.pid,
    stop: async () => (child.kill('SIGTERM'), await exited),
  };
}

/** Resident and peak resident set of a process, in MB (Linux /proc). */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMB: round((kb('VmRSS') * 1024) / 1e6, 1), peakMB: round((kb('VmHWM') * 1024) / 1e6, 1) };
}

function paddedBody(i, size) {
  const head = JSON.stringify({
    webhookId: `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
    topic: 'bench/large',
    data: { i, pad: '' },
  });
  return Buffer.from(head.replace('"pad":""', `"pad":"${'x'.repeat(Math.max(0, size - head.length))}"`));
}

async function post(url, body, token) {
  const t = performance.now();
  const res = await request(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  await res.body.dump();
  return { status: res.statusCode, ms: performance.now() - t };
}

const pct = (xs, p) => {
  const s = xs.slice().sort((a, b) => a - b);
  return round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))], 3);
};

export async function benchHistory({ root, issuer, tiny, quick, log }) {
  const trust = issuer.trust;
  const n = tiny ? 8 : quick ? 200 : 1000;
  const size = tiny ? 64 * 1024 : MiB;
  const file = join(mkdtempSync(join(tmpdir(), 'wfs-bench-history-')), 'deliveries.jsonl');
  const flags = ['--log', file, '--max-body', String(size + 4096)];

  // 1. n deliveries of 1 MiB, 4 in flight.
  const a = await listen(root, trust, flags);
  const before = rss(a.pid);
  log(`history: sending ${n} deliveries of ${size} bytes…`);
  let next = 0;
  let ok = 0;
  let peak = before;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < n) {
        const i = next++;
        const body = paddedBody(i, size);
        if ((await post(a.ready.url, body, issuer.token(body))).status === 200) ok++;
        if (i % 50 === 0) peak = rss(a.pid);
      }
    }),
  );
  const sendSeconds = (performance.now() - t0) / 1000;
  const after = rss(a.pid);
  await a.stop();
  const fileBytes = statSync(file).size;

  // 2. Restart on that history.
  const b = await listen(root, trust, flags);
  const restarted = rss(b.pid);
  await b.stop();

  // 3. Writing before acknowledging: small deliveries one at a time, alternating between a receiver with a log and
  // one without, so both see the same machine state.
  const pairs = tiny ? 20 : quick ? 300 : 2000;
  const withLog = await listen(root, trust, ['--log', join(mkdtempSync(join(tmpdir(), 'wfs-bench-ack-')), 'd.jsonl')]);
  const noLog = await listen(root, trust, []);
  const wl = [];
  const nl = [];
  for (let i = 0; i < pairs + 50; i++) {
    const body = paddedBody(1_000_000 + i, 600);
    const x = await post(withLog.ready.url, body, issuer.token(body));
    const y = await post(noLog.ready.url, body, issuer.token(body));
    if (i >= 50) {
      wl.push(x.ms);
      nl.push(y.ms);
    }
  }
  await withLog.stop();
  await noLog.stop();
  const diffs = wl.map((v, i) => v - nl[i]);

  return {
    deliveries: n,
    bodyBytes: size,
    acknowledged: ok,
    deliveriesPerSecond: round(n / sendSeconds, 1),
    rssBeforeMB: before.rssMB,
    rssAfterMB: after.rssMB,
    peakRssMB: Math.max(after.peakMB, peak.peakMB),
    historyFileMB: round(fileBytes / 1e6, 1),
    restartReadyMs: round(b.readyMs, 0),
    restartLoaded: b.history?.loaded,
    restartSkipped: b.history?.skipped,
    rssAfterRestartMB: restarted.rssMB,
    writeBeforeAck: {
      pairs,
      withLogP50Ms: pct(wl, 50),
      withLogP99Ms: pct(wl, 99),
      withoutLogP50Ms: pct(nl, 50),
      withoutLogP99Ms: pct(nl, 99),
      addedP50Ms: pct(diffs, 50),
      addedP99Ms: pct(diffs, 99),
    },
  };
}
