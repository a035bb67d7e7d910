// `wfs send FILE|DIR… --to URL` as a CI job runs it: fixtures signed by a `wfs sandbox` process (or a sandbox it
// starts itself), sent to a `wfs listen` process that verifies them, or to a small app whose answers the test picks;
// one JSON line per fixture when piped, and the exit code says whether every answer was what its fixture expects.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { RecordingServer } from '../unit/helpers/recordingServer';
import { startSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function fixture(topic: string, extra: Record<string, unknown> = {}): string {
  return `{
  "wfsFixture": 1,
  "topic": "${topic}",
  "subTopic": "event:${topic}",
  "tenant": "tenant-ci",
  "body": {
    "webhookId": "{{webhookId}}",
    "topic": "${topic}",
    "subTopic": "event:${topic}",
    "tenantId": "tenant-ci",
    "triggeredAt": "{{triggeredAt}}",
    "actorId": "ci",
    "data": { "note": "it's \\"quoted\\" $HOME naïve" }
  }${Object.keys(extra).length ? `,\n${JSON.stringify(extra).slice(1, -1)}` : ''}
}
`;
}

async function wfs(args: string[]): Promise<WfsProcess> {
  const p = new WfsProcess(args);
  await p.exited;
  return p;
}

describe('wfs send', () => {
  let s: SandboxProcess;
  let dir: string;
  before(async () => {
    s = await startSandboxProcess();
    dir = mkdtempSync(join(tmpdir(), 'wfs-send-'));
  });
  after(() => s.stop());

  it('one file: signed by the sandbox, verified by `wfs listen`, its answer printed; exit 0', async () => {
    const file = join(dir, 'one.webhook.json');
    writeFileSync(file, fixture('orders/created'));
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const send = await wfs(['send', file, '--to', url, '--sandbox-url', s.info.baseUrl]);
    assert.equal(await send.exitCode(), 0, send.stdout + send.stderr);
    const [sent] = send.events('fixture-sent');
    assert.equal(sent!.file, file);
    assert.equal(sent!.status, 200);
    assert.equal(sent!.passed, true);
    assert.equal(sent!.expected, '2xx');
    assert.match(sent!.webhookId, /^[0-9a-f-]{36}$/);
    const delivery = await listen.line((l) => l.event === 'delivery', 'the delivery line');
    assert.equal(delivery.verified, true, JSON.stringify(delivery.checks));
    assert.equal(delivery.webhookId, sent!.webhookId, 'the fresh webhookId, in the signed body');
    assert.equal(delivery.topic, 'orders/created');
    assert.deepEqual(send.events('send-summary')[0], {
      ...send.events('send-summary')[0],
      total: 1,
      passed: 1,
      failed: 0,
      invalid: 0,
      notSent: 0,
    });
    await listen.stopCleanly();
  });

  it('--fresh-id: a fixture with a fixed webhookId is sent under a new one each time, in the body and the header (#79)', async () => {
    const file = join(dir, 'fixed.webhook.json');
    const fixed = '0b7c9a52-3f1e-4d2a-9b8c-7e6f5a4d3c2b';
    writeFileSync(file, fixture('orders/fixed').replace('"{{webhookId}}"', JSON.stringify(fixed)));
    const app = new RecordingServer();
    const url = await app.start();
    try {
      for (const args of [[], ['--fresh-id'], ['--fresh-id']]) {
        const send = await wfs(['send', file, '--to', url, '--sandbox-url', s.info.baseUrl, ...args]);
        assert.equal(await send.exitCode(), 0, send.stdout + send.stderr);
      }
      const ids = app.requests.map((r) => JSON.parse(r.body.toString()).webhookId as string);
      assert.equal(ids[0], fixed);
      assert.notEqual(ids[1], fixed);
      assert.notEqual(ids[2], ids[1]);
      // With --fresh-id the header carries the body's new id.
      assert.deepEqual(
        app.requests.slice(1).map((r) => r.headers['x-svc-webhook-id']),
        ids.slice(1),
      );
      // Only the id changed: the rest of the body is the same bytes.
      const bytes = (i: number) =>
        app.requests[i]!.body.toString().replace(/"triggeredAt": "[^"]*"/, '"triggeredAt": "…"');
      assert.equal(bytes(1).replace(ids[1]!, fixed), bytes(0));
    } finally {
      await app.stop();
    }
  });

  it('a folder of 100 (recursive, sorted): each fixture signed over its exact bytes by a sandbox it starts itself, with progress', async () => {
    const folder = join(dir, 'many');
    mkdirSync(join(folder, 'nested'), { recursive: true });
    for (let i = 0; i < 99; i++)
      writeFileSync(join(folder, `f${String(i).padStart(2, '0')}.webhook.json`), fixture(`orders/n${i}`));
    writeFileSync(join(folder, 'nested', 'z.webhook.json'), fixture('orders/nested'));
    writeFileSync(join(folder, 'README.md'), 'not a fixture');
    const app = new RecordingServer();
    const to = await app.start();
    const send = await wfs(['send', folder, '--to', to]);
    assert.equal(await send.exitCode(), 0, send.stdout + send.stderr);
    const trust = send.events('signing-sandbox')[0]!;
    const sent = send.events('fixture-sent');
    assert.deepEqual(
      sent.map((l) => [l.index, l.total]),
      sent.map((_, i) => [i + 1, 100]),
    );
    assert.equal(sent.at(-1)!.file, join(folder, 'nested', 'z.webhook.json'));
    assert.equal(app.requests.length, 100);
    // The sandbox it started stopped with it, so here the claims are read back from what the app got (the next test
    // verifies a signature against a sandbox's key set).
    const ids = new Set<string>();
    for (const r of app.requests) {
      const token = String(r.headers.authorization).replace(/^Bearer /, '');
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      assert.equal(claims.body_sha256, sha(r.body));
      assert.equal(claims.iss, trust.issuer);
      const body = JSON.parse(r.body.toString()) as { webhookId: string; triggeredAt: string };
      assert.equal(r.headers['x-svc-webhook-id'], body.webhookId);
      assert.match(body.triggeredAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/);
      ids.add(body.webhookId);
    }
    assert.equal(ids.size, 100, 'a fresh webhookId for each');
    await app.stop();
  });

  it('signatures verify against the sandbox key set (jose), for a body written with any layout', async () => {
    const file = join(dir, 'layout.webhook.json');
    writeFileSync(
      file,
      '{"wfsFixture":1,"topic":"a/b","subTopic":"s:a/b","tenant":"t",\n "body" : {"x" :\t1 ,\n"y":"é"} }\n',
    );
    const app = new RecordingServer();
    const to = await app.start();
    const send = await wfs(['send', file, '--to', to, '--sandbox-url', s.info.baseUrl]);
    assert.equal(await send.exitCode(), 0, send.stderr);
    const r = app.requests[0]!;
    assert.equal(r.body.toString('utf8'), '{"x" :\t1 ,\n"y":"é"}', 'the exact characters of the file');
    const token = String(r.headers.authorization).replace(/^Bearer /, '');
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(s.info.jwksUrl)), {
      issuer: s.info.issuer,
      audience: s.info.audience,
    });
    assert.equal(payload.body_sha256, sha(r.body));
    await app.stop();
  });

  it('a failing answer: exit 1, each answer printed, the failure named with what the fixture expected', async () => {
    const folder = join(dir, 'failing');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a-ok.webhook.json'), fixture('a/ok'));
    writeFileSync(join(folder, 'b-conflict.webhook.json'), fixture('b/conflict', { expect: { status: 409 } }));
    writeFileSync(join(folder, 'c-boom.webhook.json'), fixture('c/boom'));
    writeFileSync(
      join(folder, 'd-nobody.webhook.json'),
      '{"wfsFixture":1,"topic":"d/x","subTopic":"s:d/x","tenant":"t"}',
    );
    const app = new RecordingServer();
    app.respond = (_n, req) =>
      /b\/conflict/.test(String(req.headers['x-svc-topic']))
        ? 409
        : /boom/.test(String(req.headers['x-svc-topic']))
          ? 500
          : 202;
    const to = await app.start();
    const send = await wfs(['send', folder, '--to', to, '--sandbox-url', s.info.baseUrl]);
    assert.equal(await send.exitCode(), 1);
    const sent = send.events('fixture-sent');
    assert.deepEqual(
      sent.map((l) => [l.status, l.expected, l.passed]),
      [
        [202, '2xx', true],
        [409, 409, true],
        [500, '2xx', false],
      ],
    );
    assert.equal(typeof sent[2]!.answer, 'string', 'the answer is printed');
    const [invalid] = send.events('fixture-invalid');
    assert.equal(invalid!.problems[0].field, 'body');
    assert.match(invalid!.problems[0].message, /names topic "d\/x" but no body/);
    // The invalid fixture is counted as such: not as an answer that "did not", and not as 0 not sent.
    const summary = send.events('send-summary')[0]!;
    assert.deepEqual([summary.passed, summary.failed, summary.invalid, summary.notSent], [2, 1, 1, 0]);
    // On a terminal: text, one line per answer, failures in red words.
    const human = await wfs(['send', folder, '--to', to, '--sandbox-url', s.info.baseUrl, '--human']);
    assert.equal(await human.exitCode(), 1);
    assert.match(human.stdout, /✗ \[3\/4\] .*c-boom\.webhook\.json → 500 \(expected 2xx\) in \d+ ms/);
    assert.match(
      human.stdout,
      /✗ \[4\/4\] .*d-nobody\.webhook\.json: not sent, the fixture is invalid\n {4}1:1 body: "body" is missing/,
    );
    assert.match(human.stdout, /✗ 2 of 4 fixture\(s\) answered as expected by .*, 1 did not, 1 invalid \(not sent\) /);
    await app.stop();
  });

  it('an unreachable target: one clear line with the time waited; the rest are not sent; exit 1', async () => {
    const folder = join(dir, 'unreachable');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.webhook.json'), fixture('a/a'));
    writeFileSync(join(folder, 'b.webhook.json'), fixture('b/b'));
    // A port that was free a moment ago: nothing listens there.
    const probe: Server = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const send = await wfs(['send', folder, '--to', `http://127.0.0.1:${port}/hook`, '--sandbox-url', s.info.baseUrl]);
    assert.equal(await send.exitCode(), 1);
    const [error] = send.events('error');
    assert.equal(error!.kind, 'unreachable');
    assert.match(
      error!.message,
      new RegExp(
        `^cannot reach http://127\\.0\\.0\\.1:${port}/hook: ECONNREFUSED \\(waited \\d+ ms\\); the other 1 fixture\\(s\\) were not sent`,
      ),
    );
    assert.equal(send.events('send-summary')[0]!.notSent, 1);
    // A target that takes the connection and never answers: named with --timeout's wait.
    const silent: Server = createServer((sock) => void sock.on('data', () => undefined));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const to = `http://127.0.0.1:${(silent.address() as { port: number }).port}/hook`;
      const slow = await wfs([
        'send',
        join(folder, 'a.webhook.json'),
        '--to',
        to,
        '--sandbox-url',
        s.info.baseUrl,
        '--timeout',
        '1',
      ]);
      assert.equal(await slow.exitCode(), 1);
      const [e] = slow.events('error');
      assert.equal(e!.kind, 'timeout');
      assert.match(e!.message, /^no answer from http:\/\/127\.0\.0\.1:\d+\/hook within 1000 ms \(waited 1\d{3} ms\)/);
    } finally {
      silent.close();
    }
  });

  it('usage: no fixtures named, no fixture in a folder, and an address off this machine without --allow-remote', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'wfs-send-empty-'));
    for (const [args, message] of [
      [['send', '--to', 'http://127.0.0.1:9/'], /name the fixtures to send/],
      [['send', empty, '--to', 'http://127.0.0.1:9/'], /no \*\.webhook\.json files in/],
      [['send', empty, '--to', 'http://192.0.2.1:9/'], /is not on this machine: add --allow-remote/],
      [['send', join(empty, 'missing.webhook.json'), '--to', 'http://127.0.0.1:9/'], /no such file or folder/],
    ] as const) {
      const p = await wfs([...args]);
      assert.equal(await p.exitCode(), 2, p.stdout);
      assert.match(p.events('error')[0]!.message, message);
    }
  });
});
