// `wfs sandbox` signs for its owner only: attacks from another local process (no secret) and from a web page (a
// cross-site Origin), tried against the spawned process as they were found.
import assert from 'node:assert/strict';
import { rawRequest } from '../unit/helpers/rawHttp';
import { startSandboxProcess, withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const SIGN_IN = '/user-management-services-ws/oauth2/002/signInWithPassword';

describe('wfs sandbox: only its owner signs, no web page is served', function () {
  this.timeout(60_000);
  const s = withSandboxProcess([], { perTest: true });

  const sign = (headers: Record<string, string>) =>
    rawRequest(`${s.info.baseUrl}/sandbox/sign`, {
      json: { bodyBase64: Buffer.from('{"webhookId":"forged"}').toString('base64') },
      headers,
    });

  it('the ready line carries a fresh controlSecret; /sandbox/sign and the control API refuse a caller without it (403, saying where it is), and serve one with it', async () => {
    const forged = await sign({});
    assert.equal(forged.status, 403, 'another local process mints no token');
    assert.ok(!/eyJ/.test(forged.text));
    const secret = s.info.controlSecret as string;
    assert.match(secret, /^[0-9a-f]{64}$/);
    const other = await startSandboxProcess();
    try {
      assert.notEqual(other.info.controlSecret, secret, 'each start makes its own');
    } finally {
      await other.stop();
    }
    assert.match(
      forged.json().detail,
      /X-Sandbox-Secret.*"controlSecret" in the sandbox's ready line.*WFS_SANDBOX_SECRET/,
    );
    assert.equal((await sign({ 'x-sandbox-secret': 'f'.repeat(64) })).status, 403, 'nor with a guessed secret');
    const fault = () => rawRequest(`${s.info.baseUrl}/sandbox/faults`, { json: { fault: 'start-500' }, headers: {} });
    assert.equal((await fault()).status, 403, 'nor injects a fault');

    const signed = await sign({ 'x-sandbox-secret': secret });
    assert.equal(signed.status, 200);
    assert.match(signed.json().token, /^eyJ/);
    assert.deepEqual((await s.control('GET', 'faults')).json().pending, {}, 'the refused fault was not injected');
    assert.equal((await s.control('POST', 'faults', { fault: 'start-500' })).status, 201);
  });

  it('31 cross-site sign-ins (Origin: http://evil.example, text/plain) are refused before the throttle: the real sign-in is not 429', async () => {
    const wrong = JSON.stringify({ username: s.info.username, password: 'not-the-password' });
    const statuses = new Set<number>();
    for (let i = 0; i < 31; i++)
      statuses.add(
        (
          await rawRequest(`${s.info.baseUrl}${SIGN_IN}`, {
            method: 'POST',
            body: wrong,
            headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
          })
        ).status,
      );
    const real = await rawRequest(`${s.info.baseUrl}${SIGN_IN}`, {
      json: { username: s.info.username, password: s.info.password },
    });
    assert.equal(real.status, 200, 'the user signs in');
    assert.deepEqual([...statuses], [403], 'each cross-site request refused');
    // What a user sees: wfs itself signs in and starts nothing more.
    const status = new WfsProcess(['find', '--correlation-id', 'none-such'], s.env);
    assert.equal(await status.exitCode(), 5, `wfs signs in and searches; stderr: ${status.stderr}`);
  });

  it('DELETE /sandbox/faults needs no content type', async () => {
    await s.control('POST', 'faults', { fault: 'start-500', count: 3 });
    const cleared = await rawRequest(`${s.info.baseUrl}/sandbox/faults`, {
      method: 'DELETE',
      headers: { 'x-sandbox-secret': s.info.controlSecret },
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.json().pending, {});
  });

  it("wfs listen --trust-sandbox: without WFS_SANDBOX_SECRET exit 2 saying where the secret is; with the ready line's, it listens", async () => {
    const without = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl], { WFS_SANDBOX_SECRET: '' });
    assert.equal(
      (await without.line((l) => l.event === 'ready' || l.event === 'error')).event,
      'error',
      'it does not listen',
    );
    assert.equal(await without.exitCode(), 2);
    assert.equal(
      without.lines.at(-1)!.message,
      `--trust-sandbox ${s.info.baseUrl}: WFS_SANDBOX_SECRET is not set, and the sandbox's control API needs its secret: set it to the "controlSecret" of that sandbox's ready line (the first line \`wfs sandbox\` prints; new at each start)`,
    );
    const wrong = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl], { WFS_SANDBOX_SECRET: 'f'.repeat(64) });
    assert.equal(await wrong.exitCode(), 2);
    assert.match(
      wrong.lines.at(-1)!.message,
      /answered 403 to GET \/sandbox: X-Sandbox-Secret is not this sandbox's secret/,
    );
    const flag = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--sandbox-secret', 'x']);
    assert.equal(await flag.exitCode(), 2);
    assert.match(
      flag.lines.at(-1)!.message,
      /unknown flag --sandbox-secret: set WFS_SANDBOX_SECRET in the environment instead/,
    );
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl], {
      WFS_SANDBOX_SECRET: s.info.controlSecret,
    });
    assert.deepEqual((await listen.event('ready')).issuers, [s.info.issuer]);
    await listen.stopCleanly();
  });
});
