// Core's words that VS Code showed in English (a reviewer's list): each is now a Said, worded through the bundle in
// the extension's language (here its pseudo-locale: no English of ours is left once the data is taken out), while
// the English the CLI prints stays as it was.
import assert from 'node:assert/strict';
import { english } from '../../../src/core/presentation/said';
import { testWebhookOutcome } from '../../../src/core/webhooks/testWebhookOutcome';
import { pseudoWords } from './saidLeft';

const { leftEnglish } = pseudoWords();

describe("l10n: the reviewer's list of core English shown in VS Code", () => {
  it("a test webhook's outcome: every summary is worded, its English unchanged", () => {
    const answers: unknown[] = [
      { receiverStatus: 200 },
      {},
      { error: 'ECONNREFUSED', retryScheduled: true },
      { error: 'ECONNREFUSED' },
      ...[401, 403, 413, 404, 405, 421, 502, 504, 503, 418].flatMap((receiverStatus) => [
        { receiverStatus },
        { receiverStatus, retryScheduled: true },
      ]),
    ];
    const left = answers.flatMap((a) => {
      const o = testWebhookOutcome(a, {});
      assert.equal(o.summary, english(o.summarySaid));
      return leftEnglish(JSON.stringify(a), o.summarySaid);
    });
    assert.deepEqual(left, []);
    assert.equal(
      testWebhookOutcome({ receiverStatus: 504, retryScheduled: true }, {}).summary,
      'your receiver answered 504: it (or a proxy) took the delivery, but what is behind it did not answer in time; the service will try again',
    );
    assert.equal(
      testWebhookOutcome({ error: 'ECONNREFUSED' }, {}).summary,
      'not delivered: the service could not reach the address: ECONNREFUSED',
    );
  });
});
