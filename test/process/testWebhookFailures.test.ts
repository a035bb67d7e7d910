// `wfs test-webhook` when the receiver answered, but not 2xx (issue 69, point 5): the message follows what the address
// did. A 413 is the receiver's size limit (named, with the flag that raises it), a 502 from `listen --pass-through` is
// the app behind it; only no answer at all is "check that your receiver is running". The cause and its words are
// core's (core/webhooks/testWebhookOutcome.ts), the ones the editor's Send Test Webhook shows too (issue #75).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { testWebhookArgs } from './helpers/commandArgs';
import { RecordingServer } from '../unit/helpers/recordingServer';
import { onTerminal } from './helpers/terminal';

describe('wfs test-webhook: a failed delivery said by what the receiver answered', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();

  it('2 MiB of --data to `wfs listen` (1 MiB limit): 413, the limit named, and --max-body to raise it', async () => {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const data = join(mkdtempSync(join(tmpdir(), 'wfs-413-')), 'big.json');
    writeFileSync(data, JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }));
    const p = new WfsProcess([...testWebhookArgs(url), '--data', data], s.env);
    assert.equal(await p.exitCode(), 7, p.stdout + p.stderr);
    const err = p.lines.at(-1)!;
    assert.deepEqual([err.kind, err.receiverStatus], ['delivery-failed', 413]);
    assert.match(err.message, /^your receiver refused it: it answered 413, the body being over its size limit/);
    assert.equal(err.cause, 'too-large');
    assert.match(err.message, /The receiver refused the body of 2\.00 MiB \(2,097,162 bytes\) as over its size limit/);
    assert.match(err.message, /`wfs listen` takes 1 MiB \(1,048,576 bytes\) unless started with --max-body BYTES/);
    assert.match(err.message, /restart it with --max-body 3145728/);
    assert.doesNotMatch(err.message, /is running/);
    await listen.stopCleanly();
  });

  it('`listen --pass-through` whose app is down answers 502: the app behind the receiver did not answer', async () => {
    const listen = new WfsProcess([
      'listen',
      '--trust-sandbox',
      s.info.baseUrl,
      '--forward-to',
      'http://127.0.0.1:9/app',
      '--pass-through',
    ]);
    const { url } = await listen.event('ready');
    const p = new WfsProcess(testWebhookArgs(url), s.env);
    assert.equal(await p.exitCode(), 7, p.stdout + p.stderr);
    const err = p.lines.at(-1)!;
    assert.equal(err.receiverStatus, 502);
    assert.match(err.message, /The receiver took the delivery, but the app behind it did not answer/);
    assert.match(err.message, /check that the app is running at the --forward-to \(or --forward\) address/);
    assert.doesNotMatch(err.message, /Check that your receiver is running/);
    await listen.stopCleanly();
  });

  it('a receiver that answers 403: "your receiver refused it", the 403 named on the sent line and the error line, exit 7', async () => {
    const app = new RecordingServer();
    app.respond = () => 403;
    const url = `${await app.start()}/webhooks`;
    try {
      const p = new WfsProcess(testWebhookArgs(url), s.env);
      assert.equal(await p.exitCode(), 7, p.stdout + p.stderr);
      assert.equal(app.requests.length, 1, 'the sandbox delivered it once (a 403 is not retried)');
      const sent = p.events('sent')[0]!;
      assert.deepEqual(
        [sent.outcome.cause, sent.outcome.failed, sent.outcome.receiverStatus, sent.outcome.retryScheduled],
        ['refused', true, 403, false],
      );
      const err = p.lines.at(-1)!;
      assert.deepEqual([err.kind, err.cause, err.receiverStatus], ['delivery-failed', 'refused', 403]);
      assert.match(
        err.message,
        /^your receiver refused it: it answered 403, so it did not take the delivery as verified\. /,
      );
      assert.match(err.message, /Make it trust this service's issuer and key set/);
      const human = onTerminal(testWebhookArgs(url), { ...s.env, NO_COLOR: '1' });
      assert.equal(await human.exited, 7);
      assert.match(human.out(), /^✗ Test webhook [\w-]+ sent to .*: your receiver refused it: it answered 403/m);
    } finally {
      await app.stop();
    }
  });
});
