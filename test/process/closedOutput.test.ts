// `wfs` with a reader that goes away, as in a script: `wfs listen | head -n 2`. The next line then fails with
// EPIPE; it must not crash the process with a stack trace, lose a delivery, or leave a listener running.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordsIn } from './helpers/deliveries';
import { CLI, withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { testWebhookArgs } from './helpers/commandArgs';

/** `wfs ARGS | head -n N` in bash; the pipeline prints wfs's own exit status on stderr as "wfs=CODE". */
function piped(args: string[], lines: number, env: Record<string, string> = {}): WfsProcess {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script = `${[process.execPath, CLI, ...args].map(quote).join(' ')} | head -n ${lines}; echo "wfs=\${PIPESTATUS[0]}" >&2`;
  return new WfsProcess(['-c', script], env, { bin: 'bash' });
}

describe('wfs with its output closed by the reader (EPIPE)', function () {
  this.timeout(60_000);
  const s = withSandboxProcess([], { perTest: true });

  it('wfs listen | head -n 2: the delivery after the reader left is kept, and listen stops with exit 0', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'wfs-epipe-')), 'deliveries.jsonl');
    const pipeline = piped(['listen', '--trust-sandbox', s.info.baseUrl, '--log', log], 2);
    const ready = await pipeline.event('ready');
    const send = new WfsProcess(testWebhookArgs(ready.url), s.env);
    assert.equal(await send.exitCode(), 0, send.stdout + send.stderr);
    const sent = await send.event('sent');
    assert.equal((sent.response as { receiverStatus: number }).receiverStatus, 200);
    // Its delivery line is the first write with no reader: listen must stop on it, not crash or run on.
    assert.equal(await pipeline.exitCode(), 0);
    assert.equal(pipeline.stderr, 'wfs=0\n');
    assert.deepEqual(
      recordsIn(log).records.map((r) => r.webhookId),
      [sent.webhookId],
    );
  });

  it('wfs audit | head -n 1: the audit runs to its end unheard and exits with its own code', async () => {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const ready = await listen.event('ready');
    const pipeline = piped(['audit', '--target', ready.url, '--sandbox-url', s.info.baseUrl], 1);
    assert.equal(await pipeline.exitCode(), 0);
    assert.equal(pipeline.stderr, 'wfs=0\n');
    assert.equal(pipeline.events('case').length, 1);
    // It did not stop at the first case: the receiver saw the whole audit.
    await listen.line(() => listen.events('delivery').length >= 20, "the audit's deliveries");
  });
});
