// `wfs --help` and `wfs --version` against `node -e 0`: the CLI's start-up over Node's own, on the same machine.
// The three are run in turn, `runs` times each, so a busy moment costs each of them alike; each figure is the median.
// Usage alone: node bench/cliStartup.mjs [RUNS] (after `npm run build`).
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function timedMs(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (v) => Math.round(v * 10) / 10;

export function measureCliStartup({ runs = 20, cli = join(root, 'dist', 'cli.js') } = {}) {
  const cases = { node: ['-e', '0'], help: [cli, '--help'], version: [cli, '--version'] };
  const times = { node: [], help: [], version: [] };
  for (const args of Object.values(cases)) timedMs(args); // warm the file cache
  for (let i = 0; i < runs; i++) for (const [name, args] of Object.entries(cases)) times[name].push(timedMs(args));
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, round(median(v))]));
  return {
    runs,
    nodeMs: m.node,
    helpMs: m.help,
    versionMs: m.version,
    helpRatio: Math.round((m.help / m.node) * 100) / 100,
    versionRatio: Math.round((m.version / m.node) * 100) / 100,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(measureCliStartup({ runs: Number(process.argv[2] ?? 20) })));
}
