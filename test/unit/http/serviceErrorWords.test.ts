// The service's error advice is core's Said: English for the CLI and its JSON (unchanged), worded through the bundle
// in the extension. Every advice the classifier gives, for every operation, has no English of ours left in the
// pseudo-locale; the service's own text (a problem's detail) stays data, never a message.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyResponse, type ClassifyContext } from '../../../src/core/http/classifyResponse';
import { pathNotServedAdvice, pathNotServedSaid } from '../../../src/core/http/pathNotServed';
import type { HttpResponse } from '../../../src/core/http/request';
import { TransportError } from '../../../src/core/http/request';
import { ServiceError } from '../../../src/core/http/serviceErrors';
import { assertCredentialOrigin } from '../../../src/core/http/credentialOrigin';
import { checkOutgoingValue } from '../../../src/core/http/edgeFilter';
import { checkCorrelationId } from '../../../src/core/workflows/correlationId';
import { english, said, SaidError } from '../../../src/core/presentation/said';
import { englishLeft } from '../helpers/pseudoWording';

function res(status: number, contentType: string, body: unknown = ''): HttpResponse {
  const buf = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return { status, contentType, headers: { 'content-type': contentType }, body: buf, durationMs: 1 };
}

const PROBLEM = (type: string) => ({ type, title: 'Server words', detail: 'The server said this', status: 0 });
const ANSWERS: HttpResponse[] = [
  res(200, 'text/plain', 'not json'),
  res(200, '', 'x'),
  res(400, 'application/json', [{ code: 'VALIDATION_ERROR', text: 'bad' }]),
  res(400, 'application/problem+json', PROBLEM('https://x/problems/bad')),
  res(400, 'text/plain', 'x'),
  res(401, 'application/problem+json', PROBLEM('https://x/problems/unauthorized')),
  res(401, '', ''),
  res(403, 'text/html', '<html>'),
  res(403, '', ''),
  res(404, 'application/problem+json', PROBLEM('https://x/problems/not-found')),
  res(404, 'text/html', 'nope'),
  res(409, 'application/json', [{ code: 'SESSION_EMPTY', text: 'x' }]),
  res(409, 'application/json', [{ code: 'WORKFLOW_WRITE_CONFLICT', text: 'x' }]),
  res(409, 'application/json', [{ code: 'OTHER', text: 'x' }]),
  res(409, 'application/problem+json', PROBLEM('https://x/problems/taken')),
  res(409, 'text/plain', ''),
  res(413, '', ''),
  res(429, '', ''),
  res(500, '', ''),
  res(503, '', ''),
  res(302, '', ''),
];
const CONTEXTS: ClassifyContext[] = (
  ['start', 'read', 'reconfirm', 'sign-in', 'refresh', 'test-webhook'] as const
).flatMap((operation) => [
  { operation },
  { operation, correlationId: 'cid-1', subject: 'wf_9', url: 'https://svc.test/base/workflow-services-ws/x' },
  { operation, backoffs: 1, backoffMs: 1500, url: 'http://127.0.0.1:4020/test-webhook' },
  { operation, backoffs: 3, backoffMs: 9000, url: 'not a url' },
]);

function errorOf(r: HttpResponse, ctx: ClassifyContext): ServiceError {
  const out = classifyResponse(r, ctx);
  assert.equal(out.ok, false);
  return (out as { error: ServiceError }).error;
}

describe("l10n: the service's error advice", () => {
  it('every advice, for every operation, has no English of ours in the pseudo-locale; its English is its message', () => {
    let n = 0;
    for (const ctx of CONTEXTS)
      for (const r of ANSWERS) {
        if (r.status === 200 && r.contentType === '' && ctx.operation !== 'start') continue;
        const err = errorOf(r, ctx);
        assert.ok(err instanceof SaidError);
        assert.equal(englishLeft(err.said), '', `${r.status} ${ctx.operation}: ${err.advice}`);
        assert.equal(err.advice, english(err.said));
        assert.equal(err.message, err.advice);
        assert.equal((err.toJSON() as { message: string }).message, err.advice);
        // The server's words are for the log: never in the advice.
        assert.ok(!err.advice.includes('The server said this'), err.advice);
        n++;
      }
    assert.ok(n > 100, `${n} cases`);
  });

  it('English is unchanged where the CLI prints it', () => {
    assert.equal(
      errorOf(res(401, '', ''), { operation: 'read' }).advice,
      'Not authenticated (401: no credential was sent). Get a fresh token and retry once; if it fails again, sign in again.',
    );
    assert.equal(
      errorOf(res(429, '', ''), { operation: 'start', backoffs: 2, backoffMs: 3000 }).advice,
      'The service kept throttling requests from this address (429): backed off 2 times over 3 s and gave up. Nothing was started or billed. Try again in a minute; repeated refused sign-ins make the throttle last longer.',
    );
    assert.equal(
      errorOf(res(404, 'application/problem+json', PROBLEM('https://x/problems/not-found')), {
        operation: 'read',
        subject: 'wf_1',
      }).advice,
      'No workflow "wf_1" on this environment (404). This is final: retrying will not make it appear.',
    );
    const cli = { baseUrl: 'WFS_BASE_URL', testWebhookUrl: 'WFS_TEST_WEBHOOK_URL' };
    assert.equal(
      pathNotServedAdvice('sign-in', undefined, cli),
      "The path is not served (404 without a problem document): the address answered, but it does not serve the Workflow Service's path there. Check WFS_BASE_URL.",
    );
  });

  it('local refusals and transport failures are worded too', () => {
    const thrown = (f: () => void): SaidError => {
      try {
        f();
      } catch (err) {
        assert.ok(err instanceof SaidError, String(err));
        return err;
      }
      throw new Error('did not throw');
    };
    for (const err of [
      thrown(() => assertCredentialOrigin('http://svc.example.com', said('The service address'))),
      thrown(() => checkOutgoingValue('sessionId', '<script>')),
      thrown(() => checkCorrelationId('')),
      thrown(() => checkCorrelationId('x'.repeat(300))),
    ])
      assert.equal(englishLeft(err.said), '', err.message);
    // The rule's name and the field are values (names, not our sentences).
    assert.match(
      thrown(() => checkOutgoingValue('sessionId', '<script>')).message,
      /^sessionId looks like script tag;/,
    );
    const t = new TransportError(said('no answer from {0} within {1} ms', 'https://x', 30000), 'timeout', 'https://x');
    assert.equal(englishLeft(t.said), '');
    assert.equal(t.message, 'no answer from https://x within 30000 ms');
    // English alone from outside core's messages is a value, shown as it is.
    assert.equal(new TransportError('timed out', 'timeout', 'http://x').message, 'timed out');
    assert.equal(new ServiceError('unexpected', 'as given').advice, 'as given');
  });

  it('a base URL of any shape keeps the path advice free of our English in the pseudo-locale', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true }),
        fc.constantFrom('start', 'sign-in', 'test-webhook'),
        (u, op) => {
          const s = pathNotServedSaid(op as 'start', u);
          assert.equal(englishLeft(s), '', english(s));
        },
      ),
      { numRuns: 200, seed: 1 },
    );
  });
});
