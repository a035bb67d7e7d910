// How a remembered workflow looks in the tree: icon, colour, context tokens, label, Markdown tooltip and its state
// in words. Pure but for vscode.l10n.t, so it is unit-tested in plain Node (with a stand-in l10n); the tree turns
// these into ThemeIcons.
import * as vscode from 'vscode';
import { isSaid, terminalSafe } from '../../core/presentation';
import { inUserWords } from '../coreWords';
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

/** The service's status in the display language; a status this version does not know is data: shown as sent,
 * quoted. */
export function workflowStatusWords(status: string): string {
  switch (status) {
    case 'complete':
      return vscode.l10n.t('complete');
    case 'failed':
      return vscode.l10n.t('failed');
    case 'cancelled':
      return vscode.l10n.t('cancelled');
    case 'processing':
      return vscode.l10n.t('processing');
    default:
      return vscode.l10n.t('"{0}"', terminalSafe(status));
  }
}

/** Why polling stopped, in the display language of the moment: the store keeps a reason; a record from an older
 * version holds its words as text, shown as they are. */
function pollingStoppedWords(reason: string): string {
  switch (reason) {
    case 'deadline':
      return vscode.l10n.t('polling deadline reached');
    case 'error':
      return vscode.l10n.t('polling stopped by an error');
    default:
      return terminalSafe(reason);
  }
}

/** The last error met while polling: core's Said worded now when it was kept (and is one), else its English. */
function lastErrorWords(w: Pick<TrackedWorkflow, 'lastError' | 'lastErrorSaid'>): string | undefined {
  return isSaid(w.lastErrorSaid) ? inUserWords(w.lastErrorSaid) : w.lastError;
}

export function workflowDescription(w: Pick<TrackedWorkflow, 'status' | 'pollingStopped'>): string {
  const status = workflowStatusWords(w.status);
  return w.pollingStopped ? vscode.l10n.t('{0} · {1}', status, pollingStoppedWords(w.pollingStopped)) : status;
}

/** What a screen reader says for the row: the icon shows the state only to the eye. */
export function workflowAccessibleLabel(w: TrackedWorkflow): string {
  return w.pollingStopped
    ? vscode.l10n.t(
        '{0}, {1}, polling stopped: {2}, workflow {3}',
        workflowLabel(w),
        workflowStatusWords(w.status),
        pollingStoppedWords(w.pollingStopped),
        terminalSafe(w.workflowId),
      )
    : vscode.l10n.t(
        '{0}, {1}, workflow {2}',
        workflowLabel(w),
        workflowStatusWords(w.status),
        terminalSafe(w.workflowId),
      );
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
  if (s < 60) return vscode.l10n.t('{0} s ago', s);
  const m = Math.round(s / 60);
  return m < 60 ? vscode.l10n.t('{0} min ago', m) : vscode.l10n.t('{0} h ago', Math.round(m / 60));
}

export function workflowTooltip(w: TrackedWorkflow, now: number): string {
  const row = (k: string, v: string | undefined) => `| ${k} | ${v ? escapeMarkdown(v) : '—'} |`;
  const lines = [
    `**${escapeMarkdown(`${w.product.service} / ${w.product.model}`)}** — ${escapeMarkdown(workflowStatusWords(w.status))}`,
    '',
    '| | |',
    '|---|---|',
    row(
      vscode.l10n.t('Product'),
      w.productName
        ? `${w.productName} (${w.product.service} / ${w.product.model})`
        : `${w.product.service} / ${w.product.model}`,
    ),
    row(vscode.l10n.t('Session'), w.sessionId),
    row('correlationId', w.correlationId),
    row('workflowId', w.workflowId),
    row('runId', w.runId),
    row(vscode.l10n.t('Started'), new Date(w.startedAt).toISOString()),
    row(
      vscode.l10n.t('Last polled'),
      w.lastPolledAt ? `${new Date(w.lastPolledAt).toISOString()} (${ago(now - w.lastPolledAt)})` : undefined,
    ),
    row(vscode.l10n.t('Reconfirm'), w.reconfirmAvailable ? vscode.l10n.t('available') : vscode.l10n.t('not available')),
  ];
  if (w.pollingStopped)
    lines.push(
      '',
      vscode.l10n.t(
        'Polling stopped: {0}. Refresh to read it again.',
        escapeMarkdown(pollingStoppedWords(w.pollingStopped)),
      ),
    );
  const lastError = lastErrorWords(w);
  if (lastError) lines.push('', vscode.l10n.t('Last error: {0}', escapeMarkdown(lastError)));
  for (const m of w.messages ?? [])
    lines.push(
      '',
      m.text
        ? vscode.l10n.t('Message {0}: {1}', escapeMarkdown(String(m.code)), escapeMarkdown(String(m.text)))
        : vscode.l10n.t('Message {0}', escapeMarkdown(String(m.code))),
    );
  return lines.join('\n');
}
