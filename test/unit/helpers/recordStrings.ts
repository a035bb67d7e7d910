// Run as a child process, with a heap of its own: a Receiver keeps RECORDS deliveries sent to it over loopback HTTP
// (one connection, as the service sends), then the heap is snapshotted and the strings the history keeps are
// counted. Prints one JSON line: the records kept, how many of the bodies sent are in the heap as text (an ASCII body
// is kept as its text), and how many copies of each repeated value are in the heap.
import { request, Agent } from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import { getHeapSnapshot } from 'node:v8';
import { SignJWT } from 'jose';
import { KeySetServer, newRsaKey } from './keySetServer';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { SystemClock } from '../../../src/core/time/clock';

const RECORDS = Number(process.argv[2] ?? 64);

async function main(): Promise<void> {
  const key = await newRsaKey('k1');
  const keySet = new KeySetServer();
  keySet.keys = [key.jwk];
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
    jwksUrl: await keySet.start(),
  };
  const clock = new SystemClock();
  const receiver = new Receiver({ verifier: new Verifier({ issuers: [trust], clock }), clock, path: values.path });
  const url = new URL(await receiver.start());
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const now = Math.floor(Date.now() / 1000);
  let credential = '';
  // Each body's whole text, found in the heap by its start and the webhookId it carries (a set of the texts
  // themselves would be found too).
  const bodyIds = new Set<string>();
  const bodyStart = '{"webhookId":"';
  for (let i = 0; i < RECORDS; i++) {
    const body = Buffer.from(
      JSON.stringify({
        webhookId: newId(bodyIds),
        topic: values.topic,
        subTopic: values.subTopic,
        tenantId: 't',
        triggeredAt: `2026-11-26T10:00:${String(i % 60).padStart(2, '0')}.1234567Z`,
        actorId: 'a',
        data: { runId: `wfrun_${i}` },
      }),
    );
    const token = await new SignJWT({ body_sha256: createHash('sha256').update(body).digest('hex') })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid })
      .setIssuer(trust.issuer)
      .setAudience(trust.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .setJti(randomUUID())
      .sign(key.privateKey);
    const authorization = `Bearer ${token}`;
    credential = `Bearer <redacted, ${authorization.length} characters>`;
    const status = await new Promise<number | undefined>((resolve, reject) => {
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
  const wanted = new Map<string, number>([...Object.values(values), credential].map((v) => [v, 0]));
  const snapshot = await new Promise<string>((resolve, reject) => {
    const parts: Buffer[] = [];
    const stream = getHeapSnapshot();
    stream.on('data', (c: Buffer) => parts.push(c));
    stream.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    stream.on('error', reject);
  });
  const heap = JSON.parse(snapshot) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, width] = [fields.indexOf('type'), fields.indexOf('name'), fields.length];
  let bodiesAsText = 0;
  for (let i = 0; i < heap.nodes.length; i += width) {
    if (types[heap.nodes[i + typeAt]!] === 'string') {
      const name = heap.strings[heap.nodes[i + nameAt]!]!;
      const n = wanted.get(name);
      if (n !== undefined) wanted.set(name, n + 1);
      if (
        name.startsWith(bodyStart) &&
        name.endsWith('}') &&
        bodyIds.has(name.slice(bodyStart.length, bodyStart.length + 36))
      )
        bodiesAsText++;
    }
  }
  const copies = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, wanted.get(v)]));
  process.stdout.write(
    `${JSON.stringify({ kept, bodiesAsText, copies: { ...copies, credential: wanted.get(credential) } })}\n`,
  );
  await receiver.stop();
  await keySet.stop();
}

function newId(ids: Set<string>): string {
  const id = randomUUID();
  ids.add(id);
  return id;
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
