// A stranger's bytes never drive the terminal of `wfs listen --human` (#74, hole 7): a verified delivery whose topic
// holds a raw ESC, and a refused one whose token names an issuer with a raw U+009B (a CSI to many terminals), are
// printed with visible escapes, and no control byte reaches the output.
import assert from 'node:assert/strict';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { sendDelivery, signedBy } from './helpers/deliveries';

/** Any byte a terminal acts on, bar tab and line feed: C0, DEL, C1, bidi controls, U+2028/2029. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('wfs listen --human: outside text on the terminal is escaped', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();

  it('a verified topic with ESC and a refusal detail with U+009B are shown as \\x1b and \\u009b, no raw control byte', async () => {
    const listen = new WfsProcess(['listen', '--human', '--no-tunnel', '--trust-sandbox', s.info.baseUrl], {
      NO_COLOR: '1',
    });
    const ready = await listen.line((l) => /Receiver listening at /.test(String(l.text)), 'the ready line');
    const url = /Receiver listening at (\S+)/.exec(String(ready.text))![1]!;

    const body = Buffer.from(
      JSON.stringify({
        webhookId: '7e4c2a10-0000-4000-8000-000000000074',
        topic: 'orders\x1b[2J\x1b]0;owned\x07/created',
        subTopic: 'status:orders/created',
        tenantId: 'tenant-dev',
        triggeredAt: '2026-11-28T03:00:00.0000000Z',
        data: {},
      }),
    );
    assert.equal(await sendDelivery(url, { body, token: await signedBy(s.info.baseUrl, body) }), 200);
    const verified = await listen.line((l) => /verified/.test(String(l.text)), 'the verified delivery line');
    assert.match(String(verified.text), /orders\\x1b\[2J\\x1b\]0;owned\\x07\/created/);

    // A token whose issuer nobody trusts: refused at step 2, whose detail quotes the issuer.
    const token = `${b64url({ alg: 'RS256', kid: 'k1' })}.${b64url({ iss: 'https://evil.example/\x9b2J\u202egnp.exe' })}.AAAA`;
    assert.equal(await sendDelivery(url, { body: Buffer.from('{}'), token }), 403);
    const detail = await listen.line((l) => /step 2/.test(String(l.text)), 'the refusal detail');
    assert.match(String(detail.text), /issuer "https:\/\/evil\.example\/\\u009b2J\\u202egnp\.exe" is not trusted/);

    await listen.stopCleanly();
    assert.doesNotMatch(listen.stdout, CONTROL, JSON.stringify(listen.stdout));
    assert.doesNotMatch(listen.stderr, CONTROL, JSON.stringify(listen.stderr));
  });
});
