// The one target of a command as an https app with its own certificate, as a user meets it: `wfs listen --forward-to`
// and `wfs mcp --forward-to` take --forward-ca FILE, `wfs send --to` and `wfs audit --target` take --ca FILE. Against
// an app serving a self-signed certificate (made here with openssl), each fails with the reason named and the flag
// that fixes it, then reaches the app with the flag.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { makeTestCertificates, startHttpsApp, type TestCertificates } from '../unit/helpers/testCertificates';
import { sendDelivery, signedBy } from './helpers/deliveries';
import { mcpOverStdio } from './helpers/mcpClient';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const FIXTURE = JSON.stringify({
  wfsFixture: 1,
  topic: 'orders/created',
  subTopic: 'event:orders/created',
  tenant: 't1',
  body: { webhookId: '{{webhookId}}', topic: 'orders/created', triggeredAt: '{{triggeredAt}}', data: {} },
});

/** The words of a self-signed certificate at `origin`, with the flag that gives its root. */
const selfSignedWords = (origin: string, flag: string) =>
  `at ${origin} presented a self-signed certificate: give ${flag} FILE with the root that signed it, or that certificate itself as PEM (mkcert -CAROOT shows where mkcert keeps its root, rootCA.pem) (DEPTH_ZERO_SELF_SIGNED_CERT)`;

describe('https targets of one-target flags: --forward-ca and --ca, as a process', function () {
  this.timeout(90_000);
  const s = withSandboxProcess();
  let certs: TestCertificates;
  before(() => {
    certs = makeTestCertificates();
  });
  after(() => certs.remove());

  const post = async (url: string, body: Buffer) =>
    sendDelivery(url, { body, token: await signedBy(s.info.baseUrl, body) });
  const event = (n: number) =>
    Buffer.from(`{"webhookId":"00000000-0000-4000-8000-0000000001${n}0","topic":"orders/created"}`);

  it('wfs listen --forward-to a self-signed app: named with --forward-ca as the fix, then 200 with --forward-ca FILE', async () => {
    const app = await startHttpsApp(certs.selfSigned, { host: 'localhost' });
    try {
      const refused = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--forward-to', `${app.origin}/in`]);
      const { url } = await refused.event('ready');
      assert.equal(await post(url, event(1)), 200);
      const line = await refused.event('delivery');
      assert.equal(line.forwards[0].tls, 'self-signed');
      assert.equal(line.forwards[0].error, `your app ${selfSignedWords(app.origin, '--forward-ca')}`);
      await refused.stopCleanly();
      assert.deepEqual(app.paths, [], 'nothing reached the app');

      // A path relative to where wfs runs, as --forward's ca=FILE.
      const trusted = new WfsProcess(
        [
          'listen',
          '--trust-sandbox',
          s.info.baseUrl,
          '--forward-to',
          `${app.origin}/in`,
          '--forward-ca',
          basename(certs.selfSigned.cert),
        ],
        {},
        { cwd: dirname(certs.selfSigned.cert) },
      );
      const ready = await trusted.event('ready');
      assert.equal(await post(ready.url, event(2)), 200);
      const forwarded = await trusted.event('delivery');
      assert.equal(forwarded.forwards[0].status, 200);
      assert.equal(forwarded.forwards[0].tls, undefined);
      assert.deepEqual(app.paths, ['/in']);
      await trusted.stopCleanly();
    } finally {
      await app.stop();
    }
  });

  it('--forward-ca that is no certificate, or --forward-insecure off this machine, is exit 2 naming the flag', async () => {
    const notPem = join(mkdtempSync(join(tmpdir(), 'wfs-ca-')), 'notes.txt');
    writeFileSync(notPem, 'not a certificate');
    const cases: [string[], RegExp][] = [
      [
        [
          'listen',
          '--trust-sandbox',
          s.info.baseUrl,
          '--forward-to',
          'https://localhost:3443/in',
          '--forward-ca',
          notPem,
        ],
        new RegExp(`^--forward-ca: the ca file ${notPem} holds no PEM certificate`),
      ],
      [
        ['mcp', '--forward-to', 'https://app.example.com/in', '--allow-remote', '--forward-insecure'],
        /^--forward-insecure is allowed for a target on this machine only \(localhost, 127\.0\.0\.1, ::1\), not app\.example\.com: give its root certificate in --forward-ca instead$/,
      ],
      [
        [
          'listen',
          '--trust-sandbox',
          s.info.baseUrl,
          '--forward-to',
          'http://localhost:3000/in',
          '--forward-ca',
          notPem,
        ],
        /^--forward-ca applies to an https target only; this one is http:\/\/$/,
      ],
    ];
    for (const [args, words] of cases) {
      const p = new WfsProcess(args);
      assert.equal(await p.exitCode(), 2, args.join(' '));
      // wfs mcp says its errors on stderr (stdout is the client's on stdio).
      const said = [
        ...p.lines,
        ...p.stderr
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l)),
      ];
      const error = said.reverse().find((l) => l.event === 'error')!;
      assert.equal(error.kind, 'usage');
      assert.match(String(error.message), words);
    }
  });

  it('wfs mcp --forward-to a self-signed app: its replay names --forward-ca; with it, the receiver forwards and the replay reaches the app', async () => {
    const app = await startHttpsApp(certs.selfSigned, { host: 'localhost' });
    const connect = async (extra: string[]) => {
      const { client, call } = await mcpOverStdio(['--forward-to', `${app.origin}/in`, ...extra]);
      return { client, call };
    };
    try {
      const without = await connect([]);
      try {
        const sent = await without.call('wfs_send_event', { to: 'app', topic: 'orders/created' });
        assert.equal(sent.answer.status, null);
        assert.equal(sent.answer.tls, 'self-signed');
        assert.equal(sent.answer.error, `your app ${selfSignedWords(app.origin, '--forward-ca')}`);
        assert.deepEqual(app.paths, []);
      } finally {
        await without.client.close();
      }

      const withCa = await connect(['--forward-ca', certs.selfSigned.cert]);
      try {
        const sent = await withCa.call('wfs_send_event', { to: 'receiver', topic: 'orders/created' });
        assert.equal(sent.answer.status, 200);
        assert.deepEqual(app.paths, ['/in'], "its own receiver forwarded the verified delivery through the app's TLS");
        const replayed = await withCa.call('wfs_replay_to_app', { topic: 'orders/created' });
        assert.equal(replayed.answer.status, 200, JSON.stringify(replayed.answer));
        assert.equal(replayed.answer.body, 'ok');
        assert.deepEqual(app.paths, ['/in', '/in']);
      } finally {
        await withCa.client.close();
      }
    } finally {
      await app.stop();
    }
  });

  it('wfs send --to and wfs audit --target a self-signed app: named with --ca as the fix, then reached with --ca FILE', async () => {
    const app = await startHttpsApp(certs.selfSigned, { host: 'localhost' });
    const env = { WFS_BASE_URL: s.info.baseUrl, WFS_SANDBOX_SECRET: s.info.controlSecret };
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'wfs-send-ca-')), 'one.webhook.json');
      writeFileSync(file, FIXTURE);
      const refused = new WfsProcess(['send', file, '--to', `${app.origin}/in`], env);
      assert.equal(await refused.exitCode(), 1);
      const err = refused.events('error')[0]!;
      assert.equal(err.tls, 'self-signed');
      assert.match(
        String(err.message),
        new RegExp(`^your app at ${app.origin} presented a self-signed certificate: give --ca FILE`),
      );
      assert.deepEqual(app.paths, []);

      const sent = new WfsProcess(['send', file, '--to', `${app.origin}/in`, '--ca', certs.selfSigned.cert], env);
      assert.equal(await sent.exitCode(), 0, sent.stdout + sent.stderr);
      const line = sent.events('fixture-sent')[0]!;
      assert.deepEqual([line.status, line.passed, line.answer], [200, true, 'ok']);
      assert.deepEqual(app.paths, ['/in']);

      const audit = new WfsProcess(['audit', '--target', `${app.origin}/in`], env);
      assert.equal(await audit.exitCode(), 8, audit.stdout + audit.stderr);
      const failed = audit.events('error')[0]!;
      assert.deepEqual([failed.kind, failed.tls], ['target-unreachable', 'self-signed']);
      assert.equal(failed.message, `your receiver ${selfSignedWords(app.origin, '--ca')}: nothing was audited.`);

      // With --ca the cases reach it: an app that answers 200 to everything passes the genuine delivery and fails
      // the forgeries, which is an audit that ran (exit 1), not one that found nothing there (exit 8).
      const audited = new WfsProcess(['audit', '--target', `${app.origin}/in`, '--ca', certs.selfSigned.cert], env);
      assert.equal(await audited.exitCode(), 1, audited.stdout + audited.stderr);
      const genuine = audited.events('case').find((c) => c.id === 'genuine')!;
      assert.deepEqual([genuine.status, genuine.passed], [200, true]);
      assert.ok(audited.events('case').length > 5);
      assert.ok(audited.events('summary')[0]!.failed > 0);
    } finally {
      await app.stop();
    }
  });
});
