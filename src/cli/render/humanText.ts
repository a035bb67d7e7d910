// The human face of wfs: one function per event kind turns a JSON line (the same object a script gets) into a few
// short lines of text. An event without its own function is shown by the generic one, so no event is ever lost.
import type { Style } from './style';
import { listInWords } from '../flags';
import { PROBE_RENDERERS } from './probeText';
import { SERVER_RENDERERS } from './serverText';
import { KEYS_RENDERERS } from './keysText';
import { PUBLIC_PATH_RENDERERS } from './publicPathText';
import { terminalSafeDeep } from '../../core/presentation';

type Line = Record<string, any>;
type Render = (line: Line, s: Style) => string;

/** Where a rendered line goes: errors and warnings to stderr, as gh does, so a pipe of the text keeps only results. */
export interface Rendered {
  text: string;
  stream: 'stdout' | 'stderr';
}

/** A workflow status, coloured (green complete, red failed/cancelled, yellow otherwise), padded to `width` first. */
function statusWord(status: unknown, s: Style, width = 0): string {
  const word = String(status ?? '?');
  const cell = word.padEnd(width);
  if (word === 'complete') return s.green(cell);
  if (word === 'failed' || word === 'cancelled') return s.red(cell);
  return s.yellow(cell);
}

const time = (iso: unknown) => (typeof iso === 'string' ? iso.slice(11, 19) : '');
const seconds = (ms: unknown) => `${(Number(ms) / 1000).toFixed(1)} s`;

/** Two aligned columns of label and value, values already styled. */
function table(rows: [string, string][], indent = '  '): string {
  const width = Math.max(...rows.map(([a]) => a.length)) + 2;
  return rows.map(([a, b]) => `${indent}${a.padEnd(width)}${b}`).join('\n');
}

const RENDERERS: Record<string, Render> = {
  ...PROBE_RENDERERS,
  ...SERVER_RENDERERS,
  ...KEYS_RENDERERS,
  ...PUBLIC_PATH_RENDERERS,
  started: (l, s) => {
    const w = l.workflow ?? {};
    const product = w.product ? `${w.product.service} ${w.product.model}` : '';
    return [
      `${s.green('✓')} Started workflow ${s.bold(String(w.workflowId))}${product ? ` (${product})` : ''}: ${statusWord(w.status, s)}`,
      table([
        ['correlationId', String(l.correlationId)],
        ['session', String(w.sessionId ?? '')],
      ]),
      s.dim(`  follow it: wfs status --follow --workflow ${w.workflowId}`),
    ].join('\n');
  },
  status: (l, s) => {
    const w = l.workflow ?? {};
    return `${s.dim(time(l.at))}  ${statusWord(w.status, s, 10)}  ${w.workflowId}${w.runId ? s.dim(`  run ${w.runId}`) : ''}`;
  },
  backoff: (l, s) =>
    `${s.yellow('…')} the service is throttling (${l.status}): waiting ${seconds(l.delayMs)} before attempt ${Number(l.attempt) + 1}`,
  warning: (l, s) => `${s.yellow('!')} ${l.message}`,
  reconnected: (l, s) => `${s.green('✓')} ${l.message}`,
  'sandbox-registered': (l, s) => `${s.green('✓')} ${l.message}`,
  sent: (l, s) => {
    const r = l.response ?? {};
    // The outcome is core's reading of the endpoint's answer (core/webhooks/testWebhookOutcome.ts).
    const o = l.outcome ?? {};
    return `${o.failed ? s.red('✗') : s.green('✓')} Test webhook ${l.webhookId}${l.headerWebhookId ? ` (X-Svc-Webhook-Id ${l.headerWebhookId})` : ''} sent${r.address ? ` to ${r.address}` : ''}: ${o.summary}`;
  },
  'fixture-sent': (l, s) => {
    const head = `${l.passed ? s.green('✓') : s.red('✗')} ${s.dim(`[${l.index}/${l.total}]`)} ${l.file}`;
    if (typeof l.error === 'string') return `${head}: ${l.error} (waited ${l.latencyMs} ms)`;
    const answer = String(l.answer ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    const shown = answer.length > 200 ? `${answer.slice(0, 200)}…` : answer;
    const expected = Array.isArray(l.expected) ? l.expected.join(' or ') : String(l.expected);
    const status = l.passed ? String(l.status) : s.red(`${l.status} (expected ${expected})`);
    return `${head} → ${status} in ${l.latencyMs} ms${shown ? `  ${s.dim(shown)}` : ''}`;
  },
  'fixture-invalid': (l, s) =>
    [
      `${s.red('✗')} ${s.dim(`[${l.index}/${l.total}]`)} ${l.file}: not sent, ${l.plainEvent ? 'the event body cannot be sent as it is' : 'the fixture is invalid'}`,
      ...(l.problems ?? []).map(
        (p: Line) => `    ${p.line ? `${p.line}:${p.column} ` : ''}${p.field ? `${p.field}: ` : ''}${p.message}`,
      ),
    ].join('\n'),
  'fixture-written': (l, s) =>
    [
      `${s.green('✓')} Wrote the fixture ${s.bold(String(l.file))}: ${l.topic} (${l.subTopic}), tenant ${l.tenant}`,
      s.dim(`  send it: wfs send ${l.file} --to URL`),
    ].join('\n'),
  'signing-sandbox': (l, s) =>
    `${s.dim('Signing with a sandbox started here:')} your receiver must trust issuer ${l.issuer}, audience ${l.audience}, jwksUrl ${l.jwksUrl}`,
  'send-summary': (l, s) =>
    `${l.failed || l.invalid || l.notSent ? s.red('✗') : s.green('✓')} ${l.passed} of ${l.total} fixture(s) answered as expected by ${l.to}${l.failed ? `, ${l.failed} did not` : ''}${l.invalid ? `, ${l.invalid} invalid (not sent)` : ''}${l.notSent ? `, ${l.notSent} not sent` : ''} (${seconds(l.elapsedMs)})`,
  found: (l, s) => {
    const rows: string[] = (l.workflows ?? []).map(
      (w: Line) =>
        `  ${String(w.workflowId).padEnd(24)}  ${statusWord(w.status, s, 10)}  ${s.dim(String(w.createdAt ?? w.runId ?? ''))}`,
    );
    return [
      `${s.green('✓')} ${rows.length} workflow${rows.length === 1 ? '' : 's'} with correlationId ${l.correlationId}:`,
      ...rows,
      ...(l.note ? [s.dim(`  ${l.note}`)] : []),
    ].join('\n');
  },
  none: (l, s) =>
    [
      `No workflow has correlationId ${l.correlationId}: nothing was started with it, so starting again bills once.`,
      ...(l.note ? [s.dim(`  ${l.note}`)] : []),
    ].join('\n'),
  env: (l, s) => {
    const rows: [string, string][] = [
      ['service', String(l.baseUrl ?? s.red('not set (WFS_BASE_URL)'))],
      // Without its own variable the test endpoint is the service's; with neither set there is nothing to show.
      [
        'webhook test',
        l.testWebhookUrl
          ? `${l.testWebhookUrl}${l.testWebhookUrl === l.baseUrl ? s.dim(' (the service: WFS_TEST_WEBHOOK_URL not set)') : ''}`
          : s.dim('the service (WFS_TEST_WEBHOOK_URL not set)'),
      ],
      ['user', String(l.username ?? s.red('not set (WFS_USERNAME)'))],
      ['password', l.passwordSet ? 'set' : s.red('not set (WFS_PASSWORD)')],
      ...(l.userAlias ? ([['user alias', String(l.userAlias)]] as [string, string][]) : []),
      ['proxy', l.proxy ? String(l.proxy) : 'none (direct)'],
      ...(l.noProxy ? ([['no proxy for', String(l.noProxy)]] as [string, string][]) : []),
    ];
    const missing = (l.missing ?? []) as string[];
    return [
      table(rows, ''),
      ...(missing.length
        ? [
            s.red(
              `${listInWords(missing)} ${missing.length === 1 ? 'is' : 'are'} not set: the service commands need ${missing.length === 1 ? 'it' : 'them'}`,
            ),
          ]
        : []),
    ].join('\n');
  },
  'signed-in': (l, s) =>
    `${s.green('✓')} Signed in to ${l.origin} as ${l.username}${l.accessExpiresInSeconds !== undefined ? `: the access token lasts ${l.accessExpiresInSeconds} s (until ${l.accessExpiresAt}), the refresh token until ${l.refreshExpiresAt}` : ''}. Nothing was stored.`,
  error: (l, s) => {
    const lines = [`${s.red('✗')} ${l.message ?? l.kind}`];
    const facts: [string, string][] = [];
    if (l.correlationId) facts.push(['correlationId', String(l.correlationId)]);
    if (l.status !== undefined && typeof l.status === 'number') facts.push(['HTTP status', String(l.status)]);
    if (l.code) facts.push(['code', String(l.code)]);
    if (facts.length) lines.push(table(facts));
    return lines.join('\n');
  },
};

/** Any other event: its name, then its scalar fields as key=value. */
function generic(l: Line, s: Style): string {
  const { event, ...rest } = l;
  const fields = Object.entries(rest)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${s.dim(k + '=')}${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return `${s.cyan(String(event ?? 'line'))}  ${fields.join('  ')}`;
}

/** Every string of the event is made terminal-safe before any renderer sees it: topics, ids, details, answer bodies,
 * error messages and file names come from outside, and a renderer cannot forget one. Only the styles' own escape
 * sequences reach the terminal raw. */
export function renderHuman(line: Line, s: Style): Rendered {
  const render = RENDERERS[String(line.event)] ?? generic;
  const stream = line.event === 'error' || line.event === 'warning' || line.event === 'backoff' ? 'stderr' : 'stdout';
  return { text: render(terminalSafeDeep(line), s) + '\n', stream };
}
