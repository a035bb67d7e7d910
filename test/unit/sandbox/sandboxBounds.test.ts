// The sandbox runs in the extension host by default: what it remembers is bounded, and a request past a bound is
// refused with nothing changed.
import assert from 'node:assert/strict';
import { SandboxTokens, MAX_REFRESH_TOKENS } from '../../../src/core/sandbox/sandboxTokens';
import { MAX_BILLING_ENTRIES, MAX_SANDBOX_SESSIONS, MAX_SANDBOX_WORKFLOWS, MAX_STAGED_LOAN_BYTES, SandboxWorkflows } from '../../../src/core/sandbox/sandboxWorkflows';
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
    const fits = Math.floor((MAX_STAGED_LOAN_BYTES - Buffer.byteLength(JSON.stringify(DEMO_LOAN))) / Buffer.byteLength(JSON.stringify(loan)));
    for (let i = 0; i < fits; i++) assert.equal((await f.control('POST', 'sessions', { sessionId: `big-${i}`, loan })).status, 201, `session ${i}`);
    const refused = await f.control('POST', 'sessions', { sessionId: 'one-too-many', loan });
    assert.equal(refused.status, 507);
    assert.match(refused.json().detail, /^the sandbox holds at most 64 MiB of staged loans, and this one would make \d+ bytes: unstage others/);
    assert.equal((await f.control('GET', 'sessions/one-too-many')).status, 404, 'nothing was created');
    assert.equal((await f.control('PUT', `sessions/${STAGED_SESSION_ID}/loan`, { loan })).status, 507, 'nor replaced');
    assert.equal((await f.control('DELETE', 'sessions/big-0/loan')).status, 200);
    assert.equal((await f.control('POST', 'sessions', { sessionId: 'one-too-many', loan })).status, 201, 'room again');
  });

  it(`at most ${MAX_SANDBOX_SESSIONS} sessions`, async () => {
    const w = new SandboxWorkflows(new ManualClock(), 1000, () => undefined);
    for (let i = w.sessions.size; i < MAX_SANDBOX_SESSIONS; i++) assert.deepEqual(w.stage(`s-${i}`, null), { ok: true });
    const refused = w.stage('one-more', null);
    assert.equal(refused.ok, false);
    assert.deepEqual([w.sessions.size, w.stage('s-5', { a: 1 }).ok], [MAX_SANDBOX_SESSIONS, true], 'an existing one may still be staged');
  });

  it(`at most ${MAX_SANDBOX_WORKFLOWS} workflows (the oldest finished forgotten) and ${MAX_BILLING_ENTRIES} billing entries`, () => {
    const clock = new ManualClock();
    const w = new SandboxWorkflows(clock, 1000, () => undefined);
    const session = w.sessions.get(STAGED_SESSION_ID)!;
    const first = w.start(session, SANDBOX_PRODUCTS[0]!, 'c-first', 'demo');
    const processing = w.start(session, SANDBOX_PRODUCTS[0]!, 'c-second', 'demo');
    w.finish(first.workflowId, 'complete');
    for (let i = 2; i < MAX_SANDBOX_WORKFLOWS + 1; i++) w.finish(w.start(session, SANDBOX_PRODUCTS[0]!, `c-${i}`, 'demo').workflowId, 'complete');
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
});
