// Who may use the sandbox: its control API and /sandbox/sign only with the per-start secret; no web page at all
// (a non-loopback Origin is refused before the throttle counts it); the spec's service endpoints need no secret.
import assert from 'node:assert/strict';
import { REFRESH_PATH, SIGN_IN_PATH, startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { rawRequest } from '../helpers/rawHttp';
import { JWKS_PATH } from '../../../src/core/sandbox/Sandbox';
import { isLoopbackOrigin, secretMatches } from '../../../src/core/sandbox/sandboxAccess';
import { TEST_WEBHOOK_PATH } from '../../../src/core/http/paths';

const EVIL = 'http://evil.example';
const SIGN = JSON.stringify({ bodyBase64: Buffer.from('{"webhookId":"x"}').toString('base64') });

describe('sandbox: only its owner signs, no web page is served', () => {
  let f: SandboxFixture;
  beforeEach(async () => (f = await startSandbox()));
  afterEach(() => f.stop());

  const control = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    rawRequest(f.url(`/sandbox${path}`), {
      method,
      body,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    });

  // Every kind of control route: reading, changing, signing.
  const ROUTES: [string, string, string?][] = [
    ['GET', ''],
    ['POST', '/sign', SIGN],
    ['GET', '/faults'],
    ['POST', '/faults', JSON.stringify({ fault: 'start-500' })],
    ['DELETE', '/faults'],
    ['POST', '/keys/rotate', '{}'],
    ['POST', '/webhooks', JSON.stringify({ url: 'http://127.0.0.1:9/hooks' })],
    ['POST', '/clock/advance', JSON.stringify({ seconds: 1 })],
    ['POST', '/reset', '{}'],
  ];

  it('refuses every control route without the secret, or with a wrong one, with a 403 that says what is missing and where it is', async () => {
    const kid = (await f.control('GET', '')).json().kid;
    for (const [method, path, body] of ROUTES) {
      const missing = await control(method, path, {}, body);
      assert.equal(missing.status, 403, `${method} /sandbox${path} without the secret`);
      assert.equal(missing.headers['content-type'], 'application/problem+json');
      const p = missing.json();
      assert.equal(p.title, 'Sandbox secret missing');
      assert.match(
        p.detail,
        /need the header X-Sandbox-Secret\. Its value is "controlSecret" in the sandbox's ready line .*set WFS_SANDBOX_SECRET to it/,
      );
      assert.ok(!missing.text.includes(f.info.controlSecret), 'the refusal never tells the secret');
      const wrong = await control(
        method,
        path,
        { 'x-sandbox-secret': f.info.controlSecret.slice(0, -1) + (f.info.controlSecret.endsWith('0') ? '1' : '0') },
        body,
      );
      assert.equal(wrong.status, 403, `${method} /sandbox${path} with a wrong secret`);
      assert.equal(wrong.json().title, 'Sandbox secret wrong');
    }
    assert.deepEqual((await f.control('GET', 'faults')).json().pending, {}, 'no refused request injected a fault');
    assert.deepEqual((await f.control('GET', 'webhooks')).json().endpoints, [], 'nor registered an endpoint');
    assert.equal((await f.control('GET', '')).json().kid, kid, 'nor rotated the key');
  });

  it('a refused /sandbox/sign mints nothing; with the secret it signs', async () => {
    const refused = await control('POST', '/sign', {}, SIGN);
    assert.equal(refused.status, 403);
    assert.ok(!/eyJ/.test(refused.text), 'no token in the refusal');
    const signed = await control('POST', '/sign', { 'x-sandbox-secret': f.info.controlSecret }, SIGN);
    assert.equal(signed.status, 200);
    assert.match(signed.json().token, /^eyJ/);
  });

  it('accepts the secret on every control route', async () => {
    for (const [method, path, body] of ROUTES) {
      const r = await control(method, path, { 'x-sandbox-secret': f.info.controlSecret }, body);
      assert.ok(r.status < 300, `${method} /sandbox${path}: ${r.status} ${r.text}`);
    }
  });

  it("makes a new secret at each start: the last start's secret and another sandbox's are refused", async () => {
    const first = f.info.controlSecret;
    assert.match(first, /^[0-9a-f]{64}$/);
    await f.sandbox.stop();
    const again = await f.sandbox.start();
    assert.notEqual(again.controlSecret, first);
    const other = await startSandbox();
    try {
      assert.notEqual(other.info.controlSecret, again.controlSecret);
      const r = await rawRequest(`${again.baseUrl}/sandbox/faults`, { headers: { 'x-sandbox-secret': first } });
      assert.equal(r.status, 403);
      assert.equal(
        (
          await rawRequest(`${again.baseUrl}/sandbox/faults`, {
            headers: { 'x-sandbox-secret': other.info.controlSecret },
          })
        ).status,
        403,
      );
      assert.equal(
        (await rawRequest(`${again.baseUrl}/sandbox/faults`, { headers: { 'x-sandbox-secret': again.controlSecret } }))
          .status,
        200,
      );
    } finally {
      await other.stop();
    }
  });

  it("the spec's service endpoints need no secret: sign-in, refresh, the key set, test-webhook", async () => {
    const tokens = await f.signIn();
    assert.equal((await f.call(REFRESH_PATH, { json: { refresh_token: tokens.refresh_token } })).status, 200);
    assert.equal((await f.call(JWKS_PATH)).status, 200);
    const test = await f.call(TEST_WEBHOOK_PATH, {
      token: tokens.access_token,
      json: { address: 'http://127.0.0.1:9/hooks', testData: {} },
      headers: {
        'content-type': 'application/json',
        'x-svc-topic': 't',
        'x-svc-sub-topic': 's',
        'x-svc-tenant-id': 'x',
        'x-svc-webhook-id': 'w',
        'x-svc-triggered-at': '2026-01-01T00:00:00.0000000Z',
      },
    });
    assert.equal(test.status, 200, test.text);
  });

  it('refuses a request with a non-loopback Origin on every route, the secret notwithstanding', async () => {
    const secret = { 'x-sandbox-secret': f.info.controlSecret };
    const creds = JSON.stringify({ username: f.info.username, password: f.info.password });
    const cases: [string, string, Record<string, string>, string?][] = [
      ['POST', SIGN_IN_PATH, { 'content-type': 'text/plain' }, creds],
      ['POST', SIGN_IN_PATH, { 'content-type': 'application/json' }, creds],
      ['GET', JWKS_PATH, {}],
      ['POST', '/sandbox/sign', { 'content-type': 'application/json', ...secret }, SIGN],
      ['DELETE', '/sandbox/faults', secret],
    ];
    for (const origin of [EVIL, 'null', 'https://127.0.0.1.evil.example', 'not a url'])
      for (const [method, path, headers, body] of cases) {
        const r = await rawRequest(f.url(path), { method, body, headers: { origin, ...headers } });
        assert.equal(r.status, 403, `${method} ${path} from Origin ${origin}`);
        assert.match(
          r.text,
          /^This sandbox serves programs on this machine, not web pages: a request from Origin ".*" is refused\./,
        );
        assert.equal(r.headers['access-control-allow-origin'], undefined);
        assert.ok(!/eyJ/.test(r.text), 'no token');
      }
  });

  it('serves a loopback Origin (a page or tool on this machine), like a request without one', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8080']) {
      const r = await rawRequest(f.url(SIGN_IN_PATH), {
        json: { username: f.info.username, password: f.info.password },
        headers: { origin },
      });
      assert.equal(r.status, 200, origin);
    }
  });

  it('31 cross-site sign-ins (Origin: http://evil.example, text/plain, a wrong password) leave the real sign-in unthrottled', async () => {
    const wrong = JSON.stringify({ username: f.info.username, password: 'guess' });
    const statuses = new Set<number>();
    for (let i = 0; i < 31; i++)
      statuses.add(
        (
          await rawRequest(f.url(SIGN_IN_PATH), {
            method: 'POST',
            body: wrong,
            headers: { origin: EVIL, 'content-type': 'text/plain' },
          })
        ).status,
      );
    const real = await rawRequest(f.url(SIGN_IN_PATH), {
      json: { username: f.info.username, password: f.info.password },
    });
    assert.equal(real.status, 200, 'the real sign-in is not 429');
    assert.deepEqual([...statuses], [403], 'each cross-site attempt refused');
  });

  it('never allows a CORS preflight: OPTIONS gets no Access-Control-Allow-* header, from any Origin, on any route', async () => {
    for (const origin of [EVIL, 'http://localhost:3000'])
      for (const path of ['/sandbox/faults', '/sandbox/sign', SIGN_IN_PATH, JWKS_PATH]) {
        const r = await rawRequest(f.url(path), {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'DELETE',
            'access-control-request-headers': 'x-sandbox-secret, content-type',
          },
        });
        assert.ok(r.status >= 400, `OPTIONS ${path} from ${origin}: ${r.status}`);
        for (const h of Object.keys(r.headers)) assert.ok(!h.startsWith('access-control-'), `${h} on OPTIONS ${path}`);
      }
  });
});

describe('sandbox access checks', () => {
  it('compares secrets whole: equal, one character off, a prefix, longer, empty', () => {
    const s = 'a'.repeat(64);
    assert.equal(secretMatches(s, s), true);
    assert.equal(secretMatches('a'.repeat(63) + 'b', s), false);
    assert.equal(secretMatches(s.slice(0, 32), s), false);
    assert.equal(secretMatches(s + 'a', s), false);
    assert.equal(secretMatches('', s), false);
  });

  it('counts as loopback only an http(s) origin on a loopback name', () => {
    for (const o of [
      'http://localhost',
      'http://localhost:3000',
      'https://127.0.0.1:8443',
      'http://127.9.9.9',
      'http://[::1]:80',
    ])
      assert.equal(isLoopbackOrigin(o), true, o);
    for (const o of [
      'null',
      'http://evil.example',
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io',
      'file://',
      'chrome-extension://abc',
      '',
    ])
      assert.equal(isLoopbackOrigin(o), false, o);
  });
});
