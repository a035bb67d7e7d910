// A password or token never goes to a plain-http origin that is not loopback: the check, and every core path that
// sends one (sign-in, refresh, start, read, find, test webhook), with the requests routed through a recording
// proxy on loopback. The proxy resolves .test names, so anything sent would show there; nothing may.
import assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { readServiceTarget } from '../../../src/cli/cliEnvironment';
import { UsageError } from '../../../src/cli/flags';
import { MemorySecretStore } from '../../../src/core/auth/secretStore';
import { TokenManager, secretKeyFor, type TokenSession } from '../../../src/core/auth/TokenManager';
import { assertCredentialOrigin, credentialOriginProblem } from '../../../src/core/http/credentialOrigin';
import { proxyDispatcher } from '../../../src/core/http/proxy';
import { setDefaultDispatcher } from '../../../src/core/http/request';
import { LocalValidationError } from '../../../src/core/http/serviceErrors';
import { sendTestWebhook } from '../../../src/core/webhooks/testWebhookRequest';
import { WorkflowClient } from '../../../src/core/workflows/WorkflowClient';
import { ManualClock } from '../helpers/manualClock';
import { RecordingProxy } from '../helpers/recordingProxy';

const refused = (e: unknown) => {
  if (
    e instanceof LocalValidationError &&
    e.rule === 'credential-origin' &&
    /is plain http to wfs-test\.test:\d+, which is not this machine.*https:\/\//.test(e.message)
  )
    return true;
  throw new Error(`not refused for its plain http origin: ${(e as Error).message}`);
};

describe('credentialOriginProblem', () => {
  it('allows https anywhere and plain http on loopback only', () => {
    for (const ok of [
      'https://wfs.example',
      'https://10.0.0.1:8443/x',
      'http://127.0.0.1:4010',
      'http://127.9.9.9',
      'http://localhost:1',
      'HTTP://LOCALHOST',
      'http://[::1]:4010',
      'http://127.1/',
    ])
      assert.equal(credentialOriginProblem(ok), undefined, ok);
  });

  it('refuses plain http to any other host, whatever it looks like', () => {
    for (const bad of [
      'http://wfs.example',
      'HTTP://wfs.example/x',
      'http://10.0.0.1:8080',
      'http://0.0.0.0:4010',
      'http://localhost.wfs.example',
      'http://127.0.0.1.nip.io',
      'http://[::ffff:127.0.0.1]/',
      'http://[fe80::1]/',
      'http://localhost./',
    ])
      assert.match(
        credentialOriginProblem(bad) ?? '',
        /^is plain http to .+, which is not this machine: a password or token sent there would cross the network unencrypted, so none is sent\. Use the service's https:\/\/ address, or a loopback address \(127\.0\.0\.1, localhost\) for a local sandbox$/,
        bad,
      );
  });

  it('leaves what is not an http URL to httpUrlProblem', () => {
    assert.equal(credentialOriginProblem('not a url'), undefined);
    assert.throws(
      () => assertCredentialOrigin('http://wfs-test.test:1', 'WFS_BASE_URL'),
      (e: unknown) => refused(e) && (e as Error).message.startsWith('WFS_BASE_URL is plain http'),
    );
  });
});

describe('credentials and plain http, through a recording proxy', () => {
  let CLEAR: string;
  let proxy: RecordingProxy;
  // Something on loopback that takes the tunnel's connection and closes it: a request that got through fails at once.
  const closer = createNetServer((s) => s.destroy());
  let port: number;
  before(async () => {
    await new Promise<void>((r) => closer.listen(0, '127.0.0.1', r));
    port = (closer.address() as AddressInfo).port;
    CLEAR = `http://wfs-test.test:${port}`;
  });
  after(() => closer.close());
  let previous: ReturnType<typeof setDefaultDispatcher>;
  let dispatcher: NonNullable<Awaited<ReturnType<typeof proxyDispatcher>>>;
  let clock: ManualClock;
  beforeEach(async () => {
    proxy = new RecordingProxy();
    await proxy.start();
    dispatcher = (await proxyDispatcher({ httpProxy: proxy.url, httpsProxy: proxy.url }))!;
    previous = setDefaultDispatcher(dispatcher);
    clock = new ManualClock();
  });
  afterEach(async () => {
    setDefaultDispatcher(previous);
    await dispatcher.close();
    await proxy.stop();
  });
  const nothingSent = () => {
    assert.deepEqual(proxy.connects, [], 'no tunnel opened');
    assert.deepEqual(proxy.forwarded, [], 'no request forwarded');
  };

  it('the control: an https origin of the same name is tried through the proxy', async () => {
    const tm = new TokenManager({
      secretScope: 'e',
      baseUrl: `https://wfs-test.test:${port}`,
      store: new MemorySecretStore(),
      clock,
    });
    await assert.rejects(
      tm.signIn({ username: 'u', password: 'p' }),
      (e: unknown) => !(e instanceof LocalValidationError),
    );
    assert.deepEqual(proxy.connects, [`wfs-test.test:${port}`]);
    tm.dispose();
  });

  it('sign-in: refused before the password leaves', async () => {
    const tm = new TokenManager({ secretScope: 'e', baseUrl: CLEAR, store: new MemorySecretStore(), clock });
    await assert.rejects(tm.signIn({ username: 'u', password: 'p' }), refused);
    nothingSent();
    tm.dispose();
  });

  it('refresh (and the silent re-sign-in it may lead to): refused before the refresh token leaves', async () => {
    const store = new MemorySecretStore();
    const now = clock.now();
    const session: TokenSession = {
      username: 'u',
      accessToken: 'a',
      refreshToken: 'r',
      accessExpiresAt: now + 30_000,
      refreshIssuedAt: now,
      refreshExpiresAt: now + 3_600_000,
    };
    await store.store(secretKeyFor('e'), JSON.stringify(session));
    const tm = new TokenManager({
      secretScope: 'e',
      baseUrl: CLEAR,
      store,
      clock,
      silentCredentials: async () => ({ username: 'u', password: 'p' }),
    });
    await tm.load();
    await assert.rejects(tm.getAccessToken(), refused);
    await assert.rejects(tm.refresh(), refused);
    nothingSent();
    tm.dispose();
  });

  it('start, read, find and test webhook: refused before the access token is even read', async () => {
    let tokenReads = 0;
    const tokens = {
      getAccessToken: async () => (tokenReads++, 'a'),
      freshAccessToken: async () => (tokenReads++, 'b'),
    };
    const client = new WorkflowClient({ baseUrl: CLEAR, tokens, clock });
    await assert.rejects(
      client.start({ sessionId: 's', product: { service: 'Appraisal', model: 'Standard' } }),
      refused,
    );
    await assert.rejects(client.read('wf_1'), refused);
    await assert.rejects(client.reconfirm('wf_1'), refused);
    await assert.rejects(client.find('wfs-1'), refused);
    const request = { headers: {}, json: { address: 'https://hooks.example/x' }, webhookId: 'w', triggeredAt: 't' };
    await assert.rejects(sendTestWebhook(CLEAR, request, { tokens, clock }), refused);
    assert.equal(tokenReads, 0);
    nothingSent();
  });
});

describe('the CLI service target and plain http', () => {
  const base = { WFS_USERNAME: 'u', WFS_PASSWORD: 'p' };
  it('WFS_BASE_URL or WFS_TEST_WEBHOOK_URL in plain http to a host that is not loopback: a usage error naming the variable', () => {
    assert.throws(
      () => readServiceTarget({ ...base, WFS_BASE_URL: 'http://wfs-test.invalid:8080' }),
      (e: unknown) =>
        e instanceof UsageError &&
        /^WFS_BASE_URL is plain http to wfs-test\.invalid:8080, which is not this machine: .*Use the service's https:\/\/ address/.test(
          e.message,
        ),
    );
    assert.throws(
      () =>
        readServiceTarget({
          ...base,
          WFS_BASE_URL: 'https://wfs.example',
          WFS_TEST_WEBHOOK_URL: 'http://hooks.example',
        }),
      (e: unknown) =>
        e instanceof UsageError && e.message.startsWith('WFS_TEST_WEBHOOK_URL is plain http to hooks.example,'),
    );
    assert.equal(
      readServiceTarget({ ...base, WFS_BASE_URL: 'http://127.0.0.1:4010/' }).baseUrl,
      'http://127.0.0.1:4010',
    );
    assert.equal(
      readServiceTarget({ ...base, WFS_BASE_URL: 'https://wfs.example' }).testWebhookUrl,
      'https://wfs.example',
    );
  });
});
