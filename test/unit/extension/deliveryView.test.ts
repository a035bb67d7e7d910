// The webhook panel's view model: rows, filters, detail (hex for non-UTF-8, JWT dates), curl, export, CSP.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { DeliveryRecord } from '../../../src/core/webhooks/DeliveryLog';
import { curlCommand, deliveryDetail, deliveryRow, exportJson, filterRows, hexDump } from '../../../src/extension/panel/deliveryView';
import { contentSecurityPolicy, newNonce, panelHtml } from '../../../src/extension/panel/panelHtml';

const T = '2026-11-22T10:00:00.1234567Z';
const body = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');

function record(over: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: 'd1',
    receivedAt: '2026-11-22T10:00:01.000Z',
    method: 'POST',
    path: '/webhooks',
    headers: { 'content-type': 'application/json', authorization: 'Bearer <redacted, 812 characters>', 'x-svc-topic': 'workflow/completed' },
    rawBodyBase64: body({ webhookId: 'w-1', topic: 'workflow/completed', subTopic: 'event:workflow/completed', triggeredAt: T, data: { runId: 'wfrun_1' } }),
    bodyIsUtf8: true,
    parsedBody: { webhookId: 'w-1', topic: 'workflow/completed', subTopic: 'event:workflow/completed', triggeredAt: T, data: { runId: 'wfrun_1' } },
    checks: [1, 2, 3, 4, 5, 6, 7].map((step) => ({ step, name: `s${step}`, ok: true, detail: 'ok' })),
    verified: true,
    status: 200,
    durationMs: 1.25,
    duplicate: false,
    webhookId: 'w-1',
    topic: 'workflow/completed',
    runId: 'wfrun_1',
    jwt: { header: { alg: 'RS256', kid: 'k1' }, claims: { iss: 'i', aud: 'a', iat: 1795341600, exp: 1795341900 } },
    ...over,
  };
}

const refused = record({
  id: 'd2',
  verified: false,
  status: 403,
  parsedBody: undefined,
  topic: undefined,
  runId: undefined,
  rawBodyBase64: body({ topic: 'evil/topic', data: { runId: 'wfrun_9' }, note: '<img src=x onerror=alert(1)>' }),
  checks: [
    { step: 1, name: 'bearer token', ok: true, detail: 'ok' },
    { step: 2, name: 'trusted issuer', ok: false, detail: 'issuer "https://evil" is not trusted' },
    { step: 7, name: 'decision', ok: false, detail: 'refused with 403' },
  ],
});

describe('webhook panel view model', () => {
  it('a row keeps triggeredAt to all 7 digits, with topic, subTopic, status, badge data and latency', () => {
    const row = deliveryRow(record());
    assert.equal(row.triggeredAt, T);
    assert.deepEqual([row.topic, row.subTopic, row.status, row.verified, row.duplicate, row.latencyMs, row.runId], ['workflow/completed', 'event:workflow/completed', 200, true, false, 1.25, 'wfrun_1']);
    assert.equal(row.failedCheck, undefined);
  });

  it('a refused row names the failed step; its body is read for display only (topic shown, runId not trusted for the tree)', () => {
    const row = deliveryRow(refused);
    assert.equal(row.failedCheck, 'step 2 trusted issuer');
    assert.equal(row.topic, 'evil/topic');
    assert.equal(row.runId, 'wfrun_9', 'shown, so the panel can jump; the tree only lists verified deliveries');
  });

  it('filters by topic, status, verified/refused and free text; newest first', () => {
    const all = [record(), refused, record({ id: 'd3', status: 500, headers: { 'x-svc-tenant-id': 'tenant-42' } })];
    assert.deepEqual(filterRows(all, {}).map((r) => r.id), ['d3', 'd2', 'd1']);
    assert.deepEqual(filterRows(all, { verification: 'refused' }).map((r) => r.id), ['d2']);
    assert.deepEqual(filterRows(all, { verification: 'verified' }).map((r) => r.id), ['d3', 'd1']);
    assert.deepEqual(filterRows(all, { status: 500 }).map((r) => r.id), ['d3']);
    assert.deepEqual(filterRows(all, { topic: 'evil/topic' }).map((r) => r.id), ['d2']);
    assert.deepEqual(filterRows(all, { text: 'TENANT-42' }).map((r) => r.id), ['d3'], 'header text, case-insensitive');
    assert.deepEqual(filterRows(all, { text: 'onerror' }).map((r) => r.id), ['d2'], 'body text');
  });

  it('detail: headers, raw text, pretty JSON, JWT dates and time to expiry at arrival, checks, response', () => {
    const d = deliveryDetail(record());
    assert.equal(d.rawText, Buffer.from(record().rawBodyBase64, 'base64').toString('utf8'));
    assert.equal(d.hex, undefined);
    assert.match(d.prettyJson!, /\n {2}"webhookId": "w-1"/);
    assert.deepEqual(d.jwt!.dates.map((x) => [x.claim, x.iso]), [['iat', '2026-11-22T10:00:00.000Z'], ['exp', '2026-11-22T10:05:00.000Z']]);
    assert.equal(d.jwt!.expiresInSecondsAtArrival, 299);
    assert.equal(d.checks.length, 7);
    assert.deepEqual(d.response, { status: 200, durationMs: 1.25 });
    assert.ok(d.headers.some(([k, v]) => k === 'authorization' && v.startsWith('Bearer <redacted')), 'the token itself is never there');
  });

  it('a non-UTF-8 body is shown as hex, byte for byte', () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x41, 0x7d]);
    const d = deliveryDetail(record({ rawBodyBase64: raw.toString('base64'), bodyIsUtf8: false, parsedBody: undefined }));
    assert.equal(d.rawText, undefined);
    assert.equal(d.hex, `00000000  ${'7b ff fe 00 41 7d'.padEnd(47)}  {...A}`);
    assert.equal(d.bodyBytes, 6);
    assert.match(hexDump(Buffer.alloc(40)), /^00000020 {2}00 00/m);
  });

  it('copy as curl reproduces the exact body bytes, without the original token', () => {
    const nasty = Buffer.from(`{"a":"it's \\"quoted\\" $HOME \`x\`"}`);
    const cmd = curlCommand(record({ rawBodyBase64: nasty.toString('base64') }), 'http://127.0.0.1:9/webhooks');
    assert.ok(!/redacted/.test(cmd));
    assert.match(cmd, /Authorization: Bearer \$WFS_WEBHOOK_TOKEN/);
    // What the shell would pass to curl as the body: evaluate the quoted argument with a real shell.
    const quoted = cmd.split('--data-binary ')[1]!;
    assert.equal(execFileSync('sh', ['-c', `printf %s ${quoted}`]).toString(), nasty.toString());
    const binary = curlCommand(record({ rawBodyBase64: Buffer.from([0xff, 0x00, 0x27]).toString('base64'), bodyIsUtf8: false }), 'http://x');
    assert.match(binary, /^printf %s '\/wAn' \| base64 -d \| curl/);
    assert.deepEqual(execFileSync('sh', ['-c', binary.split(' | curl')[0]!]), Buffer.from([0xff, 0x00, 0x27]));
  });

  it('export is JSON with every record', () => {
    const parsed = JSON.parse(exportJson([record(), refused]));
    assert.equal(parsed.count, 2);
    assert.deepEqual(parsed.deliveries.map((d: DeliveryRecord) => d.id), ['d1', 'd2']);
  });
});

describe('webhook panel HTML', () => {
  it('CSP: default-src none, scripts only by nonce, styles and images only from the webview resource origin', () => {
    const csp = contentSecurityPolicy('https://res.vscode-cdn.net', 'abc');
    assert.equal(csp, "default-src 'none'; style-src https://res.vscode-cdn.net; script-src 'nonce-abc'; img-src https://res.vscode-cdn.net; font-src https://res.vscode-cdn.net");
    assert.ok(!/unsafe-inline|unsafe-eval/.test(csp));
  });

  it('a fresh 144-bit nonce each time, on each of our two script tags (no inline script)', () => {
    const a = newNonce();
    assert.notEqual(a, newNonce());
    assert.equal(Buffer.from(a, 'base64').length, 18);
    const html = panelHtml({ cspSource: 'vscode-resource:', nonce: a, domUri: 'vscode-resource:/media/panel/dom.js', scriptUri: 'vscode-resource:/media/panel/panel.js', styleUri: 'vscode-resource:/media/panel/panel.css' });
    assert.equal(html.match(/<script/g)!.length, 2);
    assert.ok(html.includes(`<script nonce="${a}" src="vscode-resource:/media/panel/dom.js"></script>\n<script nonce="${a}" src="vscode-resource:/media/panel/panel.js"></script>`));
    assert.equal(html.match(/<script nonce="[^"]+" src="[^"]+"><\/script>/g)!.length, 2, 'every script has a src and the nonce');
    assert.ok(!/ on[a-z]+=/.test(html), 'no inline event handlers');
  });
});
