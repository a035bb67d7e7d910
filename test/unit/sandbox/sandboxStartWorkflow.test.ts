// Start workflow in the sandbox: the success shape and every error row (spec: Endpoints 4, Errors, Limits).
import assert from 'node:assert/strict';
import { startSandbox, SIGN_IN_PATH, type SandboxFixture } from '../helpers/sandboxFixture';

const ROOT = '/workflow-services-ws/resources/v1';

describe('sandbox: start workflow', () => {
  let f: SandboxFixture;
  let token: string;
  const startPath = (sessionId: string) => `${ROOT}/sessions/${encodeURIComponent(sessionId)}/workflows`;
  const start = (
    json: unknown,
    sessionId = f.info.sessions.staged,
    extra: { headers?: Record<string, string>; token?: string | null; body?: string } = {},
  ) =>
    f.call(startPath(sessionId), {
      json: extra.body === undefined ? json : undefined,
      body: extra.body,
      token: extra.token === null ? undefined : (extra.token ?? token),
      headers: extra.headers,
    });

  beforeEach(async () => {
    f = await startSandbox();
    token = (await f.signIn()).access_token;
  });
  afterEach(() => f.stop());

  describe('202 ACCEPTED', () => {
    it('the control API finishes a processing workflow (200); one already finished stays as it ended (409), an unknown one is 404', async () => {
      const started = (await start({ product: { service: 'Appraisal', model: 'Standard' } })).json().workflow as {
        workflowId: string;
      };
      const finished = await f.control('POST', `workflows/${started.workflowId}/finish`, { status: 'cancelled' });
      assert.deepEqual([finished.status, finished.json().workflow.status], [200, 'cancelled']);
      const again = await f.control('POST', `workflows/${started.workflowId}/finish`, { status: 'complete' });
      assert.equal(again.status, 409);
      assert.equal(
        again.json().detail,
        `Workflow "${started.workflowId}" has already finished (cancelled); only a processing one can be finished.`,
      );
      assert.equal(
        (await f.call(`${ROOT}/workflows/${started.workflowId}`, { token })).json().workflow.status,
        'cancelled',
        'unchanged',
      );
      assert.equal((await f.control('POST', 'workflows/wf_nope/finish', {})).status, 404);
      assert.equal((await f.control('POST', `workflows/${started.workflowId}/finish`, { status: 'done' })).status, 400);
    });

    it('returns workflow (processing), one ACCEPTED message and self/reconfirm links', async () => {
      const r = await start({ product: { service: 'Appraisal', model: 'Standard' }, correlationId: 'order-1' });
      assert.equal(r.status, 202);
      assert.equal(r.headers['content-type'], 'application/json');
      const b = r.json();
      const w = b.workflow;
      assert.match(w.workflowId, /^wf_/);
      assert.match(w.runId, /^wfrun_/);
      assert.equal(w.status, 'processing');
      assert.equal(w.sessionId, f.info.sessions.staged);
      assert.equal(w.correlationId, 'order-1');
      assert.deepEqual(w.product, { service: 'Appraisal', model: 'Standard' });
      assert.equal(w.productType, 'Appraisal');
      assert.equal(w.productName, 'Standard');
      assert.equal(w.reconfirmAvailable, false);
      for (const absent of ['ordered', 'fulfilled', 'completed', 'serviceable', 'referenceNumber'])
        assert.ok(!(absent in w), `${absent} is omitted on the acknowledgment`);
      assert.equal(b.messages.length, 1);
      assert.equal(b.messages[0].code, 'ACCEPTED');
      assert.equal(b.messages[0].timestamp, '2026-01-15T12:00:00Z', 'no fractional seconds when they are zero');
      assert.equal(b.links.self.href, `${f.info.baseUrl}${ROOT}/workflows/${w.workflowId}`);
      assert.deepEqual(b.links.reconfirm, { href: b.links.self.href, method: 'POST' });
    });
    it('omits correlationId (never null) when none was sent, and resolves free text case-insensitively', async () => {
      const w = (await start({ product: { service: ' appraisal ', model: 'DESKTOP' } })).json().workflow;
      assert.ok(!('correlationId' in w));
      assert.deepEqual(w.product, { service: 'Appraisal', model: 'Desktop' });
      assert.ok(!JSON.stringify(w).includes('null'));
    });
    it('the workflow is readable immediately and the start is billed once', async () => {
      const w = (await start({ product: { service: 'Flood', model: 'Certification' } })).json().workflow;
      const read = await f.call(`${ROOT}/workflows/${w.workflowId}`, { token });
      assert.equal(read.status, 200);
      assert.equal(read.json().workflow.status, 'processing');
      const billed = (await f.control('GET', 'billing')).json().billed;
      assert.equal(billed.length, 1);
      assert.equal(billed[0].workflowId, w.workflowId);
    });
    it('two starts on one session are two independent workflows', async () => {
      const a = (await start({ product: f.info.products[0] })).json().workflow;
      const b = (await start({ product: f.info.products[0] })).json().workflow;
      assert.notEqual(a.workflowId, b.workflowId);
      assert.equal((await f.control('GET', 'billing')).json().billed.length, 2);
    });
    it('a session id containing "/" and spaces is routed when percent-encoded', async () => {
      await f.control('POST', 'sessions', { sessionId: 'loan/2026 A', loan: { a: 1 } });
      const r = await start({ product: f.info.products[0] }, 'loan/2026 A');
      assert.equal(r.status, 202);
      assert.equal(r.json().workflow.sessionId, 'loan/2026 A');
    });
  });

  describe('400 VALIDATION_ERROR (messages envelope)', () => {
    const cases: [string, unknown][] = [
      ['product absent', {}],
      ['product null', { product: null }],
      ['only service', { product: { service: 'Appraisal' } }],
      ['only model', { product: { model: 'Standard' } }],
      ['pair that does not resolve', { product: { service: 'Appraisal', model: 'Nope' } }],
      ['terms field present', { product: { service: 'Appraisal', model: 'Standard' }, terms: { rate: 5 } }],
      [
        'correlationId of 256 characters',
        { product: { service: 'Appraisal', model: 'Standard' }, correlationId: 'x'.repeat(256) },
      ],
      [
        'a field other than product and correlationId',
        { product: { service: 'Appraisal', model: 'Standard' }, priority: 'high' },
      ],
    ];
    for (const [name, body] of cases)
      it(name, async () => {
        const r = await start(body);
        assert.equal(r.status, 400);
        assert.equal(r.headers['content-type'], 'application/json');
        const b = r.json();
        assert.equal(b.messages.length, 1);
        assert.equal(b.messages[0].code, 'VALIDATION_ERROR');
        assert.equal((await f.control('GET', 'billing')).json().billed.length, 0, 'nothing billed');
      });
    it('a correlationId of exactly 255 characters is accepted', async () => {
      assert.equal((await start({ product: f.info.products[0], correlationId: 'x'.repeat(255) })).status, 202);
    });
    it('retrying the same request returns the same 400', async () => {
      const a = await start({ product: { service: 'X', model: 'Y' } });
      const b = await start({ product: { service: 'X', model: 'Y' } });
      assert.equal(a.status, 400);
      assert.equal(b.json().messages[0].code, a.json().messages[0].code);
    });
    it('ordering rule: an unresolvable product on an empty session is 400, not 409', async () => {
      const r = await start({ product: { service: 'Nope', model: 'Nope' } }, f.info.sessions.empty);
      assert.equal(r.status, 400);
      assert.equal(r.json().messages[0].code, 'VALIDATION_ERROR');
    });
  });

  describe('400 problem document (body cannot be read)', () => {
    for (const [name, raw] of [
      ['malformed JSON', '{"product":'],
      ['an array instead of an object', '[{"product":{"service":"Appraisal","model":"Standard"}}]'],
      ['product of the wrong type', '{"product":"Appraisal/Standard"}'],
      ['product.service of the wrong type', '{"product":{"service":5,"model":"Standard"}}'],
      ['correlationId of the wrong type', '{"product":{"service":"Appraisal","model":"Standard"},"correlationId":42}'],
      ['an empty body', ''],
    ] as const)
      it(name, async () => {
        const r = await start(undefined, undefined, { body: raw });
        assert.equal(r.status, 400);
        assert.equal(r.headers['content-type'], 'application/problem+json');
        const b = r.json();
        assert.ok(!('messages' in b));
        assert.equal(b.status, 400);
        assert.match(b.instance, /^urn:/);
      });
  });

  describe('401', () => {
    it('no credential: problem type about:blank and WWW-Authenticate: Bearer realm', async () => {
      const r = await start({ product: f.info.products[0] }, undefined, { token: null });
      assert.equal(r.status, 401);
      assert.equal(r.headers['content-type'], 'application/problem+json');
      assert.equal(r.json().type, 'about:blank');
      assert.match(r.headers['www-authenticate'], /^Bearer realm="[^"]+"$/);
    });
    it('rejected token: invalid-token type under problemsBase, WWW-Authenticate with error=invalid_token', async () => {
      const r = await start({ product: f.info.products[0] }, undefined, { token: token.slice(0, -4) + 'AAAA' });
      assert.equal(r.status, 401);
      assert.equal(r.json().type, `${f.info.problemsBase}/invalid-token`);
      assert.match(r.headers['www-authenticate'], /^Bearer realm="[^"]+", error="invalid_token"/);
    });
  });

  describe('403', () => {
    it('product the account is not entitled to: 403, not the messages envelope', async () => {
      const r = await start({ product: f.info.unentitledProduct });
      assert.equal(r.status, 403);
      assert.ok(!r.text.includes('messages'));
    });
    it('edge: a POST without Content-Type gets an HTML 403', async () => {
      const r = await f.call(startPath(f.info.sessions.staged), {
        token,
        body: JSON.stringify({ product: f.info.products[0] }),
        headers: { 'content-type': '' },
      });
      assert.equal(r.status, 403);
      assert.match(r.headers['content-type'], /^text\/html/);
      assert.match(r.text, /<html>/);
    });
    it('edge: a correlationId resembling SQL injection gets an HTML 403', async () => {
      const r = await start({ product: f.info.products[0], correlationId: "x' OR '1'='1" });
      assert.equal(r.status, 403);
      assert.match(r.headers['content-type'], /^text\/html/);
    });
    it('edge: a header resembling cross-site scripting gets an HTML 403', async () => {
      const r = await start({ product: f.info.products[0] }, undefined, {
        headers: { 'x-svc-useragent': '<script>alert(1)</script>' },
      });
      assert.equal(r.status, 403);
      assert.match(r.headers['content-type'], /^text\/html/);
    });
    it('the same value Base64-encoded passes the edge', async () => {
      const r = await start({
        product: f.info.products[0],
        correlationId: Buffer.from("x' OR '1'='1").toString('base64'),
      });
      assert.equal(r.status, 202);
    });
  });

  describe('404', () => {
    it('unknown session: problem document, type …/problems/not-found, detail names it', async () => {
      const r = await start({ product: f.info.products[0] }, 'no-such-session');
      assert.equal(r.status, 404);
      assert.equal(r.headers['content-type'], 'application/problem+json');
      assert.equal(r.json().type, `${f.info.problemsBase}/not-found`);
      assert.match(r.json().detail, /no-such-session/);
    });
    it('a path outside the served context roots: 404 with no body', async () => {
      const r = await f.call(`/resources/v1/sessions/${f.info.sessions.staged}/workflows`, {
        token,
        json: { product: f.info.products[0] },
      });
      assert.equal(r.status, 404);
      assert.equal(r.body.length, 0);
      assert.equal(r.headers['content-type'], undefined);
    });
  });

  describe('409', () => {
    it('empty session: SESSION_EMPTY in the messages envelope, nothing billed', async () => {
      const r = await start({ product: f.info.products[0] }, f.info.sessions.empty);
      assert.equal(r.status, 409);
      assert.equal(r.json().messages[0].code, 'SESSION_EMPTY');
      assert.equal((await f.control('GET', 'billing')).json().billed.length, 0);
    });
    it('staging a loan then retrying succeeds, and the workflow runs against the snapshot at start', async () => {
      await f.control('POST', `sessions/${f.info.sessions.empty}/loan`, { loan: { loanNumber: 'L-1' } });
      const r = await start({ product: f.info.products[0] }, f.info.sessions.empty);
      assert.equal(r.status, 202);
    });
    it('fault: WORKFLOW_WRITE_CONFLICT in the messages envelope', async () => {
      await f.control('POST', 'faults', { fault: 'start-write-conflict' });
      const r = await start({ product: f.info.products[0] });
      assert.equal(r.status, 409);
      assert.equal(r.json().messages[0].code, 'WORKFLOW_WRITE_CONFLICT');
      assert.equal((await start({ product: f.info.products[0] })).status, 202, 'a fault is used up once');
    });
    it('fault: a conflict as a problem document without messages', async () => {
      await f.control('POST', 'faults', { fault: 'start-conflict-problem' });
      const r = await start({ product: f.info.products[0] });
      assert.equal(r.status, 409);
      assert.equal(r.headers['content-type'], 'application/problem+json');
      assert.ok(!('messages' in r.json()));
    });
  });

  describe('429 rate throttle', () => {
    it('answers 429 with no body and no Retry-After when forced', async () => {
      await f.control('POST', 'faults', { fault: 'throttle' });
      const r = await start({ product: f.info.products[0] });
      assert.equal(r.status, 429);
      assert.equal(r.body.length, 0);
      assert.equal(r.headers['retry-after'], undefined);
    });
    it('counts every endpoint per address, and refused credentials reach it sooner', async () => {
      const g = await startSandbox({ throttle: { limit: 100, windowMs: 60_000, refusedCredentialWeight: 20 } });
      try {
        let refusedBefore429 = 0;
        for (let i = 0; i < 10; i++) {
          const r = await g.call(SIGN_IN_PATH, { json: { username: 'demo', password: 'wrong' } });
          if (r.status === 429) break;
          assert.equal(r.status, 401);
          refusedBefore429++;
        }
        assert.equal(refusedBefore429, 5, 'five refused credentials (weight 20 each) use up a limit of 100');
        g.clock.advance(60_000);
        assert.equal(
          (await g.call(SIGN_IN_PATH, { json: { username: 'demo', password: 'demo-password' } })).status,
          200,
          'resumes after the window',
        );
      } finally {
        await g.stop();
      }
    });
  });

  describe('500', () => {
    it('fault start-500: 500, not the messages envelope, nothing started', async () => {
      await f.control('POST', 'faults', { fault: 'start-500' });
      const r = await start({ product: f.info.products[0], correlationId: 'c-500' });
      assert.equal(r.status, 500);
      assert.ok(!r.text.includes('messages'));
      assert.equal((await f.control('GET', 'billing')).json().billed.length, 0);
    });
    it('fault start-500-billed: 500, yet a billed workflow exists that Find Workflows finds by correlationId', async () => {
      await f.control('POST', 'faults', { fault: 'start-500-billed' });
      const r = await start({ product: f.info.products[0], correlationId: 'c-500-billed' });
      assert.equal(r.status, 500);
      const found = await f.call(`${ROOT}/workflows?correlationId=c-500-billed`, { token });
      assert.equal(found.status, 200);
      assert.equal(found.json().workflows.length, 1);
    });
  });
});
