// `wfs listen --log FILE` killed with SIGKILL in the middle of a burst of 16 concurrent senders: every delivery that
// was answered 2xx is in the file afterwards, and the restarted receiver reads it back whole.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordsIn, sendDelivery, signedDeliveries } from './helpers/deliveries';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const SENDERS = 16;

describe('wfs listen --log under SIGKILL', function () {
  this.timeout(120_000);
  const s = withSandboxProcess();

  for (const round of [1, 2, 3]) {
    it(`round ${round}: every delivery answered 2xx before the kill is in the file; the restart reads it back`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'wfs-crash-')), 'deliveries.jsonl');
      const deliveries = await signedDeliveries(s.info.baseUrl, 600, { topic: 'crash/test', pad: 2000 });
      const listen = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl, '--log', file]);
      const ready = await listen.event('ready');
      const acknowledged: string[] = [];
      let next = 0;
      let killed = false;
      const killAfter = 60 + round * 40;
      const sender = async () => {
        while (next < deliveries.length && !killed) {
          const d = deliveries[next++];
          try {
            const status = await sendDelivery(ready.url, d);
            if (status >= 200 && status < 300) acknowledged.push(d.id);
          } catch {
            // the kill cut this one off: it was never acknowledged
          }
          if (!killed && acknowledged.length >= killAfter) {
            killed = true;
            listen.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: SENDERS }, sender));
      const exit = await listen.exited;
      assert.equal(exit.signal, 'SIGKILL');

      const { records, unreadable } = recordsIn(file);
      const inFile = new Set(records.map((r) => r.webhookId));
      const recordIds = new Set(records.map((r) => r.id));
      const missing = acknowledged.filter((id) => !inFile.has(id));
      assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged deliveries are missing`);
      assert.ok(unreadable <= 1, `at most the last line torn (${unreadable})`);

      const again = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl, '--log', file]);
      const history = await again.event('history');
      assert.ok(history.loaded >= acknowledged.length, `${history.loaded} loaded, ${acknowledged.length} acknowledged`);
      assert.equal(history.skipped, unreadable);
      // A record made after the restart never takes the id of one kept from before it.
      const fresh = deliveries[deliveries.length - 1]!;
      await sendDelivery((await again.event('ready')).url, fresh);
      const record = await again.event('delivery');
      assert.equal(typeof record.id, 'string');
      assert.ok(!recordIds.has(record.id as string), `the id ${record.id} was already in the history`);
      await again.stopCleanly();
    });
  }
});
