// `wfs listen` attacked as the trust issue measured it: one captured token and body, sent again under headers an
// attacker chooses. Only the signed bytes may decide what is a duplicate, what is forwarded, and what is ours.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { signedBy } from './helpers/deliveries';
import { withSandboxProcess, WfsProcess, type Line } from './helpers/wfsProcess';

/** A loopback app that records the bodies forwarded to it. */
async function recordingApp(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-length': 0 }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, server };
}

async function post(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, text: await res.body.text() };
}

describe('wfs listen: only signed bytes decide dedupe and forwarding, as a process', function () {
  this.timeout(60_000);
  let app: Awaited<ReturnType<typeof recordingApp>>;
  let listen: WfsProcess;
  let url: string;
  /** The n-th delivery line, once printed. */
  const delivery = (n: number): Promise<Line> =>
    listen
      .line(() => listen.events('delivery').length >= n, `${n} delivery lines`)
      .then(() => listen.events('delivery')[n - 1]!);

  const s = withSandboxProcess();
  before(async () => {
    app = await recordingApp();
  });
  after(() => app.server.close());
  beforeEach(async () => {
    app.bodies.length = 0;
    listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--forward-to', app.url]);
    url = (await listen.event('ready')).url;
  });
  afterEach(async () => {
    await listen.stopCleanly();
  });

  it('a captured test webhook relabelled with a new X-Svc-Webhook-Id is still a duplicate, and reaches the app once', async () => {
    // A test webhook's body is the caller's testData: no webhookId in the signed bytes.
    const body = Buffer.from(JSON.stringify({ order: 42, note: 'captured' }));
    const token = await signedBy(s.info.baseUrl, body);
    const answers = [];
    for (const id of ['A', 'A', 'B', 'C'])
      answers.push(
        await post(url, body, {
          authorization: `Bearer ${token}`,
          'x-svc-webhook-id': id,
          'x-svc-topic': 'orders/created',
        }),
      );
    assert.deepEqual(
      answers.map((a) => [a.status, a.text]),
      [
        [200, ''],
        [200, 'duplicate\n'],
        [200, 'duplicate\n'],
        [200, 'duplicate\n'],
      ],
      'the same token is the same delivery, whatever header id it is given',
    );
    const first = await delivery(1);
    assert.equal(first.webhookId, null, 'no signed id');
    assert.deepEqual(
      first.unsigned,
      { webhookId: 'A', topic: 'orders/created' },
      'the header values are shown as unsigned',
    );
    await delivery(4);
    assert.equal(app.bodies.length, 1, 'forwarded once');
  });

  it('a captured body sent under the header id of a real event cannot make that event a duplicate, not even after a restart', async () => {
    const realId = '5a1c3f0e-7b2d-4e6f-9a8b-0c1d2e3f4a5b';
    const captured = Buffer.from(JSON.stringify({ any: 'test data' }));
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-poison-')), 'deliveries.jsonl');
    const logged = new WfsProcess([
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--forward-to',
      app.url,
      '--log',
      file,
    ]);
    const poison = await post((await logged.event('ready')).url, captured, {
      authorization: `Bearer ${await signedBy(s.info.baseUrl, captured)}`,
      'x-svc-webhook-id': realId,
    });
    assert.equal(poison.status, 200);
    await logged.stopCleanly();
    // The next run on the same history, as after a window reload.
    const again = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--forward-to', app.url, '--log', file]);
    const real = Buffer.from(
      JSON.stringify({ webhookId: realId, topic: 'workflow/completed', data: { runId: 'wfrun_x' } }),
    );
    const answered = await post((await again.event('ready')).url, real, {
      authorization: `Bearer ${await signedBy(s.info.baseUrl, real)}`,
      'x-svc-webhook-id': realId,
    });
    assert.deepEqual(
      [answered.status, answered.text],
      [200, ''],
      'the real event is processed, not answered "duplicate"',
    );
    const line = await again.event('delivery');
    assert.deepEqual([line.webhookId, line.duplicate], [realId, false]);
    assert.deepEqual(app.bodies, [captured.toString('utf8'), real.toString('utf8')], 'the app got the real event');
    // And in the same run: the poisoning delivery first, then the event.
    const captured2 = Buffer.from(JSON.stringify({ any: 'more test data' }));
    const realId2 = '6b2d4a1f-8c3e-4f7a-8b9c-1d2e3f4a5b6c';
    assert.equal(
      (
        await post(url, captured2, {
          authorization: `Bearer ${await signedBy(s.info.baseUrl, captured2)}`,
          'x-svc-webhook-id': realId2,
        })
      ).status,
      200,
    );
    const real2 = Buffer.from(JSON.stringify({ webhookId: realId2, topic: 'workflow/completed' }));
    assert.deepEqual(
      Object.values(await post(url, real2, { authorization: `Bearer ${await signedBy(s.info.baseUrl, real2)}` })),
      [200, ''],
    );
    await again.stopCleanly();
  });

  it('an X-Svc-Topic of the self-test does not keep a verified delivery from the app', async () => {
    const body = Buffer.from(JSON.stringify({ hello: 'app' }));
    const answered = await post(url, body, {
      authorization: `Bearer ${await signedBy(s.info.baseUrl, body)}`,
      'x-svc-topic': 'wfs/self-test',
      'x-svc-webhook-id': 'self',
    });
    assert.equal(answered.status, 200);
    const line = await delivery(1);
    assert.deepEqual(app.bodies, [body.toString('utf8')], 'forwarded to the app');
    assert.deepEqual([line.topic, line.unsigned.topic], [null, 'wfs/self-test'], 'the header topic is shown, unsigned');
  });

  it('a signature spelled another way (its last character changed in bits base64url leaves unused) is refused: one token, one spelling', async () => {
    const body = Buffer.from(
      JSON.stringify({ webhookId: '0b9d8c7e-6f5a-4b3c-8d2e-1f0a9b8c7d6e', topic: 'spelling/test' }),
    );
    const token = await signedBy(s.info.baseUrl, body);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = token.at(-1)!;
    // 256 bytes are 342 characters: the last carries 2 bits of data and 4 unused, so 16 characters spell it.
    const others = [...alphabet].filter((c) => c !== last && alphabet.indexOf(c) >> 4 === alphabet.indexOf(last) >> 4);
    assert.equal(others.length, 15);
    for (const c of others) {
      const answered = await post(url, body, { authorization: `Bearer ${token.slice(0, -1)}${c}` });
      assert.equal(answered.status, 403, `spelling ending in ${c}`);
    }
    const lines = await delivery(15);
    assert.match(lines.checks.find((c: Line) => !c.ok).detail, /not canonical base64url/);
    assert.equal(
      (await post(url, body, { authorization: `Bearer ${token}` })).status,
      200,
      'the canonical spelling verifies',
    );
    assert.equal(app.bodies.length, 1);
  });
});
