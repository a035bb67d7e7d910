// One case per row of the spec's Start-workflow error table (Errors), plus the body-kind rules.
import assert from 'node:assert/strict';
import { classifyResponse } from '../../../src/core/http/classifyResponse';
import { classifyBody } from '../../../src/core/http/bodyKind';
import type { HttpResponse } from '../../../src/core/http/request';
import {
  Conflict,
  MalformedRequest,
  NotEntitled,
  NotFound,
  OutcomeUnknown,
  PathNotServed,
  RateLimited,
  type ServiceError,
  SessionEmpty,
  Unauthorized,
  ValidationError,
  WriteConflict,
} from '../../../src/core/http/serviceErrors';

const PB = 'https://api.example.test/problems';

function res(
  status: number,
  contentType: string,
  body: unknown = '',
  headers: Record<string, string> = {},
): HttpResponse {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return { status, contentType, headers: { 'content-type': contentType, ...headers }, body: buf, durationMs: 1 };
}

function startError(r: HttpResponse): ServiceError {
  const out = classifyResponse(r, { operation: 'start', correlationId: 'cid-123' });
  assert.equal(out.ok, false, 'expected an error outcome');
  if (out.ok) throw new Error('unreachable');
  assert.equal(out.error.correlationId, 'cid-123', 'every error carries the correlationId sent');
  assert.equal(out.error.status, r.status);
  return out.error;
}

const msg = (code: string) => ({ messages: [{ code, text: 'whatever', timestamp: '2026-01-15T12:00:00Z' }] });
const problem = (status: number, type: string) => ({ type, title: 't', status, detail: 'd', instance: 'urn:uuid:1' });

describe('classifyResponse: start workflow error table', () => {
  it('202 ACCEPTED is success and returns the parsed body', () => {
    const out = classifyResponse(
      res(202, 'application/json', { workflow: { workflowId: 'wf_1' }, ...msg('ACCEPTED') }),
      { operation: 'start' },
    );
    assert.ok(out.ok);
    assert.equal((out.json as any).workflow.workflowId, 'wf_1');
  });
  it('400 messages envelope VALIDATION_ERROR → ValidationError, not billed', () => {
    const e = startError(res(400, 'application/json', msg('VALIDATION_ERROR')));
    assert.ok(e instanceof ValidationError);
    assert.equal(e.code, 'VALIDATION_ERROR');
    assert.equal(e.billed, 'no');
    assert.match(e.advice, /same 400/);
  });
  it('400 problem document (no messages key) → MalformedRequest with problem type and instance', () => {
    const e = startError(res(400, 'application/problem+json', problem(400, `${PB}/malformed-request`)));
    assert.ok(e instanceof MalformedRequest);
    assert.equal(e.problemType, `${PB}/malformed-request`);
    assert.equal(e.instance, 'urn:uuid:1');
  });
  it('401 about:blank (no credential sent) → Unauthorized, not a rejected token', () => {
    const e = startError(
      res(401, 'application/problem+json', problem(401, 'about:blank'), { 'www-authenticate': 'Bearer realm="x"' }),
    );
    assert.ok(e instanceof Unauthorized);
    assert.equal((e as Unauthorized).tokenRejected, false);
    assert.equal((e as Unauthorized).wwwAuthenticate, 'Bearer realm="x"');
  });
  it('401 invalid-token type → Unauthorized with tokenRejected', () => {
    const e = startError(
      res(401, 'application/problem+json', problem(401, `${PB}/invalid-token`), {
        'www-authenticate': 'Bearer realm="x", error="invalid_token"',
      }),
    );
    assert.ok(e instanceof Unauthorized);
    assert.equal((e as Unauthorized).tokenRejected, true);
    assert.equal(e.problemType, `${PB}/invalid-token`);
  });
  it('403 opaque body → NotEntitled, decided on status only (a JSON-looking body is not read)', () => {
    const e = startError(res(403, 'application/json', msg('VALIDATION_ERROR')));
    assert.ok(e instanceof NotEntitled);
    assert.equal(e.code, undefined, 'the 403 body is never parsed');
    assert.match(e.advice, /account representative/);
  });
  it('403 empty body → NotEntitled', () => {
    assert.ok(startError(res(403, '', '')) instanceof NotEntitled);
  });
  it('403 HTML from the edge → NotEntitled flagged htmlBody, advice names Content-Type and Base64', () => {
    const e = startError(res(403, 'text/html', '<html><body>Forbidden</body></html>'));
    assert.ok(e instanceof NotEntitled);
    assert.equal((e as NotEntitled).htmlBody, true);
    assert.match(e.advice, /Content-Type/);
    assert.match(e.advice, /Base64/);
  });
  it('404 problem document with type …/problems/not-found → NotFound, final', () => {
    const e = startError(res(404, 'application/problem+json', problem(404, `${PB}/not-found`)));
    assert.ok(e instanceof NotFound);
    assert.match(e.advice, /final/i);
  });
  it('404 with no body (infrastructure) → PathNotServed naming the setting to check', () => {
    const e = startError(res(404, '', ''));
    assert.ok(e instanceof PathNotServed);
    assert.match(e.advice, /path is not served.*Check the environment's base URL/);
  });
  it('404 HTML from infrastructure is not parsed → PathNotServed', () => {
    assert.ok(startError(res(404, 'text/html', '<h1>Not Found</h1>')) instanceof PathNotServed);
  });
  it('409 SESSION_EMPTY → SessionEmpty, not billed, advice says stage a loan', () => {
    const e = startError(res(409, 'application/json', msg('SESSION_EMPTY')));
    assert.ok(e instanceof SessionEmpty);
    assert.equal(e.billed, 'no');
    assert.match(e.advice, /[Ss]tage a loan/);
  });
  it('409 WORKFLOW_WRITE_CONFLICT → WriteConflict, billing unspecified', () => {
    const e = startError(res(409, 'application/json', msg('WORKFLOW_WRITE_CONFLICT')));
    assert.ok(e instanceof WriteConflict);
    assert.equal(e.billed, 'unspecified');
  });
  it('409 problem document without messages → Conflict named by the last path segment of type', () => {
    const e = startError(res(409, 'application/problem+json', problem(409, `${PB}/session-locked`)));
    assert.ok(e instanceof Conflict);
    assert.equal(e.code, 'session-locked');
  });
  it('429 no body → RateLimited', () => {
    const e = startError(res(429, '', ''));
    assert.ok(e instanceof RateLimited);
    assert.match(e.advice, /[Bb]ack off/);
  });
  it('413 from the edge → refused as too large, nothing processed; the test webhook is told to send smaller testData', () => {
    const e = startError(res(413, '', ''));
    assert.equal(e.kind, 'unexpected');
    assert.match(
      e.advice,
      /^The service refused the request as too large \(413 Payload Too Large\); nothing was processed\. Send a smaller request\.$/,
    );
    const out = classifyResponse(res(413, 'text/html', '<h1>413</h1>'), { operation: 'test-webhook' });
    assert.ok(!out.ok);
    assert.match(out.error.advice, /too large \(413.*Send smaller testData\.$/);
  });
  it('500 → OutcomeUnknown: possibly billed, advice names Find Workflows and the correlationId', () => {
    const e = startError(res(500, 'text/html', '<h1>oops</h1>'));
    assert.ok(e instanceof OutcomeUnknown);
    assert.equal(e.billed, 'possibly');
    assert.match(e.advice, /Find Workflows/);
    assert.match(e.advice, /cid-123/);
  });
  it('500 with a JSON messages-looking body is still OutcomeUnknown (not the envelope)', () => {
    const e = startError(res(500, 'application/json', msg('SESSION_EMPTY')));
    assert.ok(e instanceof OutcomeUnknown);
  });
});

describe('classifyBody', () => {
  it('never parses a body whose content type is not JSON', () => {
    const b = classifyBody({ contentType: 'text/plain', body: Buffer.from('{"messages":[{"code":"X"}]}') });
    assert.equal(b.kind, 'none');
  });
  it('malformed JSON is "no usable JSON", not an exception', () => {
    assert.equal(classifyBody({ contentType: 'application/json', body: Buffer.from('{"messages":') }).kind, 'none');
  });
  it('messages must be an array of coded messages before messages[0].code is read', () => {
    assert.equal(
      classifyBody({ contentType: 'application/json', body: Buffer.from('{"messages":null}') }).kind,
      'json',
    );
    assert.equal(
      classifyBody({ contentType: 'application/json', body: Buffer.from('{"messages":[]}') }).kind,
      'messages',
    );
    assert.equal(
      classifyBody({ contentType: 'application/json', body: Buffer.from('{"messages":[{"text":"no code"}]}') }).kind,
      'json',
    );
  });
  it('a problem document is recognised by application/problem+json', () => {
    const b = classifyBody({
      contentType: 'application/problem+json',
      body: Buffer.from(JSON.stringify(problem(400, 'about:blank'))),
    });
    assert.equal(b.kind, 'problem');
  });
});
