// The test kit as its users call it (src/testkit, shipped as workflow-service-cli/testkit): tokens over exact bytes
// that plain jose verifies against the served key set, events the schema accepts, rotation, delivery, and the
// receiver audit run with the test issuer instead of a sandbox.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as kit from '../../../src/testkit/index';
import { validateSchema } from '../../../src/core/schemas/validateSchema';
import { BrokenReceiver } from '../helpers/brokenReceiver';
import { RecordingServer } from '../helpers/recordingServer';

// The kit as its users import it: its published types are rolled up from this same source (api-extractor.json).
const api = kit;

const eventSchema = JSON.parse(
  readFileSync(join(__dirname, '../../../../src/core/schemas/json/webhook-event.schema.json'), 'utf8'),
);

describe('the test kit', () => {
  it('signs the exact bytes of a body; plain jose verifies the token against the served key set', async () => {
    const issuer = await api.createTestIssuer({ issuer: 'https://iss.example', audience: 'aud-1' });
    const jwks = await issuer.serveJwks();
    try {
      // not UTF-8: the bytes, not a string of them
      const body = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0x7d]);
      const signed = await issuer.sign(body);
      assert.ok(signed.body.equals(body));
      assert.equal(signed.headers.authorization, `Bearer ${signed.token}`);
      const { payload, protectedHeader } = await jwtVerify(signed.token, createRemoteJWKSet(new URL(jwks.url)), {
        issuer: 'https://iss.example',
        audience: 'aud-1',
        algorithms: ['RS256'],
      });
      assert.equal(payload.body_sha256, createHash('sha256').update(body).digest('hex'));
      assert.equal(protectedHeader.kid, issuer.kid);
      assert.equal(jwks.requests(), 1);
      assert.deepEqual(
        issuer.jwks().keys.map((k) => k.kid),
        [issuer.kid],
      );
      assert.equal(issuer.jwks().keys[0]!.d, undefined, 'no private part in the key set');
    } finally {
      await jwks.stop();
    }
  });

  it('signEvent serializes once and signs those bytes, with the X-Svc-* headers; buildEvent makes events the schema accepts', async () => {
    const issuer = await api.createTestIssuer();
    const event = api.buildEvent('workflow/completed', { data: { workflowId: 'wf_1' } });
    assert.deepEqual(validateSchema(eventSchema, event), []);
    assert.match(event.triggeredAt, /\.\d{7}Z$/);
    assert.notEqual(api.buildEvent('a/b').webhookId, api.buildEvent('a/b').webhookId);
    assert.throws(() => api.buildEvent('no-slash'), /topic/);
    const signed = await issuer.signEvent(event);
    assert.equal(signed.body.toString('utf8'), JSON.stringify(event));
    assert.equal(decodeJwt(signed.token).body_sha256, createHash('sha256').update(signed.body).digest('hex'));
    assert.deepEqual(
      [signed.headers['x-svc-topic'], signed.headers['x-svc-webhook-id'], signed.headers['x-svc-triggered-at']],
      [event.topic, event.webhookId, event.triggeredAt],
    );
  });

  it('breaks one claim at a time: expired, another audience, issuer or kid, a claim left out', async () => {
    const issuer = await api.createTestIssuer();
    const nowS = Math.floor(Date.now() / 1000);
    const expired = decodeJwt((await issuer.sign('{}', { expiresIn: -120 })).token);
    assert.ok(expired.exp! <= nowS - 119 && expired.exp! >= nowS - 121);
    const other = await issuer.sign('{}', {
      audience: 'x',
      issuer: 'y',
      kid: 'k',
      omit: ['body_sha256', 'jti'],
      claims: { extra: 1 },
    });
    const c = decodeJwt(other.token);
    assert.deepEqual([c.aud, c.iss, c.body_sha256, c.jti, c.extra], ['x', 'y', undefined, undefined, 1]);
    assert.equal(decodeProtectedHeader(other.token).kid, 'k');
    assert.equal(decodeJwt((await issuer.sign('{}', { exp: 5 })).token).exp, 5);
  });

  it('rotates: the new key signs, the previous stays published unless dropped; the served key set follows', async () => {
    const issuer = await api.createTestIssuer();
    const jwks = await issuer.serveJwks();
    try {
      const first = issuer.kid;
      const second = await issuer.rotate();
      assert.equal(issuer.kid, second);
      assert.notEqual(second, first);
      const served = (await (await fetch(jwks.url)).json()) as { keys: { kid: string }[] };
      assert.deepEqual(
        served.keys.map((k) => k.kid),
        [second, first],
      );
      await issuer.rotate({ keepPrevious: false });
      assert.deepEqual(
        issuer.jwks().keys.map((k) => k.kid),
        [issuer.kid],
      );
      jwks.failNext(1);
      assert.equal((await fetch(jwks.url)).status, 503);
      assert.equal((await fetch(jwks.url)).status, 200);
    } finally {
      await jwks.stop();
    }
  });

  it('deliver sends the signed bytes and headers, and returns the answer', async () => {
    const issuer = await api.createTestIssuer();
    const server = new RecordingServer();
    const url = await server.start();
    try {
      const signed = await issuer.signEvent(api.buildEvent('workflow/completed'));
      server.respond = () => 202;
      const answer = await api.deliver(`${url}/hook`, signed);
      assert.equal(answer.status, 202);
      assert.equal(answer.error, undefined);
      assert.ok(server.requests[0]!.body.equals(signed.body));
      assert.equal(server.requests[0]!.headers.authorization, signed.headers.authorization);
      assert.equal(server.requests[0]!.headers['x-svc-topic'], 'workflow/completed');
      const refused = await api.deliver('http://127.0.0.1:1/', signed, { timeoutMs: 2000 });
      assert.equal(refused.status, undefined);
      assert.match(refused.error!, /cannot reach http:\/\/127\.0\.0\.1:1\/: ECONNREFUSED/);
    } finally {
      await server.stop();
    }
  });

  describe('runAudit with the test issuer (no sandbox)', function () {
    this.timeout(60_000);
    for (const [mistake, failing] of [
      ['none', []],
      ['no-body-hash', ['body-changed', 'body-reserialized']],
      ['no-issuer-check', ['unknown-issuer']],
    ] as const) {
      it(`a receiver with ${mistake === 'none' ? 'no mistake passes every case' : `mistake "${mistake}" fails ${failing.join(', ')}`}`, async () => {
        const issuer = await api.createTestIssuer();
        const jwks = await issuer.serveJwks();
        const receiver = new BrokenReceiver(mistake, {
          issuer: issuer.issuer,
          audience: issuer.audience,
          jwksUrl: jwks.url,
        });
        const url = await receiver.start();
        try {
          const result = await api.runAudit(url, { issuer, jwks, timeoutMs: 5000 });
          const failed = result.results.filter((r) => !r.passed).map((r) => r.id);
          for (const id of failing)
            assert.ok(
              failed.includes(id),
              `${id} should fail: ${JSON.stringify(result.results.filter((r) => !r.passed).map((r) => [r.id, r.detail]))}`,
            );
          if (mistake === 'none')
            assert.deepEqual(
              result.results.filter((r) => !r.passed).map((r) => [r.id, r.detail]),
              [],
            );
          assert.equal(result.passed + result.failed, result.total);
          assert.ok(result.total >= 18);
          // Only the declared fields: the words core keeps for the extension stay behind.
          assert.ok(
            result.results.every((r) => !('said' in r)),
            'a result carries said',
          );
        } finally {
          await receiver.stop();
          await jwks.stop();
        }
      });
    }
  });
});
