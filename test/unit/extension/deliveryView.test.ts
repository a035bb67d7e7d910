// The webhook panel's view model: rows, filters, detail (hex for non-UTF-8, JWT dates), curl, export, CSP.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import {
  curlCommand,
  deliveryDetail,
  deliveryRow,
  exportJsonChunks,
  filterRows,
  hexDump,
  rowsWithoutText,
  topicFilterProblem,
} from '../../../src/extension/panel/deliveryView';
import { contentSecurityPolicy, newNonce, panelHtml } from '../../../src/extension/panel/panelHtml';

/** The export as the panel writes it, its chunks joined. */
async function exportJson(...args: Parameters<typeof exportJsonChunks>): Promise<string> {
  let text = '';
  for await (const chunk of exportJsonChunks(...args)) text += chunk;
  return text;
}

const T = '2026-11-22T10:00:00.1234567Z';
const EVENT = {
  webhookId: 'w-1',
  topic: 'workflow/completed',
  subTopic: 'event:workflow/completed',
  triggeredAt: T,
  data: { runId: 'wfrun_1' },
};
const REFUSED_BODY = Buffer.from(
  JSON.stringify({ topic: 'evil/topic', data: { runId: 'wfrun_9' }, note: '<img src=x onerror=alert(1)>' }),
);
const info = (b: Buffer, over: Partial<DeliveryRecord['body']> = {}) => ({
  size: b.length,
  sha256: 'ab'.repeat(32),
  kept: b.length,
  utf8: true,
  ...over,
});
/** The bodies the "history" holds, by record id (DeliveryHistory.body in the product). */
const bodies = new Map<string, Buffer>([
  ['d1', Buffer.from(JSON.stringify(EVENT))],
  ['d2', REFUSED_BODY],
  ['d3', Buffer.from(JSON.stringify(EVENT))],
]);
const readBody = async (id: string) => bodies.get(id);

function record(over: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: 'd1',
    receivedAt: '2026-11-22T10:00:01.000Z',
    method: 'POST',
    path: '/webhooks',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer <redacted, 812 characters>',
      'x-svc-topic': 'workflow/completed',
    },
    body: info(bodies.get('d1')!),
    checks: [1, 2, 3, 4, 5, 6, 7].map((step) => ({ step, name: `s${step}`, ok: true, detail: 'ok' })),
    verified: true,
    status: 200,
    durationMs: 1.25,
    duplicate: false,
    webhookId: 'w-1',
    topic: 'workflow/completed',
    subTopic: 'event:workflow/completed',
    triggeredAt: T,
    runId: 'wfrun_1',
    jwt: { header: { alg: 'RS256', kid: 'k1' }, claims: { iss: 'i', aud: 'a', iat: 1795341600, exp: 1795341900 } },
    ...over,
  };
}

const refused = record({
  id: 'd2',
  verified: false,
  status: 403,
  topic: undefined,
  subTopic: undefined,
  triggeredAt: undefined,
  runId: undefined,
  webhookId: undefined,
  headers: { 'x-svc-topic': 'claimed/topic' },
  body: info(REFUSED_BODY),
  checks: [
    { step: 1, name: 'bearer token', ok: true, detail: 'ok' },
    { step: 2, name: 'trusted issuer', ok: false, detail: 'issuer "https://evil" is not trusted' },
    { step: 7, name: 'decision', ok: false, detail: 'refused with 403' },
  ],
});

describe('webhook panel view model', () => {
  it("marks what came from X-Svc-* headers as unsigned: a test webhook's ids, and anything of a refused delivery", () => {
    const test = record({
      webhookId: undefined,
      topic: undefined,
      subTopic: undefined,
      triggeredAt: undefined,
      headers: { 'x-svc-topic': 'orders/created', 'x-svc-webhook-id': 'hdr-1' },
      unsigned: { topic: 'orders/created', webhookId: 'hdr-1' },
    });
    const row = deliveryRow(test);
    assert.deepEqual([row.topic, row.webhookId, row.unsigned], ['orders/created', 'hdr-1', ['webhookId', 'topic']]);
    const signed = deliveryRow(record());
    assert.deepEqual([signed.topic, signed.webhookId, signed.unsigned], ['workflow/completed', 'w-1', undefined]);
    const refused = deliveryRow(
      record({ verified: false, webhookId: undefined, topic: undefined, subTopic: undefined, triggeredAt: undefined }),
    );
    assert.deepEqual([refused.topic, refused.unsigned], ['workflow/completed', ['topic']]);
  });

  it('a row keeps triggeredAt to all 7 digits, with topic, subTopic, status, badge data and latency', () => {
    const row = deliveryRow(record());
    assert.equal(row.triggeredAt, T);
    assert.deepEqual(
      [row.topic, row.subTopic, row.status, row.verified, row.duplicate, row.latencyMs, row.runId],
      ['workflow/completed', 'event:workflow/completed', 200, true, false, 1.25, 'wfrun_1'],
    );
    assert.equal(row.failedCheck, undefined);
  });

  it('a refused row names the failed step; its body is never read for the row (topic from the X-Svc-Topic header, no runId)', () => {
    const row = deliveryRow(refused);
    assert.equal(row.failedCheck, 'step 2 trusted issuer');
    assert.equal(row.failedStep, 2, "the step the webview names in the user's words");
    assert.equal(row.topic, 'claimed/topic');
    assert.equal(row.runId, undefined);
  });

  it('a delivery verified with a token signed here carries the mark; one from the service does not', () => {
    assert.equal(deliveryRow(record({ signedHere: true })).signedHere, true);
    assert.equal('signedHere' in deliveryRow(record()), false);
    assert.equal(deliveryDetail(record({ signedHere: true }), Buffer.from('{}')).row.signedHere, true);
  });

  it("a delivery the sandbox faulted carries the sandbox's note in words; one without a mark has none", () => {
    const faulted = record({ sandboxFault: { duplicateOf: 'w-1', reordered: true, delayedMs: 2100 } });
    assert.equal(deliveryRow(faulted).sandboxNote, 'duplicate of w-1 (same token), reordered, delayed 2.1 s');
    assert.equal(deliveryDetail(faulted, Buffer.from('{}')).row.sandboxNote, deliveryRow(faulted).sandboxNote);
    assert.equal('sandboxNote' in deliveryRow(record()), false);
  });

  it('filters by topic, status, verified/refused and free text; newest first', async () => {
    const all = [record(), refused, record({ id: 'd3', status: 500, headers: { 'x-svc-tenant-id': 'tenant-42' } })];
    const ids = async (f: Parameters<typeof filterRows>[1]) => (await filterRows(all, f, readBody))!.map((r) => r.id);
    assert.deepEqual(await ids({}), ['d3', 'd2', 'd1']);
    assert.deepEqual(await ids({ verification: 'refused' }), ['d2']);
    assert.deepEqual(await ids({ verification: 'verified' }), ['d3', 'd1']);
    assert.deepEqual(await ids({ status: 500 }), ['d3']);
    assert.deepEqual(await ids({ topic: 'claimed/topic' }), ['d2']);
    assert.deepEqual(await ids({ topic: 'workflow/*' }), ['d3', 'd1'], 'a topic pattern, by the core matcher');
    assert.deepEqual(await ids({ topic: '**/topic' }), ['d2']);
    assert.deepEqual(await ids({ topic: 'workflow/complete?' }), ['d3', 'd1']);
    assert.deepEqual(await ids({ topic: 'workflow' }), [], 'a topic without wildcards matches itself only');
    assert.deepEqual(await ids({ text: 'TENANT-42' }), ['d3'], 'header text, case-insensitive');
    assert.deepEqual(await ids({ text: 'onerror' }), ['d2'], 'body text, read through the history');
  });

  it('a topic pattern the matcher refuses shows nothing and says why; a hostile one answers at once', async () => {
    const all = [record({ topic: 'a'.repeat(120) + '/b' })];
    assert.deepEqual(rowsWithoutText(all, { topic: 'a/***' }), []);
    assert.match(topicFilterProblem({ topic: 'a/***' })!, /holds \*\*\*/);
    assert.match(topicFilterProblem({ topic: 'x'.repeat(201) })!, /over the limit of 200/);
    assert.equal(topicFilterProblem({ topic: 'workflow/*' }), undefined);
    assert.equal(topicFilterProblem({ topic: '  ' }), undefined, 'blank is no filter');
    const started = process.hrtime.bigint();
    assert.deepEqual(rowsWithoutText(all, { topic: '**a**a**a**a**a**a**c' }), []);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 200, 'the RegExp form of this pattern ran past 58 s');
  });

  it('the text filter reads a body only when the row and headers do not already match', async () => {
    const reads: string[] = [];
    const counting = async (id: string) => (reads.push(id), bodies.get(id));
    await filterRows([record(), refused], { text: 'workflow/completed' }, counting);
    assert.deepEqual(reads, ['d2'], 'd1 matched on its topic');
  });

  it('a text filter stops reading bodies once a newer filter is asked for (typing on)', async () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ ...refused, id: `r${i}` }));
    const reads: string[] = [];
    let current = true;
    const reading = async (id: string) => {
      reads.push(id);
      if (reads.length === 3) current = false; // the user typed another letter
      return bodies.get('d2');
    };
    assert.equal(await filterRows(many, { text: 'no such text' }, reading, () => current), undefined);
    assert.equal(reads.length, 3, 'no body read after the filter changed');
    assert.equal(
      (await filterRows(many, { text: 'no such text' }, async () => bodies.get('d2')))!.length,
      0,
      'left alone, it reads to the end',
    );
  });

  it('detail: headers, raw text, pretty JSON, JWT dates and time to expiry at arrival, checks, response', () => {
    const d = deliveryDetail(record(), bodies.get('d1')!);
    assert.equal(d.rawText, JSON.stringify(EVENT));
    assert.equal(d.note, undefined);
    assert.equal(d.hex, undefined);
    assert.match(d.prettyJson!, /\n {2}"webhookId": "w-1"/);
    assert.deepEqual(
      d.jwt!.dates.map((x) => [x.claim, x.iso]),
      [
        ['iat', '2026-11-22T10:00:00.000Z'],
        ['exp', '2026-11-22T10:05:00.000Z'],
      ],
    );
    assert.equal(d.jwt!.expiresInSecondsAtArrival, 299);
    assert.equal(d.checks.length, 7);
    assert.deepEqual(d.response, { status: 200, durationMs: 1.25 });
    assert.ok(
      d.headers.some(([k, v]) => k === 'authorization' && v.startsWith('Bearer <redacted')),
      'the token itself is never there',
    );
  });

  it('a non-UTF-8 body is shown as hex, byte for byte', () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x41, 0x7d]);
    const d = deliveryDetail(record({ body: info(raw, { utf8: false }) }), raw);
    assert.equal(d.rawText, undefined);
    assert.equal(d.hex, `00000000  ${'7b ff fe 00 41 7d'.padEnd(47)}  {...A}`);
    assert.equal(d.bodyBytes, 6);
    assert.match(hexDump(Buffer.alloc(40)), /^00000020 {2}00 00/m);
  });

  it('a refused request shows its kept prefix with a note; a body too deep to format is shown raw with a note', () => {
    const prefix = REFUSED_BODY.subarray(0, 10);
    const d = deliveryDetail(record({ body: info(REFUSED_BODY, { kept: 10 }) }), prefix);
    assert.equal(d.rawText, prefix.toString('utf8'));
    assert.equal(d.prettyJson, undefined);
    assert.deepEqual([d.bodyBytes, d.keptBytes], [REFUSED_BODY.length, 10]);
    assert.match(d.note!, new RegExp(`only the first 10 of ${REFUSED_BODY.length} bytes were kept`));
    const deep = Buffer.from('['.repeat(100_000) + ']'.repeat(100_000));
    const dd = deliveryDetail(record({ body: info(deep) }), deep);
    assert.equal(dd.prettyJson, undefined);
    assert.equal(dd.rawText!.length, 200_000);
    assert.match(dd.note!, /shown raw: Maximum call stack size exceeded/);
  });

  it('copy as curl reproduces the exact body bytes, without the original token', () => {
    const nasty = Buffer.from(`{"a":"it's \\"quoted\\" $HOME \`x\`"}`);
    const cmd = curlCommand(record({ body: info(nasty) }), 'http://127.0.0.1:9/webhooks', nasty);
    assert.ok(!/redacted/.test(cmd));
    assert.match(cmd, /Authorization: Bearer \$WFS_WEBHOOK_TOKEN/);
    // What the shell pipes into curl's standard input (--data-binary @-): evaluate that part with a real shell.
    assert.match(cmd, /--data-binary @-$/);
    assert.equal(execFileSync('sh', ['-c', cmd.split(' | curl')[0]!]).toString(), nasty.toString());
    const bin = Buffer.from([0xff, 0x00, 0x27]);
    const binary = curlCommand(record({ body: info(bin, { utf8: false }) }), 'http://x', bin);
    assert.match(binary, /^printf %s '\/wAn' \| base64 -d \| curl/);
    assert.deepEqual(execFileSync('sh', ['-c', binary.split(' | curl')[0]!]), Buffer.from([0xff, 0x00, 0x27]));
  });

  it('export is written one delivery at a time, and joined is exactly the JSON.stringify text', async () => {
    const reads: string[] = [];
    const counting = async (id: string) => {
      reads.push(id);
      return readBody(id);
    };
    const chunks = exportJsonChunks([record(), refused], counting);
    assert.equal(
      (await chunks.next()).value,
      '{\n  "exportedBy": "Workflow Service Toolkit",\n  "count": 2,\n  "deliveries": [',
    );
    assert.deepEqual(reads, [], 'no body read before its delivery is written');
    await chunks.next();
    assert.deepEqual(reads, ['d1'], 'one body at a time');
    for (const records of [[], [record()], [record(), refused]]) {
      const expected = `${JSON.stringify({ exportedBy: 'Workflow Service Toolkit', count: records.length, deliveries: await Promise.all(records.map(async (r) => ({ ...r, bodyBase64: ((await readBody(r.id)) ?? Buffer.alloc(0)).toString('base64') }))) }, null, 2)}\n`;
      assert.equal(await exportJson(records, readBody), expected, `${records.length} records`);
    }
  });

  it('export is JSON with every record and its kept body bytes', async () => {
    const parsed = JSON.parse(await exportJson([record(), refused], readBody));
    assert.equal(parsed.count, 2);
    assert.deepEqual(
      parsed.deliveries.map((d: DeliveryRecord) => d.id),
      ['d1', 'd2'],
    );
    assert.equal(Buffer.from(parsed.deliveries[1].bodyBase64, 'base64').toString(), REFUSED_BODY.toString());
  });

  it("export leaves out the words kept for the window's language (Saids), and keeps the English", async () => {
    const noted = {
      ...record(),
      note: 'not handled: boom',
      noteSaid: { message: 'not handled: {0}', values: ['boom'] },
      checks: [{ step: 1, name: 'bearer token', ok: false, detail: 'no Authorization header', said: { message: 'x' } }],
    } as DeliveryRecord;
    const text = await exportJson([noted], readBody);
    const d = JSON.parse(text).deliveries[0];
    assert.equal(d.note, 'not handled: boom');
    assert.equal('noteSaid' in d, false);
    assert.deepEqual(d.checks, [{ step: 1, name: 'bearer token', ok: false, detail: 'no Authorization header' }]);
  });
});

describe('webhook panel HTML', () => {
  it('CSP: default-src none, scripts only by nonce, styles and images only from the webview resource origin', () => {
    const csp = contentSecurityPolicy('https://res.vscode-cdn.net', 'abc');
    assert.equal(
      csp,
      "default-src 'none'; style-src https://res.vscode-cdn.net; script-src 'nonce-abc'; img-src https://res.vscode-cdn.net; font-src https://res.vscode-cdn.net",
    );
    assert.ok(!/unsafe-inline|unsafe-eval/.test(csp));
  });

  it('a fresh 144-bit nonce each time, on each of our three script tags (no inline script)', () => {
    const a = newNonce();
    assert.notEqual(a, newNonce());
    assert.equal(Buffer.from(a, 'base64').length, 18);
    const html = panelHtml({
      cspSource: 'vscode-resource:',
      nonce: a,
      domUri: 'vscode-resource:/media/panel/dom.js',
      typeAheadUri: 'vscode-resource:/media/panel/typeAhead.js',
      scriptUri: 'vscode-resource:/media/panel/panel.js',
      styleUri: 'vscode-resource:/media/panel/panel.css',
    });
    // Three scripts, and the l10n bundle as data (a JSON script element is never run).
    assert.equal(html.match(/<script/g)!.length, 4);
    assert.equal(html.match(/<script type="application\/json" id="wfs-l10n">\{\}<\/script>/g)!.length, 1);
    assert.ok(
      html.includes(
        `<script nonce="${a}" src="vscode-resource:/media/panel/dom.js"></script>\n<script nonce="${a}" src="vscode-resource:/media/panel/typeAhead.js"></script>\n<script nonce="${a}" src="vscode-resource:/media/panel/panel.js"></script>`,
      ),
    );
    assert.equal(
      html.match(/<script nonce="[^"]+" src="[^"]+"><\/script>/g)!.length,
      3,
      'every script has a src and the nonce',
    );
    assert.ok(!/ on[a-z]+=/.test(html), 'no inline event handlers');
  });

  it('is worded by vscode.l10n and carries its bundle as data: a translation is text, never markup or an end tag', () => {
    const bundle = {
      Pause: 'Pa<u>se</u>',
      'Search text': 'Such "text"',
      'Select a delivery to see what arrived and each verification step.': '</script><script>alert(1)</script>',
    };
    const html = panelHtml({
      cspSource: 'vscode-resource:',
      nonce: newNonce(),
      domUri: 'd.js',
      typeAheadUri: 't.js',
      scriptUri: 'p.js',
      styleUri: 'p.css',
      l10n: { t: ((m: string) => bundle[m as keyof typeof bundle] ?? m) as never, bundle },
      lang: 'de',
    });
    assert.match(html, /<html lang="de">/);
    assert.match(html, /<button id="pause" type="button" aria-pressed="false">Pa&lt;u>se&lt;\/u><\/button>/);
    assert.match(html, /aria-label="Such &quot;text&quot;"/);
    assert.equal(html.match(/<script/g)!.length, 4, 'no script but ours and the data element');
    const data = /<script type="application\/json" id="wfs-l10n">(.*)<\/script>/.exec(html)![1]!;
    assert.ok(!data.includes('<'), data);
    assert.deepEqual(JSON.parse(data), bundle);
  });
});

describe("the app's answer in the panel's view model", () => {
  const forwards: DeliveryRecord['forwards'] = [
    {
      target: 'http://127.0.0.1:3000/pay',
      rules: ['payments/* → http://127.0.0.1:3000/pay'],
      status: 500,
      latencyMs: 12,
      headers: { 'content-type': 'text/html' },
      body: '<script>alert(1)</script>TypeError',
      bodySize: 9000,
      truncated: true,
    },
    { target: 'http://127.0.0.1:3001/', rules: [], status: 200, latencyMs: 3 },
    {
      target: 'http://127.0.0.1:3002/bin',
      rules: [],
      status: 200,
      latencyMs: 4,
      bodyBase64: 'AAEC',
      bodySize: 3,
    },
  ];

  it('a failing target shows in the row; the detail has each answer as text, with what was cut', () => {
    const row = deliveryRow(record({ forwards }));
    assert.deepEqual([row.forwarded, row.forwardsFailed], [3, 1]);
    assert.deepEqual(row.appStatuses, [500, 200, 200], "each app's answer, for the row's name");
    const d = deliveryDetail(record({ forwards }), bodies.get('d1')!);
    assert.deepEqual(d.forward, { target: 'http://127.0.0.1:3000/pay', status: 500, latencyMs: 12, error: undefined });
    const [failing, ok, bin] = d.forwards;
    assert.equal(failing!.failed, true);
    assert.equal(
      failing!.body,
      '<script>alert(1)</script>TypeError',
      'kept as text: the webview sets it as textContent',
    );
    assert.deepEqual(failing!.headers, [['content-type', 'text/html']]);
    assert.equal(failing!.bodyNote, 'the first 34 of 9000 bytes are shown');
    assert.equal(ok!.failed, false);
    assert.equal(bin!.bodyNote, '3 bytes, not UTF-8 (all kept, as base64 in exports)');
    assert.equal(deliveryRow(record()).forwardsFailed, undefined, 'not forwarded: nothing to show');
  });

  it('an answer from an `insecure` target carries the mark the panel shows beside it; a checked one does not', () => {
    const marked = deliveryDetail(
      record({
        forwards: [
          { target: 'https://localhost:3443/hooks', rules: [], status: 200, latencyMs: 3, insecure: true },
          { target: 'https://localhost:3444/hooks', rules: [], status: 200, latencyMs: 3 },
        ],
      }),
      bodies.get('d1')!,
    );
    assert.deepEqual(
      marked.forwards.map((f) => f.insecure),
      [true, undefined],
    );
  });

  it('a history record written before rules (one `forward`) still shows, and exports carry every answer', async () => {
    const old = record({ forward: { target: 'http://127.0.0.1:9/', latencyMs: 2, error: 'cannot reach' } });
    assert.deepEqual([deliveryRow(old).forwarded, deliveryRow(old).forwardsFailed], [1, 1]);
    assert.equal(deliveryDetail(old, bodies.get('d1')!).forwards[0]!.target, 'http://127.0.0.1:9/');
    const exported = JSON.parse(await exportJson([record({ forwards })], readBody));
    assert.deepEqual(exported.deliveries[0].forwards, forwards);
  });
});
