// The sandbox runs in the extension host by default: what it remembers is bounded, and a request past a bound is
// refused with nothing changed.
import assert from 'node:assert/strict';
import { SandboxTokens, MAX_REFRESH_TOKEN_BYTES, MAX_REFRESH_TOKENS } from '../../../src/core/sandbox/sandboxTokens';
import {
  MAX_ENDPOINT_URL_CHARS,
  MAX_SESSION_ID_CHARS,
  MAX_WEBHOOK_ENDPOINTS,
} from '../../../src/core/sandbox/sandboxControlRoutes';
import {
  MAX_BILLING_ENTRIES,
  MAX_SANDBOX_SESSIONS,
  MAX_SANDBOX_WORKFLOWS,
  MAX_STAGED_LOAN_BYTES,
  SandboxWorkflows,
} from '../../../src/core/sandbox/sandboxWorkflows';
import { DEMO_LOAN, SANDBOX_PRODUCTS, STAGED_SESSION_ID } from '../../../src/core/sandbox/sandboxSeed';
import { ManualClock } from '../helpers/manualClock';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';

describe('sandbox: what it remembers is bounded', () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await startSandbox();
  });
  afterEach(() => f.stop());

  it(`staged loans over ${MAX_STAGED_LOAN_BYTES / 1024 / 1024} MiB in all are refused (507), nothing changed; unstaging makes room`, async () => {
    const loan = { notes: 'x'.repeat(1000 * 1000) }; // about 1 MB of JSON, under the 1 MiB body cap
    // The demo loan is staged too.
    const fits = Math.floor(
      (MAX_STAGED_LOAN_BYTES - Buffer.byteLength(JSON.stringify(DEMO_LOAN))) / Buffer.byteLength(JSON.stringify(loan)),
    );
    for (let i = 0; i < fits; i++)
      assert.equal((await f.control('POST', 'sessions', { sessionId: `big-${i}`, loan })).status, 201, `session ${i}`);
    const refused = await f.control('POST', 'sessions', { sessionId: 'one-too-many', loan });
    assert.equal(refused.status, 507);
    assert.match(
      refused.json().detail,
      /^the sandbox holds at most 64 MiB of staged loans, and this one would make \d+ bytes: unstage others/,
    );
    assert.equal((await f.control('GET', 'sessions/one-too-many')).status, 404, 'nothing was created');
    assert.equal((await f.control('PUT', `sessions/${STAGED_SESSION_ID}/loan`, { loan })).status, 507, 'nor replaced');
    assert.equal((await f.control('DELETE', 'sessions/big-0/loan')).status, 200);
    assert.equal((await f.control('POST', 'sessions', { sessionId: 'one-too-many', loan })).status, 201, 'room again');
  });

  it(`at most ${MAX_SANDBOX_SESSIONS} sessions, each id at most ${MAX_SESSION_ID_CHARS} characters (over HTTP, as a script would make them)`, async () => {
    const seeded = (await f.control('GET', 'sessions')).json().sessions.length as number;
    for (let i = seeded; i < MAX_SANDBOX_SESSIONS; i++)
      assert.equal((await f.control('POST', 'sessions', { sessionId: `s-${i}` })).status, 201, `session ${i}`);
    const refused = await f.control('POST', 'sessions', { sessionId: 'one-more' });
    assert.equal(refused.status, 507);
    assert.match(
      refused.json().detail,
      /^the sandbox holds at most 1000 sessions: POST \/sandbox\/reset, or restart it\.$/,
    );
    assert.equal((await f.control('GET', 'sessions/one-more')).status, 404, 'nothing was created');
    assert.equal(
      (await f.control('PUT', 'sessions/s-5/loan', { loan: { a: 1 } })).status,
      200,
      'an existing one may still be staged',
    );
    assert.equal((await f.control('POST', 'reset')).status, 200);

    // A thousand ids of a megabyte each would be a gigabyte in the extension host.
    const long = await f.control('POST', 'sessions', { sessionId: 's'.repeat(MAX_SESSION_ID_CHARS + 1) });
    assert.equal(long.status, 400);
    assert.equal(long.json().detail, 'sessionId must be at most 255 characters, with no control characters.');
    assert.equal((await f.control('POST', 'sessions', { sessionId: 'a\nb' })).status, 400);
    assert.equal((await f.control('POST', 'sessions', { sessionId: 's'.repeat(MAX_SESSION_ID_CHARS) })).status, 201);
  });

  it(`at most ${MAX_WEBHOOK_ENDPOINTS} webhook addresses of at most ${MAX_ENDPOINT_URL_CHARS} characters; one already there may be added again`, async () => {
    const before = (await f.control('GET', 'webhooks')).json().endpoints.length as number;
    for (let i = before; i < MAX_WEBHOOK_ENDPOINTS; i++)
      assert.equal((await f.control('POST', 'webhooks', { url: `http://127.0.0.1:9/hook-${i}` })).status, 201);
    const refused = await f.control('POST', 'webhooks', { url: 'http://127.0.0.1:9/one-more' });
    assert.equal(refused.status, 507);
    assert.equal(
      refused.json().detail,
      'the sandbox sends events to at most 100 addresses: DELETE /sandbox/webhooks one first.',
    );
    assert.equal(
      (await f.control('POST', 'webhooks', { url: 'http://127.0.0.1:9/hook-99' })).status,
      201,
      'already there',
    );
    assert.equal((await f.control('DELETE', 'webhooks', { url: 'http://127.0.0.1:9/hook-99' })).status, 200);
    assert.equal(
      (await f.control('POST', 'webhooks', { url: 'http://127.0.0.1:9/one-more' })).status,
      201,
      'room again',
    );
    const long = await f.control('POST', 'webhooks', {
      url: `http://127.0.0.1:9/${'p'.repeat(MAX_ENDPOINT_URL_CHARS)}`,
    });
    assert.equal(long.status, 400);
    assert.equal(long.json().detail, 'url must be at most 2048 characters.');
  });

  it(`at most ${MAX_SANDBOX_WORKFLOWS} workflows (the oldest finished forgotten) and ${MAX_BILLING_ENTRIES} billing entries`, () => {
    const clock = new ManualClock();
    const w = new SandboxWorkflows(clock, 1000, () => undefined);
    const session = w.sessions.get(STAGED_SESSION_ID)!;
    const first = w.start(session, SANDBOX_PRODUCTS[0]!, 'c-first', 'demo');
    const processing = w.start(session, SANDBOX_PRODUCTS[0]!, 'c-second', 'demo');
    w.finish(first.workflowId, 'complete');
    for (let i = 2; i < MAX_SANDBOX_WORKFLOWS + 1; i++)
      w.finish(w.start(session, SANDBOX_PRODUCTS[0]!, `c-${i}`, 'demo').workflowId, 'complete');
    assert.equal(w.get(first.workflowId), undefined, 'the oldest finished one is forgotten');
    assert.ok(w.get(processing.workflowId), 'one still processing is kept');
    assert.equal(w.all().length, MAX_SANDBOX_WORKFLOWS);
    assert.equal(w.billing.length, MAX_BILLING_ENTRIES);
    w.stop();
  });

  it(`at most ${MAX_REFRESH_TOKENS} refresh tokens: the oldest is refused (so its user signs in again), the newest works`, async () => {
    const tokens = new SandboxTokens(new ManualClock(), 'https://issuer', 3600);
    const first = (await tokens.issue({ username: 'demo' })).refresh_token;
    let last = first;
    for (let i = 0; i < MAX_REFRESH_TOKENS; i++) last = (await tokens.issue({ username: 'demo' })).refresh_token;
    assert.deepEqual(tokens.redeem(first), { ok: false, reason: 'unknown' });
    assert.equal(tokens.redeem(last).ok, true);
  });

  it(`refresh tokens hold at most ${MAX_REFRESH_TOKEN_BYTES / 1024 / 1024} MiB of usernames and aliases: a long alias is taken, and the oldest tokens make room`, async () => {
    const tokens = new SandboxTokens(new ManualClock(), 'https://issuer', 3600);
    const alias = 'a'.repeat(512 * 1024); // 1 MiB as UTF-16
    const first = (await tokens.issue({ username: 'demo', alias })).refresh_token;
    const issued = [first];
    for (let i = 0; i < 20; i++) issued.push((await tokens.issue({ username: 'demo', alias })).refresh_token);
    const kept = issued.filter((t) => tokens.redeem(t).ok);
    assert.ok(kept.length >= 14 && kept.length <= 16, `${kept.length} of 21 kept`);
    assert.deepEqual(kept, issued.slice(-kept.length), 'the newest');
    assert.deepEqual(tokens.redeem(issued.at(-1)!), { ok: true, subject: { username: 'demo', alias } });
    const huge = (await tokens.issue({ username: 'demo', alias: 'b'.repeat(MAX_REFRESH_TOKEN_BYTES) })).refresh_token;
    assert.equal(tokens.redeem(huge).ok, true, 'one past the cap alone is still kept: the newest always is');
    assert.equal(tokens.redeem(issued.at(-1)!).ok, false);
  });
});
