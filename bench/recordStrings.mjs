// What the history keeps of values that repeat from one delivery to the next, counted in a real heap: a Receiver (the
// shipped bundle, out/bench/receiverCore.js) keeps RECORDS deliveries sent to it over loopback HTTP (one connection,
// as the service sends), then the heap is snapshotted and the strings the history keeps are counted. A figure to
// report, not a goal: it prints one JSON line, the records kept, how many of the bodies sent are in the heap as text
// (an ASCII body is kept as its text), and how many copies of each repeated value are in the heap.
//   node esbuild.mjs --tests && node bench/recordStrings.mjs [RECORDS]   (default 48)
// Run as a process of its own, so the heap holds nothing else of ours.
import { Agent, createServer, request } from 'node:http';
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapSnapshot } from 'node:v8';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Deliveries to keep, then count over. */
export async function recordStrings(records = 48) {
  const { Receiver, Verifier } = require(join(root, 'out', 'bench', 'receiverCore.js'));
  const { SystemClock } = require(join(root, 'out', 'src', 'core', 'time', 'clock.js'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  const keySet = createServer((_q, r) =>
    r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise((r) => keySet.listen(0, '127.0.0.1', r));
  // Made at run time, so that no copy of them sits in this file's code.
  const unique = randomUUID();
  const values = {
    issuer: `https://strings.invalid/${unique}/webhooks`,
    audience: `receiver-${unique}`,
    topic: `orders/${unique}/created`,
    subTopic: `event:orders/${unique}/created`,
    userAgent: `WorkflowService-Webhooks/${unique}`,
    path: `/webhooks/${unique}`,
  };
  const trust = {
    issuer: values.issuer,
    audience: values.audience,
    jwksUrl: `http://127.0.0.1:${keySet.address().port}/jwks.json`,
  };
  const clock = new SystemClock();
  const receiver = new Receiver({ verifier: new Verifier({ issuers: [trust], clock }), clock, path: values.path });
  const url = new URL(await receiver.start());
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  // Each body's whole text, found in the heap by its start and the webhookId it carries.
  const bodyIds = new Set();
  const bodyStart = '{"webhookId":"';
  for (let i = 0; i < records; i++) {
    const webhookId = randomUUID();
    bodyIds.add(webhookId);
    const body = Buffer.from(
      JSON.stringify({
        webhookId,
        topic: values.topic,
        subTopic: values.subTopic,
        tenantId: 't',
        triggeredAt: `2026-11-26T10:00:${String(i % 60).padStart(2, '0')}.1234567Z`,
        actorId: 'a',
        data: { runId: `wfrun_${i}` },
      }),
    );
    const claims = {
      iss: trust.issuer,
      aud: trust.audience,
      iat: now,
      exp: now + 600,
      jti: randomUUID(),
      body_sha256: createHash('sha256').update(body).digest('hex'),
    };
    const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${b64(claims)}`;
    const authorization = `Bearer ${input}.${sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`;
    const status = await new Promise((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'user-agent': values.userAgent, authorization },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', reject);
      req.end(body);
    });
    if (status !== 200) throw new Error(`delivery ${i} was answered ${status}`);
  }
  agent.destroy();
  const kept = receiver.history.all().length;
  const wanted = new Map(Object.values(values).map((v) => [v, 0]));
  const snapshot = await new Promise((resolve, reject) => {
    const parts = [];
    const stream = getHeapSnapshot();
    stream.on('data', (c) => parts.push(c));
    stream.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    stream.on('error', reject);
  });
  const heap = JSON.parse(snapshot);
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  // A string built by concatenation is a tree of its pieces, and the snapshot names the pieces, not the whole: only
  // values received whole (decoded from the token, the body or the headers) are counted.
  const [typeAt, nameAt, width] = [fields.indexOf('type'), fields.indexOf('name'), fields.length];
  let bodiesAsText = 0;
  for (let i = 0; i < heap.nodes.length; i += width) {
    if (types[heap.nodes[i + typeAt]] !== 'string') continue;
    const name = heap.strings[heap.nodes[i + nameAt]];
    const n = wanted.get(name);
    if (n !== undefined) wanted.set(name, n + 1);
    if (
      name.startsWith(bodyStart) &&
      name.endsWith('}') &&
      bodyIds.has(name.slice(bodyStart.length, bodyStart.length + 36))
    )
      bodiesAsText++;
  }
  await receiver.stop();
  keySet.close();
  const copies = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, wanted.get(v)]));
  return { records, kept, bodiesAsText, copies };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(`${JSON.stringify(await recordStrings(Number(process.argv[2] ?? 48)))}\n`);
