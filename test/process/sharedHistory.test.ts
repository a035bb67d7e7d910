// Two receivers given the same history file (two VS Code windows share the global storage; two `wfs listen --log`
// with one path): the second must not append to, compact or clear the first one's file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordsIn, sendDelivery, signedDeliveries } from './helpers/deliveries';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

describe('wfs listen --log on a file another receiver holds', function () {
  this.timeout(60_000);
  const s = withSandboxProcess();

  it('the second exits 2 naming the first; after the first is killed (-9), the next takes the file over whole', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-shared-')), 'deliveries.jsonl');
    const args = ['listen', '--trust-sandbox', s.info.baseUrl, '--log', file];
    const [d1, d2] = await signedDeliveries(s.info.baseUrl, 2, { topic: 'shared/test', pad: 10 });
    const first = new WfsProcess(args);
    assert.equal(await sendDelivery((await first.event('ready')).url, d1!), 200);

    const second = new WfsProcess(args);
    // Its first word: an error, never a ready line (then it would be listening on the first one's file).
    const error = await second.line((l) => l.event === 'error' || l.event === 'ready', 'an error or a ready line');
    assert.equal(error.event, 'error', JSON.stringify(error));
    assert.equal(await second.exitCode(), 2);
    assert.equal(error.kind, 'usage');
    assert.equal(
      error.message,
      `--log ${file}: in use by wfs listen (pid ${first.child.pid}), which keeps this history: stop it, or give another file (if no such process runs, delete ${file}.lock)`,
    );
    assert.equal(second.events('ready').length, 0, 'it never listened');

    // The first one goes on writing its file.
    assert.equal(await sendDelivery((await first.event('ready')).url, d2!), 200);
    assert.deepEqual(
      recordsIn(file).records.map((r) => r.webhookId),
      [d1!.id, d2!.id],
    );

    first.kill('SIGKILL');
    await first.exited;
    assert.ok(existsSync(`${file}.lock`), 'a kill -9 leaves its lock behind');
    const third = new WfsProcess(args);
    const history = await third.event('history');
    assert.deepEqual([history.loaded, history.skipped], [2, 0]);
    await third.event('ready');
    await third.stopCleanly();
    assert.equal(existsSync(`${file}.lock`), false, 'a clean stop gives the lock up');
  });

  it('a closed terminal (SIGHUP) stops it as SIGTERM does: exit 0, the history flushed, the lock given up', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-hup-')), 'deliveries.jsonl');
    const [d] = await signedDeliveries(s.info.baseUrl, 1, { topic: 'hup/test', pad: 10 });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--log', file]);
    assert.equal(await sendDelivery((await listen.event('ready')).url, d!), 200);
    listen.kill('SIGHUP');
    assert.deepEqual(await listen.exited, { code: 0, signal: null });
    assert.equal(listen.lines.at(-1)!.event, 'stopped');
    assert.equal(existsSync(`${file}.lock`), false);
    assert.deepEqual(
      recordsIn(file).records.map((r) => r.webhookId),
      [d!.id],
    );
  });
});
