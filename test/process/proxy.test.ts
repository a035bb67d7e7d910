// HTTPS_PROXY / HTTP_PROXY / NO_PROXY in the spawned CLI, against a recording CONNECT proxy on loopback. The
// service is addressed by a .test name that only the proxy can resolve, so success proves the proxy carried it. It
// is https (a TLS front on the sandbox whose certificate the CLI is given): the password never goes in clear.
import assert from 'node:assert/strict';
import { RecordingProxy } from '../unit/helpers/recordingProxy';
import { TEST_NAMES_CERT, TlsFront } from '../unit/helpers/tlsFront';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { startArgs, testWebhookArgs } from './helpers/commandArgs';

describe('wfs behind an HTTP proxy', function () {
  this.timeout(60_000);
  let proxy: RecordingProxy;
  let front: TlsFront;
  let named: string;
  // Registered before the sandbox's hooks: the proxy and the TLS front stop before the sandbox does.
  afterEach(async () => {
    await proxy.stop();
    await front.stop();
  });
  // --allow-host: the sandbox answers requests addressed to the .test name the proxy resolves.
  const s = withSandboxProcess(['--allow-host', 'wfs-sandbox.test'], { perTest: true });
  // After the sandbox's beforeEach: the front needs its port.
  beforeEach(async () => {
    proxy = new RecordingProxy();
    await proxy.start();
    front = new TlsFront(Number(new URL(s.info.baseUrl).port));
    named = `https://wfs-sandbox.test:${await front.start()}`;
  });

  const start = (env: Record<string, string>) =>
    new WfsProcess(startArgs(s), {
      ...s.env,
      WFS_BASE_URL: named,
      NODE_EXTRA_CA_CERTS: TEST_NAMES_CERT,
      ...env,
    });

  it('HTTP_PROXY carries the sign-in and the start through CONNECT: exit 0', async () => {
    const p = start({ HTTP_PROXY: proxy.url });
    assert.equal(await p.exitCode(), 0, p.stdout + p.stderr);
    const port = new URL(named).port;
    assert.ok(proxy.connects.length >= 1, 'the proxy was asked to connect');
    assert.ok(
      proxy.connects.every((c) => c === `wfs-sandbox.test:${port}`),
      proxy.connects.join(', '),
    );
  });

  it('without a proxy the .test name does not resolve: exit 1 with a transport error (the control case)', async () => {
    const p = start({});
    assert.equal(await p.exitCode(), 1);
    assert.equal(p.lines.at(-1)!.kind, 'transport');
    assert.equal(proxy.connects.length, 0);
  });

  it('NO_PROXY naming the host sends it direct (which fails to resolve here), and the proxy sees nothing', async () => {
    const p = start({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,wfs-sandbox.test' });
    assert.equal(await p.exitCode(), 1);
    assert.equal(p.lines.at(-1)!.kind, 'transport');
    assert.equal(proxy.connects.length, 0);
  });

  it('loopback is never proxied: the sandbox at 127.0.0.1 is reached directly with a proxy set', async () => {
    const p = start({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, WFS_BASE_URL: s.info.baseUrl });
    assert.equal(await p.exitCode(), 0, p.stdout);
    assert.deepEqual(proxy.connects, []);
    assert.deepEqual(proxy.forwarded, []);
  });

  describe('a password or token never goes to a plain-http origin that is not loopback, proxy or not', () => {
    const commands: [string, string[]][] = [
      ['start', ['start', '--session', 'sess-demo-staged', '--service', 'Appraisal', '--model', 'Standard']],
      ['status', ['status', '--workflow', 'wf_1']],
      ['find', ['find', '--correlation-id', 'wfs-1']],
      ['test-webhook', testWebhookArgs('https://hooks.example.test/x')],
    ];
    for (const [name, args] of commands)
      it(`wfs ${name} with WFS_BASE_URL=http://wfs-sandbox.test:PORT through HTTP_PROXY: exit 2 naming the variable, and the proxy saw nothing`, async () => {
        const clear = s.info.baseUrl.replace('127.0.0.1', 'wfs-sandbox.test');
        const p = new WfsProcess(args, {
          ...s.env,
          WFS_BASE_URL: clear,
          HTTP_PROXY: proxy.url,
          HTTPS_PROXY: proxy.url,
        });
        assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
        assert.equal(p.lines.at(-1)!.kind, 'usage');
        assert.equal(
          p.lines.at(-1)!.message,
          `WFS_BASE_URL is plain http to ${new URL(clear).host}, which is not this machine: a password or token sent there would cross the network unencrypted, so none is sent. Use the service's https:// address, or a loopback address (127.0.0.1, localhost) for a local sandbox.`,
        );
        assert.deepEqual(proxy.connects, []);
        assert.deepEqual(proxy.forwarded, []);
      });

    it('WFS_TEST_WEBHOOK_URL in plain http to another host, with an https WFS_BASE_URL: exit 2 naming it, and nothing sent (not even the sign-in)', async () => {
      const clear = s.info.baseUrl.replace('127.0.0.1', 'wfs-sandbox.test');
      const p = new WfsProcess(commands[3]![1], {
        ...s.env,
        WFS_BASE_URL: named,
        NODE_EXTRA_CA_CERTS: TEST_NAMES_CERT,
        WFS_TEST_WEBHOOK_URL: clear,
        HTTP_PROXY: proxy.url,
      });
      assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
      assert.ok(
        p.lines
          .at(-1)!
          .message.startsWith(
            `WFS_TEST_WEBHOOK_URL is plain http to ${new URL(clear).host}, which is not this machine`,
          ),
        p.stdout,
      );
      assert.deepEqual(proxy.connects, []);
      assert.deepEqual(proxy.forwarded, []);
    });
  });
});
