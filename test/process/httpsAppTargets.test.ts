// An https app with its own certificate, as a user meets it: `wfs listen --forward` to an app serving a self-signed
// certificate (made here with openssl) fails with the reason named, then succeeds once the rule says `ca`; `insecure`
// is refused for a target off this machine and marked on every line where it is used; `wfs send` and `wfs audit`
// name a certificate problem at their target too.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { makeTestCertificates, startHttpsApp, type TestCertificates } from '../unit/helpers/testCertificates';
import { sendDelivery, signedBy } from './helpers/deliveries';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const FIXTURE = JSON.stringify({
  wfsFixture: 1,
  topic: 'orders/created',
  subTopic: 'event:orders/created',
  tenant: 't1',
  body: { webhookId: '{{webhookId}}', topic: 'orders/created', triggeredAt: '{{triggeredAt}}', data: {} },
});

describe('https app targets: ca, insecure and named certificate problems, as a process', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();
  let certs: TestCertificates;
  before(() => {
    certs = makeTestCertificates();
  });
  after(() => certs.remove());

  const event = (n: number) =>
    Buffer.from(
      `{"webhookId":"00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}","topic":"orders/created"}`,
    );
  const post = async (url: string, body: Buffer) =>
    sendDelivery(url, { body, token: await signedBy(s.info.baseUrl, body) });

  it('wfs listen --forward to a self-signed app: named "self-signed" with its fix, then 200 with ca=FILE', async () => {
    const app = await startHttpsApp(certs.selfSigned, { host: 'localhost' });
    try {
      const refused = new WfsProcess([
        'listen',
        '--trust-sandbox',
        s.info.baseUrl,
        '--forward',
        `**=${app.origin}/webhooks`,
      ]);
      const { url } = await refused.event('ready');
      assert.equal(await post(url, event(1)), 200, 'the service is answered 200 without --pass-through');
      const line = await refused.event('delivery');
      assert.equal(line.forwards[0].tls, 'self-signed');
      assert.equal(line.forwards[0].status, undefined);
      // The JSON line keeps its format: the words kept for VS Code (errorSaid) are not in it.
      assert.deepEqual(
        Object.keys(line.forwards[0]).filter((k) => /said/i.test(k)),
        [],
      );
      assert.equal(
        line.forwards[0].error,
        `your app at ${app.origin} presented a self-signed certificate: add \`ca\` to the forward rule with the root that signed it, or that certificate itself (mkcert -CAROOT shows where mkcert keeps its root, rootCA.pem) (DEPTH_ZERO_SELF_SIGNED_CERT)`,
      );
      await refused.stopCleanly();
      assert.deepEqual(app.paths, [], 'nothing reached the app');

      // The same app, its certificate given as `ca` by a path relative to where wfs runs; on a terminal.
      const trusted = new WfsProcess(
        [
          'listen',
          '--trust-sandbox',
          s.info.baseUrl,
          '--forward',
          `**=${app.origin}/webhooks ca=${basename(certs.selfSigned.cert)}`,
          '--human',
        ],
        {},
        { cwd: dirname(certs.selfSigned.cert) },
      );
      const ready = await trusted.line((l) => /^✓ Receiver listening at /.test(String(l.text)), 'the ready line');
      assert.equal(await post(/listening at (\S+)/.exec(String(ready.text))![1]!, event(2)), 200);
      const forwarded = await trusted.line((l) => /forwarded: /.test(String(l.text)), 'the forward line');
      assert.match(
        String(forwarded.text),
        new RegExp(`^ {4}forwarded: ${app.origin}/webhooks → 200 in \\d+ ms \\(2 B\\): "ok"$`),
      );
      assert.deepEqual(app.paths, ['/webhooks']);
      await trusted.stopCleanly();
    } finally {
      await app.stop();
    }
  });

  it('insecure: refused for a target off this machine (exit 2); on loopback every line says the certificate was not checked', async () => {
    const remote = new WfsProcess([
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--forward',
      '**=https://staging.example.com/webhooks insecure',
    ]);
    assert.equal(await remote.exitCode(), 2);
    assert.match(
      String(remote.lines.at(-1)!.message),
      /"insecure" is allowed for a target on this machine only \(localhost, 127\.0\.0\.1, ::1\), not staging\.example\.com: give its root certificate in "ca" instead/,
    );
    const app = await startHttpsApp(certs.selfSigned);
    try {
      for (const face of ['--json', '--human']) {
        const listen = new WfsProcess([
          'listen',
          '--trust-sandbox',
          s.info.baseUrl,
          '--forward',
          `**=${app.origin}/webhooks insecure`,
          face,
        ]);
        if (face === '--json') {
          const { url } = await listen.event('ready');
          assert.equal(await post(url, event(3)), 200);
          const line = await listen.event('delivery');
          assert.deepEqual([line.forwards[0].status, line.forwards[0].insecure], [200, true]);
        } else {
          const ready = await listen.line((l) => /^✓ Receiver listening at /.test(String(l.text)), 'the ready line');
          assert.equal(await post(/listening at (\S+)/.exec(String(ready.text))![1]!, event(4)), 200);
          const text = await listen.line((l) => /forwarded: /.test(String(l.text)), 'the forward line');
          assert.match(
            String(text.text),
            new RegExp(`^ {4}forwarded: ${app.origin}/webhooks \\(certificate not checked\\) → 200 in \\d+ ms`),
          );
        }
        await listen.stopCleanly();
      }
    } finally {
      await app.stop();
    }
  });

  it('ca=FILE that is a private key, or not PEM, is refused at start naming the file (exit 2)', async () => {
    const notPem = join(mkdtempSync(join(tmpdir(), 'wfs-ca-')), 'settings.json');
    writeFileSync(notPem, '{}');
    for (const [file, words] of [
      [certs.rootCa.key, /holds a private key: give the root's certificate \(mkcert's rootCA\.pem\), never its key/],
      [notPem, /holds no PEM certificate/],
    ] as const) {
      const listen = new WfsProcess([
        'listen',
        '--trust-sandbox',
        s.info.baseUrl,
        '--forward',
        `**=https://localhost:3443/webhooks ca=${file}`,
      ]);
      assert.equal(await listen.exitCode(), 2);
      assert.match(String(listen.lines.at(-1)!.message), words);
    }
  });

  it('wfs send to an app with an expired certificate, and wfs audit of a receiver with a self-signed one: named', async () => {
    const expired = await startHttpsApp(certs.expired);
    const selfSigned = await startHttpsApp(certs.selfSigned);
    const env = { WFS_BASE_URL: s.info.baseUrl, WFS_SANDBOX_SECRET: s.info.controlSecret };
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'wfs-send-tls-')), 'one.webhook.json');
      writeFileSync(file, FIXTURE);
      const send = new WfsProcess(['send', file, '--to', `${expired.origin}/webhooks`], env);
      assert.notEqual(await send.exitCode(), 0);
      const sent = send.events('fixture-sent')[0]!;
      assert.deepEqual([sent.failure, sent.tls], ['network', 'expired']);
      const err = send.events('error')[0]!;
      assert.equal(err.tls, 'expired');
      assert.match(
        String(err.message),
        new RegExp(
          `^your app at ${expired.origin} presented an expired certificate: make a new one .*\\(CERT_HAS_EXPIRED\\)`,
        ),
      );
      assert.doesNotMatch(String(err.message), /is running and reachable/);

      const audit = new WfsProcess(['audit', '--target', `${selfSigned.origin}/webhooks`], env);
      assert.equal(await audit.exitCode(), 8, audit.stdout + audit.stderr);
      const failed = audit.events('error')[0]!;
      assert.deepEqual([failed.kind, failed.tls], ['target-unreachable', 'self-signed']);
      assert.match(
        String(failed.message),
        new RegExp(
          `^your receiver at ${selfSigned.origin} presented a self-signed certificate: give --ca FILE .*: nothing was audited\\.$`,
        ),
      );
    } finally {
      await Promise.all([expired.stop(), selfSigned.stop()]);
    }
  });
});
