// A plain event from the command line (issue 69, point 8): `wfs send event.json` listed five fixture errors, and a
// fixture could only be written by hand. Now a plain event body is sent signed over its exact bytes, its headers from
// --topic/--sub-topic/--tenant-id or its own fields, and `wfs fixture new` writes the fixture for it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const EVENT = `{
  "webhookId": "3f2b7c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f",
  "topic": "workflow/completed",
  "subTopic": "status:workflow/completed",
  "tenantId": "tenant-ci",
  "triggeredAt": "2026-01-15T12:00:00.1234567Z",
  "actorId": "ci",
  "data": { "workflowId": "wf_1" }
}
`;

async function run(args: string[], opts: { stdin?: string } = {}): Promise<WfsProcess> {
  const p = new WfsProcess(args, {}, opts);
  await p.exited;
  return p;
}

describe('plain event bodies: wfs send and wfs fixture new', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wfs-plain-'));
  });

  it('wfs send BODY --topic --sub-topic --tenant-id: verified by `wfs listen`, its exact bytes, the headers given', async () => {
    const file = join(dir, 'payload.json');
    writeFileSync(file, '{"data": {"orderId": "o-1"}}');
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const send = await run([
      'send',
      file,
      '--topic',
      'orders/created',
      '--sub-topic',
      'status:orders/created',
      '--tenant-id',
      't-9',
      '--to',
      url,
      '--sandbox-url',
      s.info.baseUrl,
    ]);
    assert.equal(await send.exitCode(), 0, send.stdout + send.stderr);
    const delivery = await listen.line((l) => l.event === 'delivery', 'the delivery line');
    assert.equal(delivery.verified, true, JSON.stringify(delivery.checks));
    assert.equal(delivery.bytes, statSync(file).size);
    assert.deepEqual(
      [delivery.unsigned.topic, delivery.unsigned.subTopic],
      ['orders/created', 'status:orders/created'],
    );
    await listen.stopCleanly();
  });

  it('an event body that names its own topic, subTopic and tenantId is sent as it is, with no flag', async () => {
    const file = join(dir, 'event.json');
    writeFileSync(file, EVENT);
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const send = await run(['send', file, '--to', url, '--sandbox-url', s.info.baseUrl]);
    assert.equal(await send.exitCode(), 0, send.stdout + send.stderr);
    const delivery = await listen.line((l) => l.event === 'delivery', 'the delivery line');
    assert.deepEqual(
      [delivery.verified, delivery.topic, delivery.webhookId],
      [true, 'workflow/completed', '3f2b7c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f'],
    );
    await listen.stopCleanly();
  });

  it('a body without them: one line naming every header to give, and exit 1, nothing sent', async () => {
    const file = join(dir, 'bare.json');
    writeFileSync(file, '{"data": 1}');
    const send = await run(['send', file, '--to', 'http://127.0.0.1:9/', '--sandbox-url', s.info.baseUrl]);
    assert.equal(await send.exitCode(), 1);
    const [invalid] = send.events('fixture-invalid');
    assert.equal(invalid!.plainEvent, true);
    assert.equal(invalid!.problems.length, 1);
    assert.match(invalid!.problems[0].message, /give --topic T .*, --sub-topic S .*, --tenant-id T/);
    assert.deepEqual([send.events('send-summary')[0]!.invalid, send.events('send-summary')[0]!.failed], [1, 0]);
  });

  it('wfs fixture new: the fixture beside the body, which `wfs send` then sends; never over an existing file', async () => {
    const file = join(dir, 'order.json');
    writeFileSync(file, EVENT);
    const made = await run(['fixture', 'new', file]);
    assert.equal(await made.exitCode(), 0, made.stdout + made.stderr);
    const fixture = join(dir, 'order.webhook.json');
    assert.deepEqual(made.lines.at(-1), {
      event: 'fixture-written',
      file: fixture,
      topic: 'workflow/completed',
      subTopic: 'status:workflow/completed',
      tenant: 'tenant-ci',
    });
    const written = JSON.parse(readFileSync(fixture, 'utf8'));
    assert.equal(written.wfsFixture, 1);
    assert.equal(written.body.webhookId, '{{webhookId}}', 'a new event at each send');
    assert.deepEqual(written.body.data, { workflowId: 'wf_1' });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const send = await run(['send', fixture, '--to', url, '--sandbox-url', s.info.baseUrl]);
    assert.equal(await send.exitCode(), 0, send.stdout + send.stderr);
    assert.equal(send.events('fixture-sent')[0]!.expected, 200, '"expected" is a number');
    await listen.stopCleanly();
    const again = await run(['fixture', 'new', file]);
    assert.equal(await again.exitCode(), 2);
    assert.match(again.lines.at(-1)!.message, /order\.webhook\.json exists: add --force to replace it/);
  });

  it('wfs fixture new from standard input, and a body that is not JSON said with its line and column', async () => {
    const out = join(dir, 'piped.webhook.json');
    const piped = await run(
      ['fixture', 'new', '-', '--topic', 'a/b', '--sub-topic', 's:a/b', '--tenant-id', 't', '--out', out],
      {
        stdin: '{"data": {"n": 1}}',
      },
    );
    assert.equal(await piped.exitCode(), 0, piped.stdout + piped.stderr);
    assert.ok(existsSync(out));
    const bad = join(dir, 'broken.json');
    writeFileSync(bad, '{\n  "data": {"n": 1}\n  "more": 2\n}');
    const refused = await run(['fixture', 'new', bad, '--topic', 'a/b', '--sub-topic', 's:a/b', '--tenant-id', 't']);
    assert.equal(await refused.exitCode(), 1);
    const err = refused.lines.at(-1)!;
    assert.deepEqual([err.kind, err.line, err.column], ['invalid-event', 3, 3]);
    assert.match(err.message, /broken\.json: not JSON: expected "," or "}" at line 3, column 3$/);
  });
});
