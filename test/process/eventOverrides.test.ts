// #76, item 3: `--set path=value` wherever an event is made (send, sign, test-webhook, fixture new) and a fixture's
// {{env.NAME}} / {{uuid}} / {{now}}, as a user runs them: the change arrives, signed over the changed bytes and
// verified by `wfs listen`; a path the event does not have, or a variable that is not set, is refused with its
// name, a non-zero exit, and nothing sent (the receiver gets nothing).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingServer } from '../unit/helpers/recordingServer';
import { testWebhookArgs } from './helpers/commandArgs';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const EVENT = {
  webhookId: '0b7c9a52-3f1e-4d2a-9b8c-7e6f5a4d3c2b',
  topic: 'workflow/completed',
  subTopic: 'status:workflow/completed',
  tenantId: 't1',
  triggeredAt: '2026-11-28T10:00:00.1234567Z',
  actorId: 'a',
  data: { runId: 'wfrun_1', count: 1, note: '{{env.RUN_NOTE}} at {{now}} as {{uuid}}' },
};

function fixtureFile(dir: string, name: string, body: unknown = EVENT): string {
  const file = join(dir, `${name}.webhook.json`);
  const doc = { wfsFixture: 1, topic: EVENT.topic, subTopic: EVENT.subTopic, tenant: 't1', body };
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

async function wfs(args: string[], env: Record<string, string> = {}): Promise<WfsProcess> {
  const p = new WfsProcess(args, env);
  await p.exited;
  return p;
}

describe('--set path=value and fixture placeholders', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();
  let dir: string;
  let app: RecordingServer;
  let appUrl: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wfs-set-'));
    app = new RecordingServer();
    appUrl = await app.start();
  });
  afterEach(() => app.stop());

  it('wfs send --set data.runId=wfrun_42 arrives with that value, verified by `wfs listen --trust-sandbox`; the header follows tenantId', async () => {
    const file = fixtureFile(dir, 'run');
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--forward-to', appUrl]);
    const { url } = await listen.event('ready');
    const send = await wfs(
      ['send', file, '--to', url, '--sandbox-url', s.info.baseUrl, '--set', 'data.runId=wfrun_42'].concat([
        '--set',
        'tenantId=t2',
        '--set',
        'data.count=3',
        '--set',
        'actorId="3"',
      ]),
      { RUN_NOTE: 'from "the shell"' },
    );
    assert.equal(await send.exitCode(), 0, send.stdout + send.stderr);
    const delivery = await listen.line((l) => l.event === 'delivery', 'the delivery line');
    assert.equal(delivery.verified, true, JSON.stringify(delivery.checks));
    await app.waitFor(1);
    const got = app.requests[0]!;
    const body = JSON.parse(got.body.toString('utf8')) as typeof EVENT;
    assert.equal(body.data.runId, 'wfrun_42');
    assert.equal(body.data.count, 3, 'a value that parses as JSON is JSON');
    assert.equal(body.actorId, '3', 'a JSON string stays a string');
    assert.equal(body.tenantId, 't2');
    assert.equal(got.headers['x-svc-tenant-id'], 't2', 'the header follows the body');
    assert.match(body.data.note, /^from "the shell" at \d{4}-\d\d-\d\dT[\d:]+\.\d{7}Z as [0-9a-f-]{36}$/);
    await listen.stopCleanly();
  });

  it('wfs send: a path the event does not have, or an unset variable, is refused by name; nothing is sent', async () => {
    const file = fixtureFile(dir, 'typo');
    const typo = await wfs(['send', file, '--to', appUrl, '--sandbox-url', s.info.baseUrl, '--set', 'data.runid=x'], {
      RUN_NOTE: 'n',
    });
    assert.equal(await typo.exitCode(), 2, typo.stdout + typo.stderr);
    const said = typo.events('error')[0]!;
    assert.match(
      said.message,
      /--set data\.runid is not in the event: data has no "runid"\. Did you mean data\.runId\?/,
    );
    assert.match(said.message, /Nothing was sent\.$/);
    assert.equal(typo.events('fixture-sent').length, 0);

    const unset = await wfs(['send', file, '--to', appUrl, '--sandbox-url', s.info.baseUrl]);
    assert.equal(await unset.exitCode(), 2, unset.stdout + unset.stderr);
    assert.match(unset.events('error')[0]!.message, /\{\{env\.RUN_NOTE\}\}: the variable RUN_NOTE is not set/);

    const secret = fixtureFile(dir, 'secret', { ...EVENT, data: { key: '{{env.DEPLOY_TOKEN}}' } });
    const refused = await wfs(['send', secret, '--to', appUrl, '--sandbox-url', s.info.baseUrl], {
      DEPLOY_TOKEN: 'tok',
    });
    assert.equal(await refused.exitCode(), 2);
    assert.match(
      refused.events('error')[0]!.message,
      /DEPLOY_TOKEN looks like a credential \(its name holds TOKEN\).*add --allow-env DEPLOY_TOKEN/,
    );
    assert.equal(app.requests.length, 0, 'the receiver got nothing');

    const allowed = await wfs(
      ['send', secret, '--to', appUrl, '--sandbox-url', s.info.baseUrl, '--allow-env', 'DEPLOY_TOKEN'],
      { DEPLOY_TOKEN: 'tok' },
    );
    assert.equal(await allowed.exitCode(), 0, allowed.stdout + allowed.stderr);
    assert.equal((JSON.parse(app.requests[0]!.body.toString()) as { data: { key: string } }).data.key, 'tok');
  });

  it('wfs sign --set: signs the changed bytes and prints them; the header alone is refused', async () => {
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify(EVENT, null, 2));
    const signed = await wfs(
      ['sign', '--body', event, '--sandbox-url', s.info.baseUrl, '--format', 'json'].concat([
        '--set',
        'data.runId=wfrun_42',
      ]),
    );
    assert.equal(await signed.exitCode(), 0, signed.stdout + signed.stderr);
    const line = signed.events('signed')[0]!;
    assert.equal((JSON.parse(line.body) as typeof EVENT).data.runId, 'wfrun_42');
    assert.equal(line.bodySha256, sha(line.body));
    assert.equal(line.claims.body_sha256, sha(line.body), 'signed over the changed bytes');
    assert.equal(line.body, JSON.stringify(EVENT, null, 2).replace('"wfrun_1"', '"wfrun_42"'), 'only that value');

    const header = await wfs(['sign', '--body', event, '--sandbox-url', s.info.baseUrl, '--set', 'data.runId=x']);
    assert.equal(await header.exitCode(), 2);
    assert.match(header.events('error')[0]!.message, /--set changes the body, so the header alone signs bytes/);
    const missing = await wfs(
      ['sign', '--body', event, '--sandbox-url', s.info.baseUrl, '--format', 'json'].concat(['--set', 'data.nope=1']),
    );
    assert.equal(await missing.exitCode(), 2);
    assert.match(missing.events('error')[0]!.message, /data\.nope is not in the event.*Nothing was signed\.$/);
    assert.equal(missing.events('signed').length, 0);
  });

  it('wfs test-webhook --set: the delivery carries the change, signed; a missing path sends nothing', async () => {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--forward-to', appUrl]);
    const { url } = await listen.event('ready');
    const data = join(dir, 'data.json');
    writeFileSync(data, JSON.stringify({ ...EVENT, data: { runId: 'wfrun_1' } }));
    const missing = new WfsProcess([...testWebhookArgs(url), '--data', data, '--set', 'data.run=1'], s.env);
    assert.equal(await missing.exitCode(), 2, missing.stdout + missing.stderr);
    assert.match(
      missing.events('error')[0]!.message,
      /--set data\.run is not in the event.*Did you mean data\.runId\?/,
    );
    assert.equal(missing.events('sent').length, 0);

    const p = new WfsProcess([...testWebhookArgs(url), '--data', data, '--set', 'data.runId=wfrun_42'], s.env);
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    const delivery = await listen.event('delivery');
    assert.equal(delivery.verified, true, JSON.stringify(delivery.checks));
    await app.waitFor(1);
    assert.equal(app.requests.length, 1, 'only the second was delivered');
    assert.equal((JSON.parse(app.requests[0]!.body.toString()) as typeof EVENT).data.runId, 'wfrun_42');
    await listen.stopCleanly();
  });

  it('wfs fixture new --set: the fixture holds the change; a missing path writes nothing', async () => {
    const event = join(dir, 'orders.json');
    writeFileSync(event, JSON.stringify(EVENT));
    const made = await wfs(['fixture', 'new', event, '--set', 'data.runId=wfrun_42', '--set', 'tenantId=t2']);
    assert.equal(await made.exitCode(), 0, made.stdout + made.stderr);
    assert.equal(made.events('fixture-written')[0]!.tenant, 't2', 'the header comes from the changed body');
    const written = JSON.parse(readFileSync(join(dir, 'orders.webhook.json'), 'utf8')) as {
      body: typeof EVENT;
      tenant: string;
    };
    assert.equal(written.body.data.runId, 'wfrun_42');
    assert.equal(written.tenant, 't2');

    const out = join(dir, 'other.webhook.json');
    const refused = await wfs(['fixture', 'new', event, '--out', out, '--set', '__proto__.x=1']);
    assert.equal(await refused.exitCode(), 2);
    assert.match(refused.events('error')[0]!.message, /"__proto__" is never a path's name/);
    const missing = await wfs(['fixture', 'new', event, '--out', out, '--set', 'tenant=t2']);
    assert.equal(await missing.exitCode(), 2);
    assert.match(missing.events('error')[0]!.message, /tenant is not in the event.*Did you mean tenantId\?/);
    assert.equal(existsSync(out), false);
  });
});
