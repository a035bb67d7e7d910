// The probe's series against an in-process sandbox on a virtual clock: spaced by the injected timer (nothing waits on
// the wall clock), at most 20 requests, credentials only to the environment's origins; and the sandbox profile's
// loader, which never lets the sandbox imitate a divergence from the spec.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { runProbe, MAX_PROBE_REQUESTS } from '../../../src/core/probe/runProbe';
import { probeProfile } from '../../../src/core/probe/probeProfile';
import { loadSandboxProfile, ProfileError } from '../../../src/core/sandbox/sandboxProfile';
import { ManualClock } from '../helpers/manualClock';
import { probeTargetOf, startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';

/** Runs the probe to its end on a virtual clock: each time it waits for its spacing (a timer pending), time moves on
 * by exactly that; in between, the event loop turns so the loopback requests complete. */
async function drive<T>(clock: ManualClock, stepMs: number, run: Promise<T>): Promise<T> {
  let finished = false;
  const result = run.finally(() => (finished = true));
  result.catch(() => undefined);
  while (!finished) {
    if (clock.pendingCount > 0) await clock.advanceAsync(stepMs);
    else await new Promise((r) => setImmediate(r));
  }
  return result;
}

describe('runProbe', () => {
  let fx: SandboxFixture;
  before(async () => {
    fx = await startSandbox();
  });
  after(() => fx.stop());

  const target = () =>
    probeTargetOf(fx.info, {
      jwksUrls: [fx.info.jwksUrl],
      findWorkflowsUrl: `${fx.info.baseUrl}/workflow-services-ws/resources/v1/workflows?correlationId={correlationId}`,
    });

  it('sends its requests one spacing apart on the injected clock, and no more than 20', async () => {
    const clock = new ManualClock();
    const before = fx.sandbox.context.stats.requests;
    const done = runProbe(target(), { clock, spacingMs: 5_000, includeRefusal: true });
    // The first request needs no wait; each later one waits for the clock.
    await once(fx.sandbox, 'request');
    // The probe is now waiting for its spacing: a timer, and nothing else in flight.
    while (clock.pendingCount === 0) await new Promise((r) => setImmediate(r));
    assert.equal(fx.sandbox.context.stats.requests - before, 1);
    await clock.advanceAsync(4_999);
    assert.equal(fx.sandbox.context.stats.requests - before, 1, 'not before the spacing has passed');
    const report = await drive(clock, 5_000, done);
    assert.equal(report.requests, 13);
    assert.ok(report.requests <= MAX_PROBE_REQUESTS);
    assert.equal(fx.sandbox.context.stats.requests - before, 13);
    assert.deepEqual([report.counts.differs, report.outcome.ended], [0, 'complete']);
  });

  it('refuses a Find Workflows address off the service origin before any credential goes there', async () => {
    const clock = new ManualClock();
    const done = runProbe(
      { ...target(), findWorkflowsUrl: 'https://elsewhere.example/find?c={correlationId}' },
      { clock, spacingMs: 1 },
    );
    await assert.rejects(drive(clock, 1, done), /not on the service's origin/);
  });
});

describe('sandbox profile loader', () => {
  it('keeps what the spec leaves open and leaves out, saying so, what would differ from it', () => {
    const loaded = loadSandboxProfile(
      JSON.stringify({
        format: 'wfs-sandbox-profile',
        version: 1,
        signInRefusal: {
          status: 400,
          contentType: 'application/json',
          bodyKind: 'json',
          fields: { error: 'string' },
          errorCode: 'invalid_grant',
        },
        refreshRefusal: { status: 200, contentType: 'application/json', bodyKind: 'json' },
        refresh: { rotatesRefreshToken: true },
        accessToken: { header: ['alg', 'kid', 'typ', 'jku'], claims: { sub: 'string', tid: 'string', exp: 'number' } },
        testWebhook: {
          headers: ['authorization', 'x-extra', 'content-length', 'Bad Header'],
          token: {
            header: ['alg', 'kid', 'x5u'],
            claims: { iss: 'string', exp: 'number', tid: 'string' },
            lifetimeSeconds: 600,
          },
        },
        surprise: true,
      }),
    );
    assert.deepEqual(loaded.profile.signInRefusal?.status, 400);
    assert.equal(loaded.profile.refreshRefusal, undefined);
    assert.deepEqual(loaded.profile.accessToken, { header: ['kid'], claims: { tid: 'string' } });
    assert.deepEqual(loaded.profile.testWebhook, {
      headers: ['x-extra'],
      header: [],
      claims: { tid: 'string' },
      lifetimeSeconds: 600,
    });
    const ignored = loaded.ignored.join('\n');
    for (const why of [
      /refreshRefusal: status 200 is not a refusal/,
      /rotatesRefreshToken: a refresh that returns a new refresh token differs from the spec/,
      /accessToken.header jku: changes how a token is verified/,
      /testWebhook.token lacks aud, body_sha256: the spec requires them/,
      /testWebhook.token header x5u/,
      /"Bad Header": not a header name/,
      /"surprise": not a profile entry/,
    ])
      assert.match(ignored, why);
  });

  it('refuses what is not a profile', () => {
    assert.throws(() => loadSandboxProfile('{"format":"other"}'), ProfileError);
    assert.throws(() => loadSandboxProfile('{"format":"wfs-sandbox-profile","version":9}'), /version 9/);
    assert.throws(() => loadSandboxProfile('not json'), /not JSON/);
  });

  it("a profile written from a report round-trips through the loader: the sandbox's own observations change nothing", async () => {
    const fx = await startSandbox();
    try {
      const clock = new ManualClock();
      const done = runProbe(probeTargetOf(fx.info), { clock, spacingMs: 10, includeRefusal: true });
      const report = await drive(clock, 10, done);
      const text = JSON.stringify(probeProfile(report));
      assert.ok(!text.includes(fx.info.password) && !/eyJ/.test(text));
      const loaded = loadSandboxProfile(text);
      assert.deepEqual(loaded.ignored, []);
      assert.deepEqual(loaded.profile.accessToken, { header: [], claims: {} });
    } finally {
      await fx.stop();
    }
  });
});
