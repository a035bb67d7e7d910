// Key rotation against `wfs listen --trust-sandbox` and a `wfs sandbox`, as processes with real timers (issue #51):
// forged tokens with made-up kids cannot spend the key-set requests a rotation needs, and a key set that cannot be
// consulted is answered 503 with Retry-After (the service resends only on 5xx), never 403. Forged tokens never get
// a 2xx.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { signedBy } from './helpers/deliveries';

const JWKS_GET = /^GET \/\.well-known\/jwks\.json 200$/;

describe('key rotation: floods of made-up kids and an unreachable key set never cost a genuine delivery', function () {
  this.timeout(60_000);
  const s = withSandboxProcess([], { perTest: true });

  async function post(url: string, body: Buffer, token: string): Promise<{ status: number; retryAfter?: string }> {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    await res.body.dump();
    return { status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined };
  }

  /** As the service delivers: sent again after each 5xx, once the Retry-After it was given has passed (the receiver
   * names that time itself: its next key-set request is not possible before), at most `attempts` times. */
  async function deliverAsTheService(
    url: string,
    body: Buffer,
    attempts = 3,
  ): Promise<{ status: number; retryAfter?: string }[]> {
    const answers = [];
    for (;;) {
      const answer = await post(url, body, await signedBy(s.info.baseUrl, body));
      answers.push(answer);
      if (answer.status < 500 || answers.length >= attempts) return answers;
      const seconds = Number(answer.retryAfter);
      assert.ok(seconds >= 1 && seconds <= 15, `a 5xx names when to send again: Retry-After ${answer.retryAfter}`);
      await delay(seconds * 1000);
    }
  }

  /** A token naming the sandbox's issuer and audience under a made-up kid: anyone can make one. */
  const forged = (kid: string) =>
    [
      Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid })).toString('base64url'),
      Buffer.from(
        JSON.stringify({
          iss: s.info.issuer,
          aud: s.info.audience,
          exp: Math.floor(Date.now() / 1000) + 300,
          body_sha256: '0'.repeat(64),
        }),
      ).toString('base64url'),
      Buffer.alloc(256, 1).toString('base64url'),
    ].join('.');

  it('six forged tokens with random kids, then POST /sandbox/keys/rotate, then a genuine delivery under the new key: answered later or at once, verified on its resend', async () => {
    const listen = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const jwksBefore = s.requests().filter((r) => JWKS_GET.test(r)).length;
    for (let i = 0; i < 6; i++) {
      const { status } = await post(url, Buffer.from('{"webhookId":"forged"}'), forged(randomUUID()));
      assert.ok(status === 403 || status === 503, `a forged token is never accepted: answered ${status}`);
    }
    assert.equal((await s.control('POST', 'keys/rotate')).status, 200);
    const body = Buffer.from(
      JSON.stringify({ webhookId: randomUUID(), topic: 'workflow/completed', data: { runId: 'wfrun_rotated' } }),
    );
    const answers = await deliverAsTheService(url, body);
    assert.equal(
      answers.at(-1)!.status,
      200,
      `the genuine delivery is verified in the end: ${JSON.stringify(answers)}`,
    );
    assert.ok(
      answers.slice(0, -1).every((a) => a.status === 503 && a.retryAfter !== undefined),
      `before that only 503 with Retry-After, never 403: ${JSON.stringify(answers)}`,
    );
    await listen.line(() => listen.events('delivery').length === 6 + answers.length, 'every delivery line');
    const lines = listen.events('delivery');
    for (const l of lines.slice(0, 6)) assert.equal(l.verified, false);
    for (const l of lines.slice(6, -1)) assert.match(l.note, /^answered 503: the key set could not be consulted/);
    assert.deepEqual([lines.at(-1)!.status, lines.at(-1)!.verified], [200, true]);
    const jwksRequests = s.requests().filter((r) => JWKS_GET.test(r)).length - jwksBefore;
    assert.ok(jwksRequests <= 3, `the flood spent no budget: ${jwksRequests} key-set requests in all`);
    await listen.stopCleanly();
  });

  it('a key set that answers 503: the delivery is answered 503 with Retry-After, its line says why; verified on its resend once the key set is back', async () => {
    const listen = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    await s.control('POST', 'faults', { fault: 'jwks-unavailable' });
    const body = Buffer.from(JSON.stringify({ webhookId: randomUUID(), topic: 'workflow/completed', data: {} }));
    const first = await post(url, body, await signedBy(s.info.baseUrl, body));
    assert.equal(first.status, 503);
    assert.ok(Number(first.retryAfter) >= 1, `Retry-After ${first.retryAfter}`);
    const line = await listen.event('delivery');
    assert.deepEqual([line.status, line.verified], [503, false]);
    assert.match(
      line.note,
      /^answered 503: the key set could not be consulted \(step 3 says why\), so nothing was decided; the service sends the delivery again/,
    );
    const step3 = line.checks.find((c: { step: number }) => c.step === 3);
    assert.ok(!step3.ok && step3.detail.startsWith(`${s.info.jwksUrl}: could not be consulted`), step3.detail);
    await s.control('DELETE', 'faults');
    await delay(Number(first.retryAfter) * 1000);
    const again = await post(url, body, await signedBy(s.info.baseUrl, body));
    assert.equal(again.status, 200);
    await listen.stopCleanly();
  });
});
