// The receiver's performance goal, as a guard of the bench (never a test): ours at most 1.15× the least history bounded
// as ours must be in CPU per delivery, and at most 1 ms of added latency at p99. `node bench/bound.mjs --guard`
// measures both and, with --write, puts its section in bench/results.md; `npm run bench` rewrites the rest of that
// file and keeps the section as it was.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const CPU_GOAL = 1.15;
export const ADDED_P99_GOAL_MS = 1;

const START = '<!-- guard: written by `node bench/bound.mjs --guard --write`; npm run bench keeps it -->';
const END = '<!-- /guard -->';

/** A figure with its interval, as bound.mjs's withInterval writes it: "1.095 (1.084–1.110)". */
const parsed = (text) => {
  const [median, low, high] = text.match(/-?[\d.]+/g).map(Number);
  return { median, low, high };
};

/** The guard's verdict from a bound.mjs report: the CPU ratio's median and 95% interval, the added latency's. Each
 * holds when the upper end of its interval meets the goal. */
export function guardVerdict(cpuRatio, latency) {
  const cpu = parsed(cpuRatio);
  const added = parsed(latency.addedP99Ms);
  return {
    cpu: { goal: `ours ÷ leastBounded ≤ ${CPU_GOAL}`, ...cpu, holds: cpu.high <= CPU_GOAL },
    latency: {
      goal: `ours' p99 − bare http's p99 < ${ADDED_P99_GOAL_MS} ms`,
      ...latency,
      added,
      holds: added.high < ADDED_P99_GOAL_MS,
    },
  };
}

/** The section of bench/results.md, in Markdown. where: the machine and the date; note: what else ran on it. */
export function guardMarkdown(report, where, note) {
  const { cpu, latency } = report.guard;
  const verdict = (held) => (held ? 'holds' : '**does not hold**');
  const command = `node bench/bound.mjs ${report.rounds} ${Object.keys(report.cpuUsPerDelivery).join(',')}${report.together ? ' --together' : ''} --guard`;
  const ms = (text) => {
    const { median, low, high } = parsed(text);
    return `${median} ms (${low}–${high})`;
  };
  const others = Object.entries(latency.others ?? {})
    .map(([name, o]) => `; ${name}: ${ms(o)}`)
    .join('');
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
    `| added latency, one delivery at a time: ours' p99 − bare http's p99 < ${ADDED_P99_GOAL_MS} ms (the upper end of the interval counts) | ${ms(latency.addedP99Ms)}, median of ${latency.rounds} rounds, each a block of ${latency.deliveriesPerBlock} deliveries to each receiver${others} | ${verdict(latency.holds)} |`,
    `| what the machine alone makes of it: a second bare http's p99 − bare http's p99, in the same rounds | ${ms(latency.machineP99Ms)} | |`,
    `| the latencies themselves (medians of the rounds) | ours p50 ${latency.oursP50Ms} ms; bare http p50 ${latency.bareP50Ms} ms, p99 ${latency.bareP99Ms} ms | |`,
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
