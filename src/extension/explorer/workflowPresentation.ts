// How a remembered workflow looks in the tree: icon, colour, context tokens, label and Markdown tooltip.
// Pure (no vscode import), so it is unit-tested in plain Node; the tree turns these into ThemeIcons.
import { terminalSafe } from '../../core/presentation';
import { isTerminal, type TrackedWorkflow } from '../../core/workflows';

export interface IconModel {
  /** A codicon id; "~spin" makes it spin. */
  id: string;
  /** A theme colour id. */
  color?: string;
}

export function workflowIcon(w: Pick<TrackedWorkflow, 'status' | 'pollingStopped'>): IconModel {
  switch (w.status) {
    case 'complete':
      return { id: 'pass-filled', color: 'testing.iconPassed' };
    case 'failed':
      return { id: 'error', color: 'testing.iconFailed' };
    case 'cancelled':
      return { id: 'circle-slash', color: 'disabledForeground' };
    case 'processing':
      return w.pollingStopped
        ? { id: 'watch', color: 'list.warningForeground' }
        : { id: 'sync~spin', color: 'charts.blue' };
    default:
      return { id: 'question', color: 'list.warningForeground' };
  }
}

/** Tokens matched by `viewItem =~ /…/` in package.json menus. */
export function workflowContextValue(
  w: Pick<TrackedWorkflow, 'status' | 'reconfirmAvailable' | 'pollingStopped'>,
): string {
  const tokens = ['workflow', `status-${w.status.replace(/[^a-z-]/gi, '')}`];
  if (w.reconfirmAvailable) tokens.push('reconfirmable');
  if (!isTerminal(w.status) && !w.pollingStopped) tokens.push('live');
  return tokens.join(' ');
}

// The service names the product and the status: no control or bidi control of its reaches a label (terminalSafe).
export function workflowLabel(w: Pick<TrackedWorkflow, 'product' | 'productName'>): string {
  return terminalSafe(`${w.product.service} / ${w.product.model}`);
}

export function workflowDescription(w: Pick<TrackedWorkflow, 'status' | 'pollingStopped'>): string {
  return terminalSafe(w.pollingStopped ? `${w.status} · ${w.pollingStopped}` : w.status);
}

/** Markdown-escapes text that came from the service, so it cannot inject links or markup into the tooltip; its
 * controls and bidi controls are written as visible escapes first. */
export function escapeMarkdown(text: string): string {
  return terminalSafe(text)
    .replace(/[\\`*_{}[\]()#+\-.!|~]/g, (c) => `\\${c}`)
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
}

export function workflowTooltip(w: TrackedWorkflow, now: number): string {
  const row = (k: string, v: string | undefined) => `| ${k} | ${v ? escapeMarkdown(v) : '—'} |`;
  const lines = [
    `**${escapeMarkdown(`${w.product.service} / ${w.product.model}`)}** — ${escapeMarkdown(w.status)}`,
    '',
    '| | |',
    '|---|---|',
    row(
      'Product',
      w.productName
        ? `${w.productName} (${w.product.service} / ${w.product.model})`
        : `${w.product.service} / ${w.product.model}`,
    ),
    row('Session', w.sessionId),
    row('correlationId', w.correlationId),
    row('workflowId', w.workflowId),
    row('runId', w.runId),
    row('Started', new Date(w.startedAt).toISOString()),
    row(
      'Last polled',
      w.lastPolledAt ? `${new Date(w.lastPolledAt).toISOString()} (${ago(now - w.lastPolledAt)})` : undefined,
    ),
    row('Reconfirm', w.reconfirmAvailable ? 'available' : 'not available'),
  ];
  if (w.pollingStopped)
    lines.push('', `Polling stopped: ${escapeMarkdown(w.pollingStopped)}. Refresh to read it again.`);
  if (w.lastError) lines.push('', `Last error: ${escapeMarkdown(w.lastError)}`);
  for (const m of w.messages ?? [])
    lines.push('', `Message ${escapeMarkdown(String(m.code))}${m.text ? `: ${escapeMarkdown(String(m.text))}` : ''}`);
  return lines.join('\n');
}
