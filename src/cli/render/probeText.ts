// The human face of `wfs probe-service`: one aligned line per row (its mark, verdict, row and what the service
// did), the verdict's words beneath a row that is not simply as the spec says, and the summary.
import type { Style } from './style';

type Line = Record<string, any>;

const VERDICT_WIDTH = 22;
const ID_WIDTH = 24;

function mark(l: Line, s: Style): string {
  if (l.verdict === 'differs') return s.red('✗');
  if (l.verdict === 'not-probed') return s.dim('–');
  if (l.verdict === 'silent') return l.matchesSandbox ? s.cyan('≈') : s.yellow('?');
  return s.green('✓');
}

const WORDS: Record<string, string> = {
  'as-spec': 'as the spec says',
  silent: 'spec silent',
  differs: 'differs from the spec',
  'not-probed': 'not probed',
};

export const PROBE_RENDERERS: Record<string, (l: Line, s: Style) => string> = {
  probing: (l, s) =>
    [
      `Checking ${l.origin} against the contract (${l.plannedRequests} requests at most, ${l.spacingMs} ms apart; none can bill)`,
      ...(l.findWorkflowsDefault
        ? [s.dim(`  Find Workflows: the sandbox's path, as wfs find uses it (WFS_FIND_WORKFLOWS_URL names another)`)]
        : []),
    ].join('\n'),
  'probe-row': (l, s) => {
    const words = String(WORDS[l.verdict] ?? l.verdict).padEnd(VERDICT_WIDTH);
    const first = `${mark(l, s)} ${words} ${String(l.id).padEnd(ID_WIDTH)} ${l.serviceText}`;
    if (l.verdict === 'as-spec') return first;
    if (l.verdict === 'silent' && l.matchesSandbox) return `${first}  ${s.dim('(as the sandbox does)')}`;
    const below = l.verdict === 'silent' ? `the sandbox: ${l.sandbox}` : String(l.verdictText);
    return `${first}\n${' '.repeat(2 + VERDICT_WIDTH + 1)}${s.dim(below)}`;
  },
  'probe-summary': (l, s) => {
    const colour = l.counts?.differs > 0 || l.ended !== 'complete' ? s.red : s.green;
    return colour(String(l.summary));
  },
  written: (l) => `Wrote the ${l.what} to ${l.file}`,
};
