// `wfs listen --log FILE` killed with SIGKILL in the middle of a burst of 16 concurrent senders: every delivery that
// was answered 2xx is in the file afterwards, and the restarted receiver reads it back whole.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { rawRequest } from '../unit/helpers/rawHttp';
import { startSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';

const SENDERS = 16;

describe('wfs listen --log under SIGKILL', function () {
  this.timeout(120_000);
  let s: SandboxProcess;
  before(async () => {
    s = await startSandboxProcess();
  });
  after(() => s.stop());

  async function signedDeliveries(n: number): Promise<{ id: string; body: Buffer; token: string }[]> {
    const out = [];
    for (let i = 0; i < n; i++) {
      const id = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
      const body = Buffer.from(JSON.stringify({ webhookId: id, topic: 'crash/test', data: { i, pad: 'x'.repeat(2000) } }));
      const signed = await rawRequest(`${s.info.baseUrl}/sandbox/sign`, { json: { bodyBase64: body.toString('base64') } });
      out.push({ id, body, token: signed.json().token as string });
    }
    return out;
  }

  for (const round of [1, 2, 3]) {
    it(`round ${round}: every delivery answered 2xx before the kill is in the file; the restart reads it back`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'wfs-crash-')), 'deliveries.jsonl');
      const deliveries = await signedDeliveries(600);
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
            const res = await request(ready.url, { method: 'POST', body: d.body, headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` } });
            await res.body.dump();
            if (res.statusCode >= 200 && res.statusCode < 300) acknowledged.push(d.id);
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

      const inFile = new Set<string>();
      const recordIds = new Set<string>();
      let unreadable = 0;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line) continue;
        try {
          const record = JSON.parse(line);
          inFile.add(record.webhookId);
          recordIds.add(record.id);
        } catch {
          unreadable++;
        }
      }
      const missing = acknowledged.filter((id) => !inFile.has(id));
      assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged deliveries are missing`);
      assert.ok(unreadable <= 1, `at most the last line torn (${unreadable})`);

      const again = new WfsProcess(['listen', '--no-tunnel', '--trust-sandbox', s.info.baseUrl, '--log', file]);
      const history = await again.event('history');
      assert.ok(history.loaded >= acknowledged.length, `${history.loaded} loaded, ${acknowledged.length} acknowledged`);
      assert.equal(history.skipped, unreadable);
      // A record made after the restart never takes the id of one kept from before it.
      const fresh = deliveries[deliveries.length - 1]!;
      const res = await request((await again.event('ready')).url, { method: 'POST', body: fresh.body, headers: { 'content-type': 'application/json', authorization: `Bearer ${fresh.token}` } });
      await res.body.dump();
      const record = await again.event('delivery');
      assert.equal(typeof record.id, 'string');
      assert.ok(!recordIds.has(record.id as string), `the id ${record.id} was already in the history`);
      again.kill('SIGTERM');
      assert.equal(await again.exitCode(), 0);
    });
  }
});
