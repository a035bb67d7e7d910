// One request size limit, 64 MiB: the sandbox reads no more and its 413 names the limit; `wfs test-webhook` refuses
// testData that would make a larger request before anything is sent (exit 2), naming the same limit.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxRequests, startSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';

const LIMIT = 64 * 1024 * 1024;

describe('the request size limit: one number, 64 MiB', function () {
  this.timeout(60_000);
  let s: SandboxProcess;
  before(async () => {
    s = await startSandboxProcess();
  });
  after(async () => {
    await s?.stop();
  });

  it('the sandbox answers a request one byte over 64 MiB with 413 naming the limit; one of 64 MiB is read', async () => {
    const send = (bytes: number) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          `${s.info.baseUrl}/user-management-services-ws/oauth2/002/signInWithPassword`,
          { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': bytes } },
          (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString('utf8')));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let left = bytes;
        const pump = () => {
          while (left > 0) {
            const n = Math.min(left, chunk.length);
            left -= n;
            if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
    const over = await send(LIMIT + 1);
    assert.equal(over.status, 413);
    assert.match(
      JSON.parse(over.body).detail,
      /^The sandbox reads requests of at most 64 MiB \(67,108,864 bytes\); this one was larger/,
    );
    const at = await send(LIMIT);
    assert.notEqual(at.status, 413, 'exactly the limit is read (and refused for what it is: not JSON)');
  });

  it('wfs test-webhook: testData whose request would pass 64 MiB is refused before sending, naming the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-size-'));
    const file = join(dir, 'big.json');
    writeFileSync(file, JSON.stringify('x'.repeat(LIMIT - 20)));
    // The two requests of the test above are printed asynchronously: wait for their lines first.
    const before = (await sandboxRequests(s, 2)).length;
    const p = new WfsProcess(
      [
        'test-webhook',
        '--address',
        'http://127.0.0.1:9/webhooks',
        '--topic',
        't',
        '--sub-topic',
        's:t',
        '--tenant-id',
        't1',
        '--data',
        file,
      ],
      s.env,
    );
    assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
    assert.match(
      p.lines[0]!.message,
      /^--data: the request would be 64\.00 MiB \(67,108,\d{3} bytes\), over the limit of 64 MiB \(67,108,864 bytes\); nothing was sent$/,
    );
    assert.equal(s.requests().length, before, 'not even a sign-in');
  });
});
