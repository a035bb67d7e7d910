// The human face of the commands that run until stopped (`wfs sandbox`, `wfs listen`), of `wfs audit`, and of the
// sandbox's control commands: one short line per event, the facts a person acts on first. On the path of
// `wfs --help` (output.ts), so core's light door only.
import { deliveryFaultsText, forwardFailed, forwardLine, type ForwardAnswerRecord } from '../../core';
import type { Style } from './style';

type Line = Record<string, any>;
export type Render = (line: Line, s: Style) => string;

const pairs = (rows: [string, string][], indent = '  ') => {
  const width = Math.max(...rows.map(([a]) => a.length)) + 2;
  return rows.map(([a, b]) => `${indent}${a.padEnd(width)}${b}`).join('\n');
};

const httpStatus = (status: unknown, s: Style) => {
  const n = Number(status);
  const word = String(status);
  return n >= 200 && n < 300 ? s.green(word) : n >= 500 ? s.red(word) : s.yellow(word);
};

const pending = (p: Record<string, number> | undefined) => {
  const entries = Object.entries(p ?? {});
  return entries.length ? entries.map(([k, n]) => `${k} ×${n}`).join(', ') : 'none';
};

/** `wfs sandbox`'s first line: where it is and how to point the other commands at it. */
function sandboxReady(l: Line, s: Style): string {
  const products = (l.products ?? []).map((p: Line) => `${p.service} ${p.model}`).join(', ');
  return [
    `${s.green('✓')} Sandbox ready at ${s.bold(String(l.baseUrl))}`,
    pairs([
      ['user', `${l.username} / ${l.password}`],
      ['sessions', `${l.sessions?.staged} (staged loan), ${l.sessions?.empty} (empty)`],
      ['products', products],
      ['issuer', String(l.issuer)],
      ['audience', String(l.audience)],
      ['key set', String(l.jwksUrl)],
      ['control secret', String(l.controlSecret)],
      ...(l.listeningOn
        ? ([
            [
              'listening on',
              `${l.listeningOn}, every interface (other machines reach it by a name given with --allow-host NAME)`,
            ],
          ] as [string, string][])
        : []),
    ]),
    s.dim('  in another terminal:'),
    s.dim(
      `    export WFS_BASE_URL=${l.baseUrl} WFS_USERNAME=${l.username} WFS_PASSWORD=${l.password} WFS_SANDBOX_SECRET=${l.controlSecret}`,
    ),
    s.dim(
      `    wfs start --session ${l.sessions?.staged} --service ${l.products?.[0]?.service ?? 'S'} --model ${l.products?.[0]?.model ?? 'M'} --follow`,
    ),
    s.dim(`    wfs sandbox fault throttle --count 3 --sandbox-url ${l.baseUrl}`),
    s.dim('  Ctrl-C stops it.'),
  ].join('\n');
}

/** `wfs listen`'s ready line: the address to deliver to, and whom it trusts. */
function listenReady(l: Line, s: Style): string {
  return [
    `${s.green('✓')} Receiver listening at ${s.bold(String(l.url))}`,
    pairs([
      ['public address', l.publicUrl ? String(l.publicUrl) : s.dim('none (loopback only; --tunnel or --public-url)')],
      ['trusts', (l.issuers ?? []).join(', ')],
      ...everyInterfaceRows(l),
    ]),
    s.dim('  each delivery is printed below; Ctrl-C stops it.'),
  ].join('\n');
}

/** Bound to every interface (in a container): the names it answers, and the address the sandbox sends to. */
function everyInterfaceRows(l: Line): [string, string][] {
  if (!l.listeningOn) return [];
  const names = ['loopback names', ...(Array.isArray(l.allowedHosts) ? l.allowedHosts.map(String) : [])];
  return [
    ['listening on', `${l.listeningOn}, every interface; answers ${names.join(', ')} (any other Host: 421)`],
    ...(l.registeredUrl ? ([['sandbox sends to', String(l.registeredUrl)]] as [string, string][]) : []),
  ];
}

/** `wfs mcp --http`'s ready line: where an MCP client connects, with which token, and what the tools reach. */
function mcpReady(l: Line, s: Style): string {
  return [
    `${s.green('✓')} MCP server at ${s.bold(String(l.url))}`,
    pairs([
      ['token', `${l.token}  ${s.dim('(every request: Authorization: Bearer <token>; new at each start)')}`],
      ['tools', String((l.tools ?? []).length)],
      ['deliveries', String(l.deliveries)],
      ['your app', l.forwardTo ? String(l.forwardTo) : s.dim('none (--forward-to URL)')],
      ['signed by', `${l.signer?.issuer} (key set ${l.signer?.jwksUrl})`],
    ]),
    s.dim('  Ctrl-C stops it.'),
  ].join('\n');
}

function delivery(l: Line, s: Style): string {
  const ok = l.verified === true && Number(l.status) < 300;
  const failed = (l.checks ?? []).find((c: Line) => c.ok === false);
  const why = failed ? `step ${failed.step} (${failed.name}): ${failed.detail}` : l.note ? String(l.note) : '';
  const what = [
    l.duplicate ? 'duplicate' : undefined,
    l.verified ? 'verified' : 'not verified',
    l.topic ? String(l.topic) : l.unsigned?.topic ? `${l.unsigned.topic} (unsigned)` : undefined,
    l.webhookId ? String(l.webhookId) : undefined,
    `${l.bytes} bytes`,
  ].filter(Boolean);
  return [
    `${ok ? s.green('✓') : s.red('✗')} ${httpStatus(l.status, s)}  ${what.join('  ')}`,
    ...(why && !ok ? [s.dim(`    ${why}`)] : []),
    ...(l.sandboxFault?.text ? [s.yellow(`    the sandbox's note (unverified): ${l.sandboxFault.text}`)] : []),
    ...((l.forwards ?? []) as ForwardAnswerRecord[]).map(
      (f) => `    ${forwardFailed(f) ? s.red(forwardLine(f)) : s.dim(forwardLine(f))}`,
    ),
  ].join('\n');
}

const sandboxRequest: Render = (l, s) =>
  `${s.dim(String(l.method).padEnd(6))} ${l.path}  ${httpStatus(l.status, s)}  ${s.dim(`${l.durationMs} ms`)}${l.correlationId ? s.dim(`  correlationId ${l.correlationId}`) : ''}`;

const webhookAttempt: Render = (l, s) => {
  const delivered = typeof l.status === 'number' && l.status >= 200 && l.status < 300;
  const outcome = typeof l.status === 'number' ? `answered ${httpStatus(l.status, s)}` : `not delivered: ${l.error}`;
  const next = l.nextAttemptAt ? `; next attempt at ${new Date(l.nextAttemptAt).toISOString().slice(11, 19)}` : '';
  return `${delivered ? s.green('→') : s.red('→')} webhook ${l.topic ?? ''} ${l.webhookId} to ${l.address} (attempt ${l.attempt}): ${outcome}${next}${l.retryRefused ? `; ${l.retryRefused}` : ''}${l.fault ? s.yellow(`  [sandbox fault: ${l.fault}]`) : ''}`;
};

const auditCase: Render = (l, s) => {
  const head = `${l.passed ? s.green('✓') : s.red('✗')} ${String(l.id).padEnd(26)} ${l.title}`;
  if (l.passed) return head;
  return [head, s.dim(`    ${l.detail}`), `    fix: ${l.fix}`].join('\n');
};

const auditSummary: Render = (l, s) => {
  if (l.trustMismatch)
    return `${s.red('✗')} ${s.bold('not audited')}: ${l.target} refused the genuine delivery, so the ${l.notSent} other cases were not sent (see above)`;
  const all = l.failed === 0;
  return [
    `${all ? s.green('✓') : s.red('✗')} ${s.bold(`${l.passed}/${l.total} passed`)}${all ? '' : `, ${l.failed} failed`}: ${l.target}`,
    s.dim(`  it must trust issuer ${l.issuer}, audience ${l.audience}, key set ${l.jwksUrl}`),
  ].join('\n');
};

/** The receiver refused a delivery signed with a key it may not trust (audit, send): the facts, then the fix. */
const trustMismatch: Render = (l, s) =>
  [
    `${s.red('✗')} ${l.message}`,
    pairs(
      [
        ['issuer', String(l.issuer)],
        ['key set', String(l.jwksUrl)],
        ...(l.kid ? ([['kid', String(l.kid)]] as [string, string][]) : []),
        ['audience', String(l.audience)],
        ['answered', `${l.status}${l.answer ? ` ${JSON.stringify(l.answer)}` : ''}`],
      ],
      '    ',
    ),
    `    fix: ${l.fix}`,
  ].join('\n');

const checkInYourCode: Render = (l, s) =>
  l.probed
    ? `${l.passed ? s.green('✓') : s.red('✗')} ${String(l.id).padEnd(26)} ${l.title}${l.passed ? '' : `\n${s.dim(`    ${l.detail}`)}\n    look for: ${l.lookFor}`}`
    : `${s.cyan('?')} ${String(l.id).padEnd(26)} ${l.title} ${s.dim('(check in your code)')}`;

export const SERVER_RENDERERS: Record<string, Render> = {
  ready: (l, s) =>
    l.transport !== undefined ? mcpReady(l, s) : l.baseUrl !== undefined ? sandboxReady(l, s) : listenReady(l, s),
  stopped: (_l, s) => `${s.dim('stopped')}`,
  request: sandboxRequest,
  webhook: webhookAttempt,
  'sandbox-error': (l, s) => `${s.red('✗')} sandbox error: ${l.message}`,
  delivery,
  history: (l, s) =>
    `${s.green('✓')} History ${l.file}: ${l.loaded} deliver${l.loaded === 1 ? 'y' : 'ies'} loaded${l.skipped ? `, ${s.yellow(`${l.skipped} unreadable line(s) skipped`)}` : ''}`,
  'self-test': (l, s) =>
    `${l.ok ? s.green('✓') : s.red('✗')} Public address self-test: ${l.detail}${!l.ok && l.failedHop ? s.dim(` (failed at: ${l.failedHop})`) : ''}`,
  tunnel: (l, s) =>
    `${l.state === 'open' ? s.green('✓') : s.yellow('…')} tunnel ${l.state}${l.publicUrl ? `: ${l.publicUrl}` : ''}`,
  case: auditCase,
  summary: auditSummary,
  'trust-mismatch': trustMismatch,
  'check-in-your-code': checkInYourCode,
  'fault-injected': (l, s) =>
    l.delivery
      ? `${s.green('✓')} Delivery faults now: ${deliveryFaultsText(l.delivery)}\n${s.dim(`  until cleared: wfs sandbox faults --clear`)}`
      : `${s.green('✓')} Injected ${s.bold(String(l.fault))} ×${l.count}${l.after ? ` after ${l.after} request(s)` : ''}; pending now: ${pending(l.pending)}`,
  faults: (l, s) =>
    [
      `Pending faults: ${pending(l.pending)}`,
      s.dim(`  kinds: ${[...(l.kinds ?? []), ...(l.deliveryKinds ?? [])].join(', ')}`),
      `Delivery faults: ${l.delivery ? deliveryFaultsText(l.delivery) : 'none'}`,
    ].join('\n'),
  'faults-cleared': (l, s) => `${s.green('✓')} Faults cleared; pending now: ${pending(l.pending)}`,
  'key-rotated': (l, s) =>
    `${s.green('✓')} The sandbox signs with a new key now: kid ${s.bold(String(l.kid))} (the previous key stays in its key set)`,
  webhooks: (l, s) => {
    const endpoints = (l.endpoints ?? []) as string[];
    if (endpoints.length === 0)
      return `The sandbox sends workflow events to no address.\n${s.dim('  add one: wfs sandbox webhooks add --url URL')}`;
    return `The sandbox sends workflow events to:\n${endpoints.map((e) => `  ${e}`).join('\n')}`;
  },
};
