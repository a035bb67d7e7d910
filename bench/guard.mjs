// The receiver's performance goal, as a guard of the bench (never a test): ours at most 1.15× the least history bounded
// as ours must be in CPU per delivery, and at most 1 ms of added latency at p99. `node bench/bound.mjs --guard`
// measures both and, with --write, puts its section in bench/results.md; `npm run bench` rewrites the rest of that
// file and keeps the section as it was.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const CPU_GOAL = 1.15;
export const ADDED_P99_GOAL_MS = 1;

const START = '<!-- guard: written by `node bench/bound.mjs --guard --write`; npm run bench keeps it -->';
const END = '<!-- /guard -->';

/** The guard's verdict from a bound.mjs report: the CPU ratio's median and 95% interval, the added latency. */
export function guardVerdict(cpuRatio, latency) {
  const [median, low, high] = cpuRatio.match(/[\d.]+/g).map(Number);
  return {
    cpu: { goal: `ours ÷ leastBounded ≤ ${CPU_GOAL}`, median, low, high, holds: high <= CPU_GOAL },
    latency: {
      goal: `added p99 < ${ADDED_P99_GOAL_MS} ms`,
      ...latency,
      holds: latency.addedP99Ms < ADDED_P99_GOAL_MS,
    },
  };
}

/** The section of bench/results.md, in Markdown. where: the machine and the date; note: what else ran on it. */
export function guardMarkdown(report, where, note) {
  const { cpu, latency } = report.guard;
  const verdict = (held) => (held ? 'holds' : '**does not hold**');
  const command = `node bench/bound.mjs ${report.rounds} ${Object.keys(report.cpuUsPerDelivery).join(',')}${report.together ? ' --together' : ''} --guard`;
  const others = Object.entries(latency.others ?? {})
    .map(([name, o]) => `; ${name} added p99 ${o.addedP99Ms} ms, p50 ${o.addedP50Ms} ms`)
    .join('');
  // Bare http's own p99 over the goal: the machine stalls more than the goal allows, whatever the receiver does.
  const noisy =
    latency.bareP99Ms >= ADDED_P99_GOAL_MS
      ? ` (bare http's own p99 is ${latency.bareP99Ms} ms here: the machine stalls more than the goal; judge it on a quieter one)`
      : '';
  const compared = Object.keys(report.cpuUsPerDelivery)
    .filter((n) => n.startsWith('compared'))
    .map(
      (n) =>
        `| for comparison, in the same rounds: ${n} ÷ the bounded least history; ${n} ÷ ours | ${report.ratios[`${n} ÷ leastBounded`]}; ${report.ratios[`${n} ÷ ours`]} | |`,
    );
  return [
    START,
    '',
    '## Guard: ours against the least history bounded as ours must be',
    '',
    `\`${command}\`, ${where}${note ? `. ${note}` : ''}.`,
    '',
    '| goal | measured | |',
    '|---|---|---|',
    `| CPU per delivery: ours ≤ ${CPU_GOAL}× the bounded least history (the upper end of the interval counts) | ${cpu.median.toFixed(3)}× (95% interval ${cpu.low.toFixed(3)}–${cpu.high.toFixed(3)}; median of ${report.rounds} paired rounds; ours ${report.cpuUsPerDelivery.ours} µs, bounded ${report.cpuUsPerDelivery.leastBounded} µs) | ${verdict(cpu.holds)} |`,
    ...compared,
    `| added latency over bare http, one delivery at a time: p99 < ${ADDED_P99_GOAL_MS} ms | p99 ${latency.addedP99Ms} ms, p50 ${latency.addedP50Ms} ms (${latency.pairs} pairs; bare http's own latency: p50 ${latency.bareP50Ms} ms, p99 ${latency.bareP99Ms} ms${others}) | ${verdict(latency.holds)}${noisy} |`,
    '',
    END,
    '',
  ].join('\n');
}

/** The guard's section as the file holds it, or ''. */
export function keptGuard(file) {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END, start);
  return start < 0 || end < 0 ? '' : `${text.slice(start, end + END.length)}\n`;
}

/** Puts the section in the file, in place of the one it held, or at its end. */
export function writeGuard(file, section) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const old = keptGuard(file);
  writeFileSync(
    file,
    old ? text.replace(old, section) : `${text}${text.endsWith('\n') || !text ? '' : '\n'}\n${section}`,
  );
}
