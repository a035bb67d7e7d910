// Sign-in and refresh endpoints of the sandbox, over real HTTP (spec: Endpoints 1–2, Authentication, Limits).
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { REFRESH_PATH, SIGN_IN_PATH, startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';

describe('sandbox: sign-in and refresh', () => {
  let f: SandboxFixture;
  beforeEach(async () => (f = await startSandbox()));
  afterEach(() => f.stop());

  it('signs in with the demo credentials: access_token (JWT), refresh_token, expires_in 3600', async () => {
    const t = await f.signIn();
    assert.equal(t.expires_in, 3600);
    assert.equal(typeof t.refresh_token, 'string');
    const claims = decodeJwt(t.access_token);
    assert.equal(claims.sub, 'demo');
    assert.equal(claims.exp! - claims.iat!, 3600);
  });
  it('honours a configured access-token lifetime', async () => {
    const g = await startSandbox({ accessTokenTtlSeconds: 120 });
    try {
      assert.equal((await g.signIn()).expires_in, 120);
    } finally {
      await g.stop();
    }
  });
  it('wrong password → 401 problem document (invalid-credentials)', async () => {
    const r = await f.call(SIGN_IN_PATH, { json: { username: 'demo', password: 'nope' } });
    assert.equal(r.status, 401);
    assert.equal(r.headers['content-type'], 'application/problem+json');
    assert.equal(r.json().type, `${f.info.problemsBase}/invalid-credentials`);
  });
  it('malformed JSON → 400 problem document', async () => {
    const r = await f.call(SIGN_IN_PATH, { body: '{"username":' });
    assert.equal(r.status, 400);
    assert.equal(r.headers['content-type'], 'application/problem+json');
  });
  it('user alias is accepted in the body, the X-Svc-UserAlias header or the query, and lands in the token', async () => {
    const body = decodeJwt((await f.signIn({ useralias: 'alice' })).access_token);
    assert.equal(body.alias, 'alice');
    const h = await f.call(SIGN_IN_PATH, {
      json: { username: 'demo', password: 'demo-password' },
      headers: { 'x-svc-useralias': 'bob' },
    });
    assert.equal(decodeJwt(h.json().access_token).alias, 'bob');
    const q = await f.call(SIGN_IN_PATH + '?useralias=carol', {
      json: { username: 'demo', password: 'demo-password' },
    });
    assert.equal(decodeJwt(q.json().access_token).alias, 'carol');
  });
  it('refresh returns a new access token, expires_in 3600 from the new issue, and the refresh token is reusable', async () => {
    const t = await f.signIn();
    f.clock.advance(30 * 60_000);
    const r1 = await f.call(REFRESH_PATH, { json: { refresh_token: t.refresh_token } });
    assert.equal(r1.status, 200);
    const n1 = r1.json();
    assert.equal(n1.expires_in, 3600);
    assert.equal(decodeJwt(n1.access_token).iat, Math.floor(f.clock.now() / 1000));
    const r2 = await f.call(REFRESH_PATH, { json: { refresh_token: t.refresh_token } });
    assert.equal(r2.status, 200, 'the same refresh token fetches again until it lapses');
  });
  it('a refresh token lapses at midnight Eastern after 24 h: 401 invalid-refresh-token', async () => {
    const t = await f.signIn(); // ManualClock starts 2026-01-15T12:00Z → lapses 2026-01-17T05:00Z
    const lapse = Date.parse('2026-01-17T05:00:00.000Z');
    f.clock.advance(lapse - f.clock.now() - 1);
    assert.equal((await f.call(REFRESH_PATH, { json: { refresh_token: t.refresh_token } })).status, 200);
    f.clock.advance(1);
    const r = await f.call(REFRESH_PATH, { json: { refresh_token: t.refresh_token } });
    assert.equal(r.status, 401);
    assert.equal(r.json().type, `${f.info.problemsBase}/invalid-refresh-token`);
  });
  it('an unknown refresh token → 401', async () => {
    assert.equal((await f.call(REFRESH_PATH, { json: { refresh_token: 'nope' } })).status, 401);
  });
  it('an access token past its expiry is refused with 401 invalid_token', async () => {
    const t = await f.signIn();
    f.clock.advance(3600_000 + 1000);
    const r = await f.call(`/workflow-services-ws/resources/v1/sessions/${f.info.sessions.staged}/workflows`, {
      token: t.access_token,
      json: { product: f.info.products[0] },
    });
    assert.equal(r.status, 401);
    assert.match(r.headers['www-authenticate'], /error="invalid_token"/);
  });
});
