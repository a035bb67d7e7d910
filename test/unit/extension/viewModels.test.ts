// Plain-Node tests of the extension's view-model logic: tree presentation, error presentation, log redaction.
import '../helpers/vscodeL10n';
import assert from 'node:assert/strict';
import { SignInRequired } from '../../../src/core/auth/authErrors';
import {
  LocalValidationError,
  NotEntitled,
  OutcomeUnknown,
  SessionEmpty,
  ValidationError,
} from '../../../src/core/http/serviceErrors';
import { TransportError } from '../../../src/core/http/request';
import type { TrackedWorkflow } from '../../../src/core/workflows/WorkflowStore';
import {
  escapeMarkdown,
  workflowContextValue,
  workflowDescription,
  workflowIcon,
  workflowLabel,
  workflowTooltip,
} from '../../../src/extension/explorer/workflowPresentation';
import { presentError } from '../../../src/extension/errors/errorPresentation';
import { redact } from '../../../src/extension/log/redact';
import { classifyResponse } from '../../../src/core/http/classifyResponse';

const base: TrackedWorkflow = {
  workflowId: 'wf_1',
  runId: 'wfrun_1',
  sessionId: 'sess-demo-staged',
  correlationId: 'wfs-abc',
  product: { service: 'Appraisal', model: 'Standard' },
  productName: 'Standard Appraisal',
  status: 'processing',
  reconfirmAvailable: false,
  startedAt: Date.UTC(2026, 10, 22, 10, 0, 0),
  lastPolledAt: Date.UTC(2026, 10, 22, 10, 0, 30),
};

describe('workflow presentation in the tree', () => {
  it('icons by status: processing spins, terminal states are coloured, a stopped poll is a watch', () => {
    assert.deepEqual(workflowIcon(base), { id: 'sync~spin', color: 'charts.blue' });
    assert.deepEqual(workflowIcon({ ...base, status: 'complete' }), { id: 'pass-filled', color: 'testing.iconPassed' });
    assert.deepEqual(workflowIcon({ ...base, status: 'failed' }), { id: 'error', color: 'testing.iconFailed' });
    assert.equal(workflowIcon({ ...base, status: 'cancelled' }).id, 'circle-slash');
    assert.equal(workflowIcon({ ...base, pollingStopped: 'deadline reached' }).id, 'watch');
    assert.equal(workflowIcon({ ...base, status: 'weird' }).id, 'question');
  });

  it('context tokens drive the menus: reconfirmable and live', () => {
    assert.equal(workflowContextValue(base), 'workflow status-processing live');
    assert.equal(
      workflowContextValue({ ...base, status: 'complete', reconfirmAvailable: true }),
      'workflow status-complete reconfirmable',
    );
    assert.match(workflowContextValue({ ...base, status: 'complete', reconfirmAvailable: true }), /reconfirmable/);
    assert.equal(workflowContextValue({ ...base, pollingStopped: 'deadline' }), 'workflow status-processing');
    assert.equal(
      workflowContextValue({ ...base, status: 'x y/z' }),
      'workflow status-xyz live',
      'a hostile status cannot add tokens',
    );
  });

  it('the tooltip names product, correlationId, workflowId, runId and last polled; service text is escaped', () => {
    const t = workflowTooltip(
      { ...base, lastError: '[click](command:evil)', messages: [{ code: 'M1', text: '<img src=x onerror=alert(1)>' }] },
      base.lastPolledAt! + 5000,
    );
    for (const part of ['Standard Appraisal', 'wfs\\-abc', 'wf\\_1', 'wfrun\\_1', '5 s ago'])
      assert.ok(t.includes(part), `${part} in ${t}`);
    assert.ok(!t.includes('[click](command:evil)'), 'no live link from error text');
    assert.ok(!t.includes('<img'), 'no raw HTML from a message');
    assert.equal(escapeMarkdown('a_b*c'), 'a\\_b\\*c');
    assert.equal(workflowDescription({ ...base, pollingStopped: 'deadline reached' }), 'processing · deadline reached');
  });

  it("the service's controls and bidi controls reach no label, description or tooltip raw", () => {
    const w = { ...base, product: { service: 'Appr\u202eaisal', model: 'm\x1b[2J' }, status: 'processing\u2066' };
    assert.equal(workflowLabel(w), 'Appr\\u202eaisal / m\\x1b[2J');
    // A status this version does not know is data: shown as sent (made safe), quoted.
    assert.equal(workflowDescription(w), '"processing\\u2066"');
    const t = workflowTooltip({ ...w, lastError: 'boom\x9b' }, base.lastPolledAt! + 5000);
    assert.ok(!/[\x1b\x9b\u202e\u2066]/.test(t), t);
  });
});

describe('error presentation', () => {
  it('a lapsed sign-in offers Sign In', () => {
    const p = presentError(
      'Start workflow',
      new SignInRequired('refresh-lapsed', 'The sign-in has lapsed: sign in again.'),
    );
    assert.deepEqual(p.actions, ['Sign In', 'Show Log']);
    assert.match(p.message, /sign in again/);
  });

  it('500 is modal, says a billed workflow may exist, and offers Find Workflows first, then the correlationId', () => {
    const p = presentError(
      'Start workflow',
      new OutcomeUnknown('outcome-unknown', 'Outcome unknown (500): a workflow may have been started and billed.', {
        status: 500,
        correlationId: 'wfs-1',
        billed: 'possibly',
      }),
    );
    assert.equal(p.modal, true);
    assert.match(p.message, /billed/);
    assert.deepEqual(p.actions, ['Find Workflows', 'Copy correlationId', 'Show Log']);
  });

  it('a timeout on the billed start is treated as outcome unknown; on a read it is a connection problem', () => {
    const t = new TransportError('timed out after 30000 ms', 'timeout', 'http://x');
    assert.equal(presentError('Start workflow', t, true).modal, true);
    assert.match(presentError('Start workflow', t, true).message, /billed workflow may exist/);
    assert.equal(presentError('Refresh', t).modal, false);
    assert.deepEqual(presentError('Refresh', t).actions, ['Open Settings', 'Show Log']);
  });

  it('names the status and code, and uses the typed advice, not the server text', () => {
    const p = presentError(
      'Start workflow',
      new SessionEmpty('session-empty', 'Nothing is staged in this session (409 SESSION_EMPTY). Stage a loan.', {
        status: 409,
        code: 'SESSION_EMPTY',
        serverText: 'SERVER SAYS',
        correlationId: 'c',
      }),
    );
    assert.match(
      p.message,
      /^Start workflow failed: Nothing is staged in this session \(409 SESSION_EMPTY\)/,
      'the status is named once, where the advice names it',
    );
    assert.ok(!p.message.includes('SERVER SAYS'));
    const plain = presentError(
      'Start workflow',
      new ValidationError('validation', 'Correct the request.', { status: 400, code: 'VALIDATION_ERROR' }),
    );
    assert.match(
      plain.message,
      /^Start workflow failed \(400 VALIDATION_ERROR\): Correct the request\.$/,
      'named by the prefix when the advice does not',
    );
    const forbidden = presentError(
      'Start workflow',
      new NotEntitled('Not entitled to this product.', { status: 403 }, false),
    );
    assert.deepEqual(forbidden.actions, ['Show Log']);
    const local = presentError(
      'Start workflow',
      new LocalValidationError('env', 'The environment has no baseUrl: fix it in settings.'),
    );
    assert.deepEqual(local.actions, ['Open Settings', 'Show Log']);
  });
});

describe('error messages say each thing once and name what was wrong', () => {
  const res = (status: number, contentType: string, body: string) => ({
    status,
    contentType,
    headers: { 'content-type': contentType },
    body: Buffer.from(body),
    durationMs: 1,
  });
  it('no "(500) … (500)", no "(404) … (404)", no "Sign-in to X: Sign-in …"', () => {
    const unknown = presentError(
      'Start workflow',
      new OutcomeUnknown('outcome-unknown', 'Outcome unknown (500): a workflow may have been started and billed.', {
        status: 500,
        correlationId: 'c',
      }),
    );
    assert.equal(unknown.message.match(/\(500/g)!.length, 1, unknown.message);
    const missing = classifyResponse(
      res(
        404,
        'application/problem+json',
        JSON.stringify({ type: 'https://p.example/problems/not-found', title: 'Not found', status: 404 }),
      ),
      { operation: 'start', subject: 'sess-gone' },
    );
    assert.ok(!missing.ok);
    const m = presentError('Start workflow', missing.error).message;
    assert.equal(m.match(/404/g)!.length, 1, m);
    assert.match(m, /No session "sess-gone" on this environment/, 'names the session');
    const refused = presentError(
      'Sign-in to Staging',
      new SignInRequired('credentials-refused', 'Sign-in was refused: check the username and password.'),
    );
    assert.equal(refused.message, 'Sign-in to Staging was refused: check the username and password.');
  });
});

describe('log redaction', () => {
  it('masks bearer tokens, JWTs, passwords and refresh tokens', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl';
    const line = redact(
      `Authorization: Bearer abc.def.ghi {"password":"hunter2","refresh_token":"r-123"} token=${jwt} password=p@ss`,
    );
    for (const secret of ['abc.def.ghi', 'hunter2', 'r-123', jwt, 'p@ss'])
      assert.ok(!line.includes(secret), `${secret} masked in ${line}`);
    assert.match(line, /Bearer <redacted>/);
    assert.equal(redact('start workflow sess-demo-staged → 201'), 'start workflow sess-demo-staged → 201');
  });
});

describe('error presentation for every row of the start-workflow error table', () => {
  const res = (status: number, contentType: string, body: unknown = '') => {
    const buf = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    return { status, contentType, headers: { 'content-type': contentType }, body: buf, durationMs: 1 };
  };
  const envelope = (code: string) => ({
    messages: [{ code, text: 'server words', timestamp: '2026-01-15T12:00:00Z' }],
  });
  const problem = (status: number, type: string) => ({
    type,
    title: 't',
    status,
    detail: 'server words',
    instance: 'urn:uuid:1',
  });
  const rows: [string, ReturnType<typeof res>, { modal: boolean; signIn: boolean; match: RegExp }][] = [
    [
      '400 VALIDATION_ERROR',
      res(400, 'application/json', envelope('VALIDATION_ERROR')),
      { modal: false, signIn: false, match: /\(400 VALIDATION_ERROR\)/ },
    ],
    [
      '400 problem document',
      res(400, 'application/problem+json', problem(400, 'about:blank')),
      { modal: false, signIn: false, match: /^Start workflow failed \(400/ },
    ],
    [
      '401 invalid token',
      res(401, 'application/problem+json', problem(401, 'https://x/problems/invalid-token')),
      { modal: false, signIn: true, match: /401/ },
    ],
    ['403 not entitled', res(403, 'application/json', ''), { modal: false, signIn: false, match: /403/ }],
    ['403 edge HTML', res(403, 'text/html', '<html>blocked</html>'), { modal: false, signIn: false, match: /403/ }],
    [
      '404 not found',
      res(404, 'application/problem+json', problem(404, 'https://x/problems/not-found')),
      { modal: false, signIn: false, match: /404/ },
    ],
    ['404 path not served', res(404, 'text/plain', ''), { modal: false, signIn: false, match: /404/ }],
    [
      '409 SESSION_EMPTY',
      res(409, 'application/json', envelope('SESSION_EMPTY')),
      { modal: false, signIn: false, match: /Stage a loan/ },
    ],
    [
      '409 WORKFLOW_WRITE_CONFLICT',
      res(409, 'application/json', envelope('WORKFLOW_WRITE_CONFLICT')),
      { modal: false, signIn: false, match: /409 WORKFLOW_WRITE_CONFLICT/ },
    ],
    ['429', res(429, '', ''), { modal: false, signIn: false, match: /Back off and resume/ }],
    ['500', res(500, 'text/plain', 'oops'), { modal: true, signIn: false, match: /billed/ }],
  ];
  for (const [name, response, want] of rows) {
    it(`${name}: says what happened and what to do, with the right buttons`, () => {
      const out = classifyResponse(response as never, { operation: 'start', correlationId: 'wfs-cid-1' });
      assert.equal(out.ok, false);
      if (out.ok) return;
      const p = presentError('Start workflow', out.error, true);
      assert.match(p.message, want.match);
      assert.ok(p.message.includes(out.error.advice), "the typed advice (the spec's Action column) is in the message");
      assert.ok(!p.message.includes('server words'), "never the server's own text");
      assert.equal(p.modal, want.modal);
      assert.equal(p.actions.includes('Sign In'), want.signIn);
      assert.ok(p.actions.includes('Copy correlationId'), 'the correlationId sent can be copied');
      assert.equal(p.actions.at(-1), 'Show Log');
    });
  }
});
