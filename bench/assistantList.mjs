// How long the assistant's wfs_list_deliveries takes over 10,000 deliveries (docs/benchmarks.md, "The assistant's
// tools"): in process on a history held in memory (the extension's face, wfs mcp's own receiver), on a history file
// read by another process (wfs mcp --history), cold and warm, and end to end as an MCP client sees it over stdio.
// Measures and prints; asserts nothing. Needs `node esbuild.mjs --tests` (out/ and dist/).
//   node bench/assistantList.mjs [--records 10000] [--calls 50]
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const out = (...p) => require(join(root, 'out', 'src', 'core', ...p));
const { runTool } = out('assistant', 'toolRegistry.js');
const { HistoryFileReader } = out('assistant', 'historyFileReader.js');
const { DeliveryHistory } = out('webhooks', 'DeliveryHistory.js');
const { serializeLine } = out('webhooks', 'historyLine.js');
const { passedCheck } = out('webhooks', 'verificationSteps.js');
const { SystemClock } = out('time', 'clock.js');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const arg = (name, d) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const RECORDS = arg('--records', 10_000);
const CALLS = arg('--calls', 50);
const TOPICS = ['workflow/started', 'workflow/completed', 'workflow/failed', 'loan/updated'];
const trust = {
  issuer: 'https://sandbox.workflow-service.invalid/webhooks',
  jwksUrl: 'http://127.0.0.1:4010/.well-known/jwks.json',
};
const CHECKS = Object.freeze([1, 2, 3, 4, 5, 6, 7].map((s) => passedCheck(s, trust, 'bench-kid')));

/** A delivery as the receiver records one: headers, the decoded token, seven checks, the app's answer. */
function delivery(i) {
  const topic = TOPICS[i % TOPICS.length];
  const verified = i % 10 !== 0;
  const body = Buffer.from(
    JSON.stringify({
      webhookId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      topic,
      subTopic: `status:${topic}`,
      tenantId: 'tenant-sandbox',
      triggeredAt: '2026-01-15T12:00:00.1234567Z',
      actorId: 'act_demo',
      data: { workflowId: `wf_${i}`, runId: `wfrun_${i}`, sessionId: 'sess-demo-staged', status: 'complete' },
    }),
  );
  const record = {
    id: `bench-${i}`,
    receivedAt: new Date(Date.UTC(2026, 0, 15, 12, 0, 0) + i * 1000).toISOString(),
    method: 'POST',
    path: '/webhooks',
    headers: {
      host: '127.0.0.1:4011',
      'content-type': 'application/json',
      'content-length': String(body.length),
      authorization: 'Bearer <redacted, 812 characters>',
      'x-svc-topic': topic,
      'x-svc-webhook-id': `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      'user-agent': 'undici',
    },
    jwt: {
      header: { alg: 'RS256', kid: 'bench-kid', typ: 'JWT' },
      claims: { iss: trust.issuer, aud: 'workflow-service-toolkit', exp: 1768478700, iat: 1768478400 },
    },
    body: { size: body.length, sha256: 'a'.repeat(64), kept: body.length, utf8: true },
    checks: verified
      ? CHECKS
      : [CHECKS[0], { step: 2, name: 'trusted issuer', ok: false, detail: 'issuer "x" is not trusted' }],
    verified,
    status: verified ? 200 : 403,
    durationMs: 2,
    duplicate: false,
    ...(verified ? { webhookId: `w-${i}`, topic, subTopic: `status:${topic}`, runId: `wfrun_${i}` } : {}),
    ...(verified
      ? {
          forwards: [
            {
              target: 'http://127.0.0.1:3000/hooks',
              rules: ['** → app'],
              status: 200,
              latencyMs: 3,
              headers: { 'content-type': 'application/json' },
              body: '{"ok":true}',
              bodySize: 11,
            },
          ],
        }
      : {}),
  };
  return { record, body };
}

const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: +q(0.5).toFixed(2), p95: +q(0.95).toFixed(2), max: +s.at(-1).toFixed(2) };
};

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const INPUTS = {
  'newest 20': {},
  'topic glob, verified, 100': { topic: 'workflow/*', verified: true, limit: 100 },
  'text (a full scan)': { text: 'wfrun_4242' },
};

async function inProcess(label, deliveries) {
  const ctx = {
    clock: new SystemClock(),
    deliveries,
    secrets: () => ['bench-secret-value'],
  };
  const rows = {};
  const first = await timed(() => runTool('wfs_list_deliveries', {}, ctx));
  for (const [name, input] of Object.entries(INPUTS)) {
    const ms = [];
    for (let i = 0; i < CALLS; i++)
      ms.push(
        await timed(async () => {
          const r = await runTool('wfs_list_deliveries', input, ctx);
          if (!r.ok || r.result.held !== RECORDS) throw new Error(`unexpected: ${JSON.stringify(r).slice(0, 200)}`);
        }),
      );
    rows[name] = stats(ms);
  }
  return { label, firstMs: +first.toFixed(1), rows };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-bench-assistant-'));
  const file = join(dir, 'deliveries.jsonl');
  const lines = [];
  const memory = new DeliveryHistory({ memoryBudgetBytes: 512 * 1024 * 1024 });
  for (let i = 0; i < RECORDS; i++) {
    const { record, body } = delivery(i);
    lines.push(serializeLine(record, body));
    memory.add(record, body);
  }
  writeFileSync(file, Buffer.concat(lines));
  const results = [];
  results.push(
    await inProcess('in memory (VS Code, wfs mcp own receiver)', {
      description: 'bench',
      records: async () => memory.all(),
      body: (id) => memory.body(id),
      onChange: () => () => undefined,
    }),
  );
  results.push(
    await inProcess(
      'history file, read-only (wfs mcp --history)',
      new HistoryFileReader({ file, clock: new SystemClock(), memoryBudgetBytes: 512 * 1024 * 1024 }),
    ),
  );

  // End to end: the SDK's client, wfs mcp --history over stdio, the file read at the first call.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, 'dist', 'cli.js'), 'mcp', '--history', file, '--read-only'],
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const call = (input) => client.callTool({ name: 'wfs_list_deliveries', arguments: input });
  const first = await timed(() => call({}));
  const rows = {};
  for (const [name, input] of Object.entries(INPUTS)) {
    const ms = [];
    for (let i = 0; i < CALLS; i++) ms.push(await timed(() => call(input)));
    rows[name] = stats(ms);
  }
  await client.close();
  results.push({ label: 'MCP over stdio, round trip (wfs mcp --history)', firstMs: +first.toFixed(1), rows });

  const report = {
    records: RECORDS,
    calls: CALLS,
    fileMiB: +(statSync(file).size / 1024 / 1024).toFixed(1),
    node: process.version,
    results,
  };
  console.log(JSON.stringify(report, null, 2));
  console.log(
    `\n${RECORDS} deliveries, ${report.fileMiB} MiB file; milliseconds per call (median / p95), ${CALLS} calls`,
  );
  for (const r of results) {
    console.log(`${r.label}: first call ${r.firstMs}`);
    for (const [name, s] of Object.entries(r.rows)) console.log(`  ${name}: ${s.median} / ${s.p95}`);
  }
}

await main();
