// WorkflowClient: retry-once on 401/403, no retry on 400/404/409/500, 429 backoff and resume, local refusals,
// headers, path encoding, links — against scripted loopback servers and the sandbox.
import assert from 'node:assert/strict';
import type { AccessTokenProvider } from '../../../src/core/auth/TokenManager';
import { ManualClock } from '../helpers/manualClock';
import { WorkflowClient, findWorkflowsUrl } from '../../../src/core/workflows/WorkflowClient';
import {
  LocalValidationError,
  NotEntitled,
  OutcomeUnknown,
  RateLimited,
  ServiceError,
  SessionEmpty,
  Unauthorized,
} from '../../../src/core/http/serviceErrors';
import { RateGate, backoffDelay } from '../../../src/core/http/rateGate';
import { USER_AGENT } from '../../../src/core/version';
import { ScriptedServer, json } from '../helpers/scriptedServer';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { MemorySecretStore } from '../../../src/core/auth/secretStore';
import { TokenManager } from '../../../src/core/auth/TokenManager';
import { untilTrue as until } from '../helpers/eventLoop';

class CountingTokens implements AccessTokenProvider {
  generation = 0;
  freshCalls = 0;
  async getAccessToken(): Promise<string> {
    return `token-${this.generation}`;
  }
  async freshAccessToken(): Promise<string> {
    this.freshCalls++;
    this.generation++;
    return `token-${this.generation}`;
  }
}

const ACCEPTED = json(202, {
  workflow: {
    workflowId: 'wf_1',
    runId: 'wfrun_1',
    status: 'processing',
    sessionId: 's',
    product: { service: 'A', model: 'B' },
    productType: 'A',
    productName: 'B',
    reconfirmAvailable: false,
  },
  messages: [{ code: 'ACCEPTED', text: 'ok', timestamp: '2026-01-15T12:00:00Z' }],
  links: { self: { href: 'x' }, reconfirm: { href: 'x', method: 'POST' } },
});
const PB = 'https://svc.test/problems';

describe('WorkflowClient against scripted responses', () => {
  let server: ScriptedServer;
  let tokens: CountingTokens;
  let clock: ManualClock;
  let client: WorkflowClient;
  const start = (extra = {}) =>
    client.start({ sessionId: 'sess-1', product: { service: 'Appraisal', model: 'Standard' }, ...extra });

  beforeEach(async () => {
    server = new ScriptedServer();
    await server.start();
    tokens = new CountingTokens();
    clock = new ManualClock();
    client = new WorkflowClient({ baseUrl: server.url, tokens, clock, userAlias: 'alias-1', random: () => 0.5 });
  });
  afterEach(() => server.stop());

  it('sends the headers the spec names and a generated, distinctive correlationId', async () => {
    server.script = [ACCEPTED];
    const r = await start({ supportCorrelationId: 'trace-9' });
    const req = server.requests[0];
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/workflow-services-ws/resources/v1/sessions/sess-1/workflows');
    assert.equal(req.headers.authorization, 'Bearer token-0');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers.accept, 'application/json');
    assert.equal(req.headers['x-svc-useralias'], 'alias-1');
    assert.equal(req.headers['x-svc-useragent'], USER_AGENT);
    assert.equal(req.headers['x-svc-correlationid'], 'trace-9');
    const body = JSON.parse(req.body.toString());
    assert.deepEqual(Object.keys(body).sort(), ['correlationId', 'product']);
    assert.match(body.correlationId, /^wfs-\d{8}T\d{6}Z-[0-9a-f]{8}$/);
    assert.equal(r.correlationId, body.correlationId);
    const again = await start();
    assert.notEqual(again.correlationId, r.correlationId, 'each start gets its own correlationId');
  });

  it('omits X-Svc-UserAlias and X-Svc-CorrelationID when not set', async () => {
    client = new WorkflowClient({ baseUrl: server.url, tokens, clock });
    server.script = [ACCEPTED];
    await start();
    assert.equal(server.requests[0].headers['x-svc-useralias'], undefined);
    assert.equal(server.requests[0].headers['x-svc-correlationid'], undefined);
  });

  for (const status of [401, 403])
    it(`on ${status}: one fresh token, one retry, and success`, async () => {
      server.script = [
        {
          status,
          headers: status === 401 ? { 'content-type': 'application/problem+json' } : {},
          body: status === 401 ? JSON.stringify({ type: `${PB}/invalid-token`, status }) : '',
        },
        ACCEPTED,
      ];
      await start();
      assert.equal(tokens.freshCalls, 1);
      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[1].headers.authorization, 'Bearer token-1');
    });

  it('on 401 twice: surfaces Unauthorized after exactly one retry', async () => {
    server.script = [json(401, { type: `${PB}/invalid-token`, status: 401 }, 'application/problem+json')];
    await assert.rejects(start(), Unauthorized);
    assert.equal(server.requests.length, 2);
    assert.equal(tokens.freshCalls, 1);
  });

  it('on 403 twice: surfaces NotEntitled after exactly one retry', async () => {
    server.script = [{ status: 403, headers: { 'content-type': 'text/html' }, body: '<html>no</html>' }];
    await assert.rejects(start(), NotEntitled);
    assert.equal(server.requests.length, 2);
  });

  const noRetry: [number, ReturnType<typeof json>, string][] = [
    [
      400,
      json(400, { messages: [{ code: 'VALIDATION_ERROR', text: 't', timestamp: '2026-01-15T12:00:00Z' }] }),
      'validation',
    ],
    [400, json(400, { type: `${PB}/malformed`, status: 400 }, 'application/problem+json'), 'malformed-request'],
    [404, json(404, { type: `${PB}/problems/not-found`, status: 404 }, 'application/problem+json'), 'not-found'],
    [404, { status: 404 } as ReturnType<typeof json>, 'path-not-served'],
    [
      409,
      json(409, { messages: [{ code: 'SESSION_EMPTY', text: 't', timestamp: '2026-01-15T12:00:00Z' }] }),
      'session-empty',
    ],
    [
      409,
      json(409, { messages: [{ code: 'WORKFLOW_WRITE_CONFLICT', text: 't', timestamp: '2026-01-15T12:00:00Z' }] }),
      'write-conflict',
    ],
    [500, { status: 500, headers: { 'content-type': 'text/plain' }, body: 'boom' }, 'outcome-unknown'],
  ];
  for (const [status, reply, kind] of noRetry)
    it(`${status} (${kind}) is not retried and carries the correlationId sent`, async () => {
      server.script = [reply, ACCEPTED];
      const err = await start({ correlationId: 'order-77' }).then(
        () => assert.fail('expected an error'),
        (e: unknown) => e as ServiceError,
      );
      assert.ok(err instanceof ServiceError);
      assert.equal(err.kind, kind);
      assert.equal(err.correlationId, 'order-77');
      assert.equal(server.requests.length, 1, 'never retried');
      assert.equal(tokens.freshCalls, 0);
    });

  it('500 is OutcomeUnknown whose advice names Find Workflows and the correlationId', async () => {
    server.script = [{ status: 500 }];
    const err = await start({ correlationId: 'order-500' }).catch((e) => e);
    assert.ok(err instanceof OutcomeUnknown);
    assert.match(err.advice, /Find Workflows by correlationId order-500/);
    assert.equal(err.billed, 'possibly');
  });

  it('429: backs off on the injected clock (exponential, jittered, capped) and resumes', async () => {
    server.script = [{ status: 429 }, { status: 429 }, ACCEPTED];
    const waits: number[] = [];
    client = new WorkflowClient({
      baseUrl: server.url,
      tokens,
      clock,
      random: () => 0.5,
      onBackoff: (_a, d) => waits.push(d),
    });
    const p = start();
    await until(() => waits.length === 1);
    assert.equal(server.requests.length, 1, 'no second request before the delay');
    await clock.advanceAsync(waits[0]);
    await until(() => waits.length === 2);
    await clock.advanceAsync(waits[1]);
    const r = await p;
    assert.equal(r.workflow.workflowId, 'wf_1');
    assert.deepEqual(waits, [750, 1500]);
    assert.equal(server.requests.length, 3);
  });

  it('429: gives up after the bounded number of attempts with RateLimited', async () => {
    server.script = [{ status: 429 }];
    client = new WorkflowClient({
      baseUrl: server.url,
      tokens,
      clock,
      backoff: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 },
      random: () => 0,
    });
    const p = start().catch((e) => e);
    for (let i = 0; i < 10 && server.requests.length < 3; i++) await clock.advanceAsync(1000);
    assert.ok((await p) instanceof RateLimited);
    assert.equal(server.requests.length, 3);
  });

  it('429: every call of the client waits out the backoff another call met (one shared throttle)', async () => {
    server.script = [{ status: 429 }, ACCEPTED];
    const waits: number[] = [];
    client = new WorkflowClient({
      baseUrl: server.url,
      tokens,
      clock,
      random: () => 0.5,
      onBackoff: (_a, d) => waits.push(d),
    });
    const first = start();
    await until(() => waits.length === 1);
    const second = client.read('wf_1');
    for (let i = 0; i < 5; i++) await clock.advanceAsync(100);
    assert.equal(server.requests.length, 1, 'the second call sent nothing while the throttle was closed');
    await clock.advanceAsync(waits[0] - 500);
    await Promise.all([first, second]);
    assert.equal(server.requests.length, 3, 'both went once it opened');
  });

  it('429: a gate shared with the TokenManager holds a refresh too, and a 429 on refresh holds the workflow calls', async () => {
    const gate = new RateGate(clock, undefined, () => 0.5);
    server.script = [{ status: 429 }, ACCEPTED];
    client = new WorkflowClient({ baseUrl: server.url, tokens, clock, gate });
    const p = start();
    await until(() => server.requests.length === 1);
    await until(() => gate.remainingMs > 0);
    // The same service's TokenManager refreshing now must wait as well.
    const store = new MemorySecretStore();
    const manager = new TokenManager({ secretScope: 'gate', baseUrl: server.url, store, clock, gate });
    await store.store(
      'wfs.tokens.gate',
      JSON.stringify({
        username: 'u',
        accessToken: 'a',
        refreshToken: 'r',
        accessExpiresAt: clock.now() + 3_600_000,
        refreshIssuedAt: clock.now(),
        refreshExpiresAt: clock.now() + 86_400_000,
      }),
    );
    await manager.load();
    const refreshing = manager.refresh().catch((e: unknown) => e);
    for (let i = 0; i < 3; i++) await clock.advanceAsync(100);
    assert.equal(server.requests.length, 1, 'the refresh waited for the shared backoff');
    await clock.advanceAsync(1000);
    await p;
    await refreshing;
    assert.equal(server.requests.length, 3);
    assert.ok(
      server.requests.some((r) => r.url.includes('oauth2')),
      'the refresh went once the throttle opened',
    );

    // And the other way: a 429 answered to the TokenManager closes the gate for the client, and the refresh itself
    // backs off and is sent again (it used to fail at once).
    server.script = [{ status: 429 }, ACCEPTED];
    server.requests.length = 0;
    const refreshedAgain = manager.refresh().catch((e: unknown) => e);
    await until(() => server.requests.length === 1);
    await until(() => gate.remainingMs > 0);
    const after = start();
    await clock.advanceAsync(gate.remainingMs - 1);
    assert.equal(
      server.requests.length,
      1,
      "neither the workflow call nor the refresh's retry went during the backoff the refresh met",
    );
    await clock.advanceAsync(1);
    await after;
    await refreshedAgain;
    assert.equal(server.requests.length, 3, 'the refresh was sent again, and the start went');
    assert.equal(server.requests.filter((r) => r.url.includes('oauth2')).length, 2);
  });

  it('backoff delays grow exponentially with jitter and stay under the cap', () => {
    const policy = { maxAttempts: 10, baseDelayMs: 1000, maxDelayMs: 8000 };
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((a) => backoffDelay(a, policy, () => 0)),
      [500, 1000, 2000, 4000, 4000],
    );
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((a) => backoffDelay(a, policy, () => 1)),
      [1000, 2000, 4000, 8000, 8000],
    );
  });

  it('refuses a correlationId over 255 characters before sending, naming the rule', async () => {
    await assert.rejects(
      start({ correlationId: 'x'.repeat(256) }),
      (e: unknown) => e instanceof LocalValidationError && e.rule === 'correlationId-length',
    );
    assert.equal(server.requests.length, 0);
    server.script = [ACCEPTED];
    await start({ correlationId: 'x'.repeat(255) });
    assert.equal(server.requests.length, 1);
  });

  it('refuses values the edge would reject as SQL or script, before sending', async () => {
    for (const bad of [
      { correlationId: "1' OR '1'='1" },
      { product: { service: '<script>x</script>', model: 'M' } },
      { sessionId: 'a; DROP TABLE s' },
    ])
      await assert.rejects(
        start(bad),
        (e: unknown) => e instanceof LocalValidationError && e.rule === 'edge-refused-value',
      );
    assert.equal(server.requests.length, 0);
  });

  it('refuses a product without service or model before sending', async () => {
    await assert.rejects(
      start({ product: { service: 'A', model: ' ' } }),
      (e: unknown) => e instanceof LocalValidationError && e.rule === 'product-required',
    );
  });

  it('never sends the token to a link on another origin', async () => {
    assert.throws(
      () => client.resolveWorkflowUrl('https://evil.example/workflow-services-ws/resources/v1/workflows/wf_1'),
      (e: unknown) => e instanceof LocalValidationError && e.rule === 'foreign-link',
    );
    // A link on another origin is not followed: the caller falls back to the id, the same URL on this origin.
    assert.equal(client.ownLink('https://evil.example/workflow-services-ws/resources/v1/workflows/wf_1'), undefined);
    assert.equal(client.ownLink('not a url'), undefined);
    assert.equal(client.ownLink(undefined), undefined);
    const own = `${server.url}/workflow-services-ws/resources/v1/workflows/wf_1`;
    assert.equal(client.ownLink(own), own, 'a link on this origin is used as given');
  });
});

describe('WorkflowClient against the sandbox', () => {
  let f: SandboxFixture;
  let client: WorkflowClient;
  beforeEach(async () => {
    f = await startSandbox();
    const tm = new TokenManager({
      secretScope: 'sandbox',
      baseUrl: f.info.baseUrl,
      store: new MemorySecretStore(),
      clock: f.clock,
    });
    await tm.signIn({ username: f.info.username, password: f.info.password });
    client = new WorkflowClient({ baseUrl: f.info.baseUrl, tokens: tm, clock: f.clock });
  });
  afterEach(() => f.stop());

  it('starts, reads by id and by self link, and reconfirms when available', async () => {
    const r = await client.start({
      sessionId: f.info.sessions.staged,
      product: { service: 'Appraisal', model: 'Standard' },
    });
    assert.equal(r.workflow.status, 'processing');
    assert.equal((await client.read(r.workflow.workflowId)).workflow.runId, r.workflow.runId);
    assert.equal((await client.read(r.links!.self.href)).workflow.workflowId, r.workflow.workflowId);
    f.clock.advance(20_000);
    const again = await client.reconfirm(r.links!.reconfirm.href);
    assert.equal(again.workflow.workflowId, r.workflow.workflowId);
    assert.notEqual(again.workflow.runId, r.workflow.runId);
  });

  it('percent-encodes a session id containing "/" and spaces', async () => {
    await f.control('POST', 'sessions', { sessionId: 'loan/2026 Q1', loan: { a: 1 } });
    const r = await client.start({ sessionId: 'loan/2026 Q1', product: f.info.products[0] });
    assert.equal(r.workflow.sessionId, 'loan/2026 Q1');
  });

  it('maps the sandbox refusals to typed errors: SESSION_EMPTY, not entitled, unknown session', async () => {
    await assert.rejects(client.start({ sessionId: f.info.sessions.empty, product: f.info.products[0] }), SessionEmpty);
    await assert.rejects(
      client.start({ sessionId: f.info.sessions.staged, product: f.info.unentitledProduct }),
      NotEntitled,
    );
    await assert.rejects(
      client.start({ sessionId: 'nope', product: f.info.products[0] }),
      (e: unknown) => (e as ServiceError).kind === 'not-found',
    );
  });

  it('recovers from a one-off 403 by retrying with a fresh token', async () => {
    await f.control('POST', 'faults', { fault: 'forbidden' });
    const r = await client.start({ sessionId: f.info.sessions.staged, product: f.info.products[0] });
    assert.equal(r.workflow.status, 'processing');
  });

  it('finds the billed workflow of a 500 by its correlationId', async () => {
    await f.control('POST', 'faults', { fault: 'start-500-billed' });
    const err = await client
      .start({ sessionId: f.info.sessions.staged, product: f.info.products[0], correlationId: 'order-x' })
      .catch((e) => e);
    assert.ok(err instanceof OutcomeUnknown);
    const found = await client.find('order-x');
    assert.equal(found.length, 1);
    assert.equal(found[0].correlationId, 'order-x');
  });
});

describe('Find Workflows address (the adapter)', () => {
  it('defaults to the sandbox shape; a template takes {correlationId}, encoded; another origin is refused', () => {
    assert.equal(
      findWorkflowsUrl('https://svc.example', 'a b/c'),
      'https://svc.example/workflow-services-ws/resources/v1/workflows?correlationId=a%20b%2Fc',
    );
    assert.equal(
      findWorkflowsUrl('https://svc.example', 'x', 'https://svc.example/search/{correlationId}'),
      'https://svc.example/search/x',
    );
    assert.throws(
      () => findWorkflowsUrl('https://svc.example', 'x', 'https://other.example/search/{correlationId}'),
      /not on the service's origin/,
    );
    assert.throws(
      () => findWorkflowsUrl('https://svc.example', 'x', 'https://svc.example/search'),
      /has no \{correlationId\}/,
    );
  });
});
