// What a replay's answer means (#79, item 2): whether an app already acknowledged the webhookId (so a replay under
// it may be skipped as a duplicate), and the start of an app's answer as text, without the token it was sent.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { answerExcerpt, appAcknowledged } from '../../../src/core/webhooks/replayAnswer';
import { forwardedRecord } from '../helpers/forwardedRecord';

const record = forwardedRecord;

describe('appAcknowledged', () => {
  it('true only when an app answered 2xx for a delivery of that webhookId', () => {
    const history = [record('w-1', [500]), record('w-2', [undefined, 204]), record(undefined, [200])];
    assert.equal(appAcknowledged(history, 'w-1'), false, 'a 5xx is resent, not acknowledged');
    assert.equal(appAcknowledged(history, 'w-2'), true, 'one of two targets answered 204');
    assert.equal(appAcknowledged(history, 'w-3'), false, 'never seen');
    assert.equal(appAcknowledged([...history, record('w-1', [200])], 'w-1'), true, 'a later delivery of it, 200');
    assert.equal(appAcknowledged([record('w-4', [202], true)], 'w-4'), true, "an older line's single forward");
    assert.equal(appAcknowledged([record('w-5', [])], 'w-5'), false, 'not forwarded: no app answered');
  });

  it('matches the statuses one by one: acknowledged exactly when some status is 200 to 299', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }), { maxLength: 5 }), (s) =>
        assert.equal(
          appAcknowledged([record('w', s)], 'w'),
          s.some((x) => x !== undefined && x >= 200 && x < 300),
        ),
      ),
      { numRuns: 200, seed: 1 },
    );
  });
});

describe('answerExcerpt', () => {
  const token = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl';
  it('the answer as text, trimmed; nothing for an empty or blank body', () => {
    assert.equal(
      answerExcerpt(Buffer.from(' {"ok":true,"duplicate":true}\n'), [token]),
      '{"ok":true,"duplicate":true}',
    );
    assert.equal(answerExcerpt(Buffer.alloc(0), [token]), undefined);
    assert.equal(answerExcerpt(Buffer.from(' \n'), [token]), undefined);
  });
  it('a token the app echoes is taken out; a binary body is not said', () => {
    assert.equal(
      answerExcerpt(Buffer.from(`you sent Bearer ${token}`), [token, `Bearer ${token}`]),
      'you sent <redacted>',
    );
    assert.equal(answerExcerpt(Buffer.from([0xff, 0xfe, 0x00, 0x80]), [token]), undefined);
  });
  it('a long answer is cut at 300 characters, marked', () => {
    const said = answerExcerpt(Buffer.from('x'.repeat(1000)), [])!;
    assert.equal(said, `${'x'.repeat(300)}…`);
  });
});
