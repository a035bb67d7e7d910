// The CLI's start-up over Node's own, on the same machine, paired: `node -e 0`, then `wfs --help` (A B A B …), then
// `node -e 0` and `wfs mcp` to its ready line, `runs` pairs each. A busy moment costs both of a pair alike; each figure
// is the median, each ratio the median of the pairs' ratios. Goals (#75): `wfs --help` ≤ 1.3× `node -e 0`, and
// `wfs mcp` ready ≤ 250 ms, on an idle machine.
//
// Too loaded to judge: the figures say so, and are not a verdict, when `node -e 0`'s median is above
// LOADED_FACTOR × its idle figure (IDLE_NODE_MS, this project's reference machine idle; --idle-node-ms to give your
// machine's), or when the 1-minute load average, before or after, reached the number of cores. A loaded machine
// stretches every process by its wait for a core, which is not the CLI's own cost: at 577 ms for `node -e 0` a 50 ms
// difference is within the noise.
// Usage alone: node bench/cliStartup.mjs [RUNS] [--idle-node-ms MS] (after `node esbuild.mjs --production --cli-package`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `node -e 0` on the reference machine (AMD EPYC, 2 cores, Node 20.20.2) with nothing else running (#75). */
export const IDLE_NODE_MS = 69;
/** Above this many times its idle figure, `node -e 0` says the machine is too loaded to judge start-up. */
export const LOADED_FACTOR = 1.5;
export const GOALS = { helpRatio: 1.3, mcpReadyMs: 250 };

/** Only PATH: no WFS_* variable of the shell changes what `wfs mcp` starts. */
const ENV = { PATH: process.env.PATH ?? '' };

function timedMs(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: ENV });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** From spawn to `wfs mcp`'s ready line on stderr (stdio: it serves its own sandbox and receiver); then it is closed. */
function mcpReadyMs(cli) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'mcp'], { stdio: ['pipe', 'ignore', 'pipe'], env: ENV });
    let err = '';
    let ms;
    child.stderr.on('data', (d) => {
      err += d;
      if (ms === undefined && err.includes('"event":"ready"')) {
        ms = performance.now() - t0;
        child.stdin.end(); // the client closing stdin ends the session
      }
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      ms === undefined ? reject(new Error(`wfs mcp exited ${code} before its ready line: ${err}`)) : resolve(ms),
    );
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (v, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim();
  } catch {
    return undefined; // not Linux: the load is judged by `node -e 0` alone
  }
}

/** Why the machine was too loaded to judge, or undefined. */
export function tooLoaded({ nodeMs, loadBefore, loadAfter, cores, idleNodeMs = IDLE_NODE_MS }) {
  const reasons = [];
  if (nodeMs > LOADED_FACTOR * idleNodeMs)
    reasons.push(`\`node -e 0\` took ${nodeMs} ms, above ${LOADED_FACTOR}× its idle ${idleNodeMs} ms`);
  const busiest = Math.max(...[loadBefore, loadAfter].filter(Boolean).map((l) => Number(l.split(' ')[0])));
  if (busiest >= cores) reasons.push(`the 1-minute load average was ${busiest} on ${cores} cores`);
  return reasons.length ? reasons.join('; ') : undefined;
}

/** The CLI as its package installs it (`node esbuild.mjs --production --cli-package`), else the repository's build.
 * The difference is real: Node reads the nearest package.json to learn a file's module type, and dist/cli.js's is the
 * extension's manifest (65 KB), where the package's is 1 KB. */
function defaultCli() {
  const packaged = join(root, 'dist', 'cli-package', 'cli.js');
  return existsSync(packaged) ? packaged : join(root, 'dist', 'cli.js');
}

export async function measureCliStartup({ runs = 20, cli = defaultCli(), idleNodeMs } = {}) {
  const loadBefore = loadAverage();
  const help = [cli, '--help'];
  const node = ['-e', '0'];
  for (const args of [node, help, [cli, '--version']]) timedMs(args); // warm the file cache
  await mcpReadyMs(cli);
  const pairs = { node: [], help: [], helpRatio: [], nodeMcp: [], mcp: [] };
  for (let i = 0; i < runs; i++) {
    const n = timedMs(node);
    const h = timedMs(help);
    pairs.node.push(n);
    pairs.help.push(h);
    pairs.helpRatio.push(h / n);
  }
  for (let i = 0; i < runs; i++) {
    pairs.nodeMcp.push(timedMs(node));
    pairs.mcp.push(await mcpReadyMs(cli));
  }
  const loadAfter = loadAverage();
  const nodeMs = round(median([...pairs.node, ...pairs.nodeMcp]));
  const cores = cpus().length;
  const loaded = tooLoaded({ nodeMs, loadBefore, loadAfter, cores, idleNodeMs });
  const helpRatio = round(median(pairs.helpRatio), 2);
  const mcpReadyMedian = round(median(pairs.mcp));
  return {
    runs,
    cli: relative(root, cli),
    nodeMs,
    helpMs: round(median(pairs.help)),
    helpRatio,
    mcpReadyMs: mcpReadyMedian,
    nodeMsBesideMcp: round(median(pairs.nodeMcp)),
    loadBefore,
    loadAfter,
    cores,
    idleNodeMs: idleNodeMs ?? IDLE_NODE_MS,
    tooLoaded: loaded ?? null,
    goals: GOALS,
    // No verdict on a loaded machine: its figures are recorded, not judged.
    holds: loaded ? null : { help: helpRatio <= GOALS.helpRatio, mcp: mcpReadyMedian <= GOALS.mcpReadyMs },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const idle = args.indexOf('--idle-node-ms');
  const idleNodeMs = idle >= 0 ? Number(args[idle + 1]) : undefined;
  const runs = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--idle-node-ms') ?? 20);
  console.log(JSON.stringify(await measureCliStartup({ runs, idleNodeMs })));
}
