// An https app with its own certificate, made in the test with openssl and served on loopback: a forward rule's `ca`
// trusts its root for that target only, `insecure` is allowed on loopback only and marks every answer, each
// certificate problem is named with its fix, and a `ca` file that is not a PEM bundle of certificates is refused.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { caCertificates, CaFileError, MAX_CA_FILE_BYTES, readCaFile } from '../../../src/core/http/targetTls';
import { sendDelivery } from '../../../src/core/http/sendDelivery';
import { Forwarder } from '../../../src/core/webhooks/forwardFanOut';
import { forwardLine } from '../../../src/core/webhooks/forwardText';
import {
  ForwardRuleError,
  parseForwardFlag,
  parseForwardRules,
  withCaFiles,
  type ForwardRule,
} from '../../../src/core/webhooks/forwardRules';
import { makeTestCertificates, startHttpsApp, type TestCertificates } from '../helpers/testCertificates';

describe('https app targets: ca, insecure, and certificate problems named', function () {
  this.timeout(20_000);
  let certs: TestCertificates;
  before(() => {
    certs = makeTestCertificates();
  });
  after(() => certs.remove());

  const forwarder = (rules: ForwardRule[]) => new Forwarder({ rules: withCaFiles(rules, certs.dir) });
  const forwardOnce = async (f: Forwarder) => {
    try {
      return (await f.send({ topic: 'payments/settled' }, {}, Buffer.from('{}')))![0]!;
    } finally {
      await f.close();
    }
  };

  it('a leaf signed by an unknown root fails, named; with `ca` (a relative path) the same target answers', async () => {
    const app = await startHttpsApp(certs.leaf);
    try {
      const without = await forwardOnce(forwarder(parseForwardRules([{ url: `${app.origin}/hooks` }], 'r')));
      assert.equal(without.status, undefined);
      assert.equal(without.tls, 'unknown-authority');
      assert.match(
        without.error!,
        /^your app at https:\/\/127\.0\.0\.1:\d+ presented a certificate signed by an authority this process does not know: add `ca`/,
      );
      const withCa = await forwardOnce(forwarder([parseForwardFlag(`**=${app.origin}/hooks ca=rootCA.pem`)]));
      assert.equal(withCa.status, 200);
      assert.equal(withCa.body, 'ok');
      assert.equal(withCa.insecure, undefined);
      assert.deepEqual(app.paths, ['/hooks']);
      // Only that target: the process's own trust is unchanged.
      const plain = await sendDelivery({ url: `${app.origin}/x`, body: '{}' });
      assert.equal(plain.tls, 'unknown-authority');
      assert.match(plain.error!, /NODE_EXTRA_CA_CERTS/, "outside a rule the fix is the process's environment");
    } finally {
      await app.stop();
    }
  });

  it('self-signed, expired and wrong-name certificates are each named with their fix, `ca` given or not', async () => {
    const expect = [
      [certs.selfSigned, 'self-signed', /presented a self-signed certificate: add `ca`/],
      [certs.expired, 'expired', /presented an expired certificate: make a new one/],
      [
        certs.wrongName,
        'wrong-name',
        /presented a certificate for other names \(DNS:other\.example\), not 127\.0\.0\.1/,
      ],
    ] as const;
    for (const [files, problem, words] of expect) {
      const app = await startHttpsApp(files);
      try {
        const a = await forwardOnce(forwarder([parseForwardFlag(`**=${app.origin}/ ca=${certs.rootCa.cert}`)]));
        assert.equal(a.tls, problem, problem);
        assert.match(a.error!, words);
        assert.match(forwardLine(a), /^forward failed: https:\/\/127\.0\.0\.1:\d+\/ → your app at/);
      } finally {
        await app.stop();
      }
    }
  });

  it('a self-signed certificate given as `ca` itself is trusted', async () => {
    const app = await startHttpsApp(certs.selfSigned);
    try {
      const a = await forwardOnce(forwarder([parseForwardFlag(`**=${app.origin}/ ca=${certs.selfSigned.cert}`)]));
      assert.equal(a.status, 200);
    } finally {
      await app.stop();
    }
  });

  it('`insecure` reaches a self-signed loopback app and marks its answer and its line', async () => {
    const app = await startHttpsApp(certs.selfSigned, { host: 'localhost' });
    try {
      const a = await forwardOnce(forwarder([parseForwardFlag(`**=${app.origin}/hooks insecure`)]));
      assert.equal(a.status, 200);
      assert.equal(a.insecure, true);
      assert.match(forwardLine(a), /^forwarded: https:\/\/localhost:\d+\/hooks \(certificate not checked\) → 200 in/);
    } finally {
      await app.stop();
    }
  });

  it('plain http at an https URL is named as such', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_q, r) => r.end('plain'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const a = await forwardOnce(forwarder([parseForwardFlag(`**=https://127.0.0.1:${port}/`)]));
      assert.equal(a.tls, 'not-tls');
      assert.match(a.error!, /does not speak TLS on that port: if it serves plain http, use an http:\/\/ URL/);
    } finally {
      server.close();
    }
  });
});

describe('forward rules: ca and insecure, checked', () => {
  const refused = (input: unknown, words: RegExp) =>
    assert.throws(
      () => parseForwardRules([input], 'wfs.receiver.forward'),
      (e: Error) => e instanceof ForwardRuleError && words.test(e.message),
    );

  it('insecure is allowed for loopback https targets only; ca and insecure apply to https only, not together', () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]'])
      assert.equal(parseForwardRules([{ url: `https://${host}:3443/`, insecure: true }], 'r')[0]!.insecure, true);
    refused(
      { url: 'https://staging.example.com/hooks', insecure: true },
      /"insecure" is allowed for a target on this machine only .* not staging\.example\.com: give its root certificate in "ca" instead/,
    );
    refused({ url: 'https://192.168.1.20/hooks', insecure: true }, /on this machine only/);
    refused({ url: 'http://localhost:3000/', insecure: true }, /"insecure" applies to an https target only/);
    refused({ url: 'http://localhost:3000/', ca: 'rootCA.pem' }, /"ca" applies to an https target only/);
    refused({ url: 'https://localhost:3443/', ca: 'a.pem', insecure: true }, /exclude each other/);
    refused({ url: 'https://localhost:3443/', ca: 42 }, /"ca" must be the path of a PEM file/);
    refused({ url: 'https://localhost:3443/', insecure: 'yes' }, /"insecure" must be true or false/);
    // insecure: false says nothing; a ca off this machine is fine (a staging host with an internal root).
    assert.equal(parseForwardRules([{ url: 'https://x.example/', insecure: false }], 'r')[0]!.insecure, undefined);
    assert.equal(parseForwardRules([{ url: 'https://x.example/', ca: '/etc/ca.pem' }], 'r')[0]!.ca, '/etc/ca.pem');
  });

  it('--forward takes one option after the URL: ca=FILE (the rest, spaces kept) or insecure', () => {
    const ca = parseForwardFlag('payments/*=https://localhost:3443/hooks ca=/home/me/my certs/rootCA.pem');
    assert.equal(ca.url, 'https://localhost:3443/hooks');
    assert.equal(ca.ca, '/home/me/my certs/rootCA.pem');
    assert.equal(parseForwardFlag('**=https://127.0.0.1:3443/ insecure').insecure, true);
    assert.throws(
      () => parseForwardFlag('**=https://localhost:3443/ verify=no'),
      /after the URL comes one option, ca=FILE .* or insecure/,
    );
    assert.throws(() => parseForwardFlag('**=https://example.com/ insecure'), /on this machine only/);
  });

  it('a relative ca with no folder to take it from is refused; an absolute one is read', () => {
    const rule = parseForwardFlag('**=https://localhost:3443/ ca=rootCA.pem');
    assert.throws(() => withCaFiles([rule], undefined), /relative path, and no folder is open/);
  });
});

describe('a ca file: PEM certificates only, bounded', () => {
  let certs: TestCertificates;
  before(() => {
    certs = makeTestCertificates();
  });
  after(() => certs.remove());

  const refusedFile = (file: string, words: RegExp) =>
    assert.throws(
      () => readCaFile(file),
      (e: Error) => e instanceof CaFileError && words.test(e.message),
    );

  it('reads the certificates of a bundle; refuses a key, a non-PEM file, a broken block, a large file, a FIFO', () => {
    const bundle = join(certs.dir, 'bundle.pem');
    writeFileSync(
      bundle,
      `# roots\n${readFileSync(certs.rootCa.cert, 'utf8')}\n${readFileSync(certs.leaf.cert, 'utf8')}`,
    );
    assert.equal(readCaFile(bundle).match(/BEGIN CERTIFICATE/g)!.length, 2);
    refusedFile(
      certs.rootCa.key,
      /holds a private key: give the root's certificate \(mkcert's rootCA\.pem\), never its key/,
    );
    const json = join(certs.dir, 'settings.json');
    writeFileSync(json, '{"not": "a certificate"}');
    refusedFile(json, /holds no PEM certificate \("-----BEGIN CERTIFICATE-----"\)/);
    refusedFile(join(certs.dir, 'missing.pem'), /cannot read the ca file .*missing\.pem \(ENOENT\)/);
    refusedFile(certs.dir, /is not a regular file/);
    const large = join(certs.dir, 'large.pem');
    writeFileSync(large, Buffer.alloc(MAX_CA_FILE_BYTES + 1, 0x41));
    refusedFile(large, /larger than 1 MiB/);
    const fifo = join(certs.dir, 'fifo.pem');
    execFileSync('mkfifo', [fifo]);
    refusedFile(fifo, /is not a regular file/);
    assert.throws(
      () => caCertificates('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', 'x.pem'),
      /its certificate 1 of 1 does not parse as X\.509/,
    );
  });

  it("a rule's unreadable ca is refused naming the rule", () => {
    const rule = parseForwardFlag(`**=https://localhost:3443/ ca=${certs.rootCa.key}`);
    assert.throws(
      () => withCaFiles([rule], certs.dir),
      (e: Error) =>
        e instanceof ForwardRuleError &&
        /^\*\* → https:\/\/localhost:3443\/: the ca file .* private key/.test(e.message),
    );
  });
});
