// wfs_audit_receiver through runTool: a receiver that trusts the signing sandbox passes all 30 cases; one that trusts
// another issuer is not judged on attacks it never saw: the audit stops and says how to make the trust match; a host
// off this machine is not sent anything.
import assert from 'node:assert/strict';
import { auditTargetCommand } from '../../../src/core/assistant/auditTargetRule';
import { previewTool, runTool } from '../../../src/core/assistant/toolRegistry';
import { RecordingServer } from '../helpers/recordingServer';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

describe('assistant: wfs_audit_receiver', function () {
  let f: AssistantFixture;
  beforeEach(async () => {
    f = await assistantFixture();
  });
  afterEach(() => f.stop());

  it('a receiver that trusts the signing sandbox: 30 cases, no failure', async () => {
    const out = await runTool('wfs_audit_receiver', { target: 'receiver' }, f.ctx);
    assert.ok(out.ok, JSON.stringify(out).slice(0, 400));
    const r = out.result as { total: number; failures: unknown[]; signedBy: { issuer: string } };
    assert.equal(r.total, 30);
    assert.deepEqual(r.failures, []);
    assert.equal(r.signedBy.issuer, f.sandbox.info.issuer);
  });

  it('a receiver that trusts another issuer: the audit stops at the genuine delivery and says how to match', async () => {
    const other = new Receiver({
      verifier: new Verifier({
        issuers: [{ issuer: 'https://other.example', audience: 'x', jwksUrl: 'http://127.0.0.1:9/jwks.json' }],
        clock: f.sandbox.clock,
      }),
      clock: f.sandbox.clock,
      history: new DeliveryHistory(),
    });
    const url = await other.start();
    f.auditAnswer = true; // the person confirms the address the model named
    try {
      const out = await runTool('wfs_audit_receiver', { target: url }, f.ctx);
      assert.deepEqual(f.askedAudits, [url]);
      assert.ok(out.ok);
      const r = out.result as { trustMismatch?: { refusal: string; advice: string; notSent: number } };
      assert.ok(r.trustMismatch, 'the mismatch is said');
      assert.ok(r.trustMismatch.advice.includes(f.sandbox.info.issuer), r.trustMismatch.advice);
      assert.ok(r.trustMismatch.notSent > 0);
    } finally {
      await other.stop();
    }
  });

  it('a host off this machine is refused before anything is sent or asked', async () => {
    const out = await runTool('wfs_audit_receiver', { target: 'https://receiver.example/webhooks' }, f.ctx);
    assert.ok(!out.ok);
    assert.match(out.error, /not on this machine/);
    assert.deepEqual(f.askedAudits, []);
  });
});

// Issue #74, hole 9: the model names no destination. "receiver" and "app" are the configured ones; any other address
// is audited only after a person confirmed it, and a client that cannot ask gets the `wfs audit` line instead.
describe('assistant: wfs_audit_receiver takes "receiver" or "app"; another address needs a person (hole 9)', function () {
  let f: AssistantFixture;
  let elsewhere: RecordingServer;
  let elsewhereUrl: string;
  beforeEach(async () => {
    f = await assistantFixture();
    elsewhere = new RecordingServer();
    elsewhereUrl = `${await elsewhere.start()}/hooks?x=1&y=2`;
  });
  afterEach(async () => {
    await elsewhere.stop();
    await f.stop();
  });

  it('"app" audits the configured forward target, without asking', async () => {
    f.appUrl = elsewhereUrl;
    const out = await runTool('wfs_audit_receiver', { target: 'app' }, f.ctx);
    assert.ok(out.ok, JSON.stringify(out).slice(0, 300));
    assert.ok(elsewhere.requests.length > 0);
    assert.deepEqual(f.askedAudits, []);
  });

  it('an address the person cannot be asked about: nothing sent; the exact wfs audit line, shell-quoted', async () => {
    const out = await runTool('wfs_audit_receiver', { target: elsewhereUrl }, f.ctx);
    assert.ok(!out.ok);
    assert.equal(elsewhere.requests.length, 0);
    assert.equal(out.details.command, `wfs audit --target '${elsewhereUrl}'`);
    assert.equal(out.details.reason, 'cannot-ask');
    assert.match(out.error, /cannot ask/);
  });

  it('declined: nothing sent; confirmed: the audit goes there', async () => {
    f.auditAnswer = false;
    const no = await runTool('wfs_audit_receiver', { target: elsewhereUrl }, f.ctx);
    assert.ok(!no.ok && /declined/.test(no.error));
    assert.equal(elsewhere.requests.length, 0);
    f.auditAnswer = true;
    const yes = await runTool('wfs_audit_receiver', { target: elsewhereUrl }, f.ctx);
    assert.ok(yes.ok);
    assert.ok(elsewhere.requests.length > 0);
    assert.ok(elsewhere.requests.every((r) => r.url === '/hooks?x=1&y=2'));
  });

  it('an address with a line break, or with credentials, is refused before anyone is asked', async () => {
    f.auditAnswer = true;
    const broken = await runTool('wfs_audit_receiver', { target: `${elsewhereUrl}\nNOTE TO USER: safe` }, f.ctx);
    assert.ok(!broken.ok);
    assert.match(broken.error, /^target holds a control character \(U\+000A/);
    const withPassword = elsewhereUrl.replace('http://', 'http://alice:Pw99secret@');
    const creds = await runTool('wfs_audit_receiver', { target: withPassword }, f.ctx);
    assert.ok(!creds.ok);
    assert.match(creds.error, /holds a user name or password/);
    assert.ok(!creds.error.includes('Pw99secret'));
    assert.deepEqual(f.askedAudits, []);
    assert.equal(elsewhere.requests.length, 0);
  });

  it('a configured address the confirmation could not show: no preview, and the run refuses too', async () => {
    f.appUrl = `${elsewhereUrl}\u202e`;
    assert.equal(await previewTool('wfs_audit_receiver', { target: 'app' }, f.ctx), undefined);
    const out = await runTool('wfs_audit_receiver', { target: 'app' }, f.ctx);
    assert.ok(!out.ok && /^the address of your app \(the forward target\) holds a control character/.test(out.error));
    assert.equal(elsewhere.requests.length, 0);
  });

  it('the command quotes only where a shell needs it, and names --allow-remote off this machine', () => {
    assert.equal(auditTargetCommand('http://127.0.0.1:3000/hooks'), 'wfs audit --target http://127.0.0.1:3000/hooks');
    assert.equal(
      auditTargetCommand('https://hooks.example/a b'),
      "wfs audit --target 'https://hooks.example/a b' --allow-remote",
    );
  });
});
