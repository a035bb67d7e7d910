// A test webhook's outcome is read from the test endpoint's answer once, in core, for the CLI and the editor alike
// (issue #75): what the receiver answered, named with its cause, and whether the delivery failed.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { testWebhookOutcome } from '../../../src/core/webhooks/testWebhookOutcome';

describe('testWebhookOutcome', () => {
  const examples: [unknown, string, boolean, RegExp][] = [
    [{ receiverStatus: 200 }, 'delivered', false, /^delivered: your receiver answered 200$/],
    [{ receiverStatus: 204, retryScheduled: false }, 'delivered', false, /answered 204/],
    [
      { receiverStatus: 403, retryScheduled: false },
      'refused',
      true,
      /^your receiver refused it: it answered 403, so it did not take the delivery as verified$/,
    ],
    [{ receiverStatus: 401 }, 'refused', true, /^your receiver refused it: it answered 401/],
    [{ receiverStatus: 413 }, 'too-large', true, /^your receiver refused it: it answered 413, the body being over/],
    [{ receiverStatus: 404 }, 'no-webhooks-here', true, /^nothing at the address takes webhooks: it answered 404$/],
    [{ receiverStatus: 421 }, 'wrong-host', true, /answered 421/],
    [{ receiverStatus: 502, retryScheduled: true }, 'app-not-answering', true, /502.*; the service will try again$/],
    [{ receiverStatus: 504 }, 'app-not-answering', true, /did not answer in time$/],
    [
      { receiverStatus: 503, retryScheduled: true },
      'unavailable',
      true,
      /^your receiver answered 503: it cannot take deliveries now; the service will try again$/,
    ],
    [{ receiverStatus: 418 }, 'answered-error', true, /^your receiver answered 418, so the delivery failed$/],
    [
      { error: 'cannot reach http://127.0.0.1:9/webhooks: ECONNREFUSED', retryScheduled: true },
      'not-reached',
      true,
      /^not delivered: the service could not reach the address: cannot reach .*ECONNREFUSED; the service will try again$/,
    ],
    // The real service's answer is not documented: one that names neither says nothing of the delivery.
    [{}, 'not-reported', false, /^the service took it/],
    [null, 'not-reported', false, /^the service took it/],
    ['accepted', 'not-reported', false, /^the service took it/],
  ];
  for (const [response, cause, failed, words] of examples)
    it(`${JSON.stringify(response)}: ${cause}`, () => {
      const o = testWebhookOutcome(response, { a: 1 });
      assert.deepEqual([o.cause, o.failed], [cause, failed]);
      assert.match(o.summary, words);
    });

  it("keeps the testData size as delivered (the CLI names it beside the receiver's limit)", () => {
    assert.equal(testWebhookOutcome({ receiverStatus: 413 }, { pad: 'xx' }).bodyBytes, '{"pad":"xx"}'.length);
    assert.equal(testWebhookOutcome({ receiverStatus: 413 }, undefined).bodyBytes, 'null'.length);
  });

  it('any answer with a status: failed exactly outside 2xx, and the status is named in the words', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        fc.boolean(),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        (status, retryScheduled, error) => {
          const o = testWebhookOutcome({ receiverStatus: status, retryScheduled, error }, undefined);
          const ok = status >= 200 && status <= 299 && !error;
          assert.equal(o.failed, !ok);
          assert.equal(o.receiverStatus, status);
          assert.ok(o.summary.includes(String(status)), o.summary);
          assert.equal(o.summary.endsWith('; the service will try again'), retryScheduled && o.failed);
        },
      ),
      { numRuns: 300, seed: 75 },
    );
  });

  it('any JSON answer at all: an outcome, never a throw; failed only when it names an error or a status outside 2xx', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (response) => {
        const o = testWebhookOutcome(response, response);
        const r = (response && typeof response === 'object' ? response : {}) as Record<string, unknown>;
        const status = typeof r.receiverStatus === 'number' ? r.receiverStatus : undefined;
        const error = typeof r.error === 'string' && r.error !== '';
        assert.equal(o.failed, error || (status !== undefined && (status < 200 || status > 299)));
        assert.ok(o.summary.length > 0);
      }),
      { numRuns: 200, seed: 1 },
    );
  });
});
