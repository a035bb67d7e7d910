// Issue #74, as an attacker met `wfs mcp`: a password in WFS_BASE_URL (hole 4), a billed-start question written by
// the model (hole 5), the audit sent wherever the model chose (hole 9), and a web page flooding the log (hole 10).
import assert from 'node:assert/strict';
import { rawRequest } from '../unit/helpers/rawHttp';
import { WfsProcess, type Line } from './helpers/wfsProcess';

const PASSWORD = 'TopSecretPw99';

describe('wfs mcp: a user name or password inside WFS_BASE_URL (issue #74, hole 4)', function () {
  this.timeout(60_000);
  for (const [face, args] of [
    ['stdio', []],
    ['--http', ['--http', '0']],
  ] as const)
    it(`${face}: refused at start with exit 2, naming where credentials go; the password is printed nowhere`, async () => {
      const p = new WfsProcess(['mcp', ...args], {
        WFS_BASE_URL: `https://alice:${PASSWORD}@127.0.0.1:4010`,
        WFS_USERNAME: 'alice',
        WFS_PASSWORD: 'other',
      });
      assert.equal(await p.exitCode(), 2, p.stderr);
      const all = p.stdout + p.stderr;
      assert.ok(!all.includes(PASSWORD), all);
      assert.ok(!all.includes('alice:'), all);
      assert.ok(!p.lines.some((l: Line) => l.event === 'ready'), 'it never became ready');
      const said = face === 'stdio' ? (JSON.parse(p.stderr.trim().split('\n').at(-1)!) as Line) : p.lines.at(-1)!;
      assert.equal(said.kind, 'usage');
      assert.match(said.message, /^WFS_BASE_URL holds a user name or password \(https:\/\/…@127\.0\.0\.1:4010\/\)/);
      assert.match(said.message, /WFS_USERNAME and WFS_PASSWORD/);
    });
});

describe('wfs mcp --http: a web page floods the door (issue #74, hole 10)', function () {
  this.timeout(60_000);

  it('200 refused requests: the first is logged at once, the rest counted into one line, not 200 lines', async () => {
    const p = new WfsProcess(['mcp', '--http', '0']);
    const ready = await p.event('ready');
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    for (let i = 0; i < 200; i++) {
      const r = await rawRequest(ready.url, {
        method: 'POST',
        headers:
          i % 2 === 0
            ? { ...headers, authorization: 'Bearer wrong-token' }
            : { ...headers, authorization: `Bearer ${ready.token}`, host: `rebound-${i}.evil.example` },
        json: init,
      });
      assert.equal(r.status, i % 2 === 0 ? 401 : 403);
    }
    const first = await p.line((l) => l.event === 'refused', 'a refusal line');
    assert.deepEqual([first.status, first.count], [401, 1]);
    await p.stopCleanly();
    const refusedLines = (p.stdout + p.stderr).split('\n').filter((l) => /refused/.test(l));
    assert.ok(refusedLines.length <= 3, `at most a couple of lines:\n${refusedLines.join('\n')}`);
    const counted = p.events('refused').reduce((n, l) => n + (l.count as number), 0);
    assert.equal(counted, 200, 'every refused request is counted');
    assert.ok(
      p.events('refused').some((l) => (l.count as number) > 1),
      'the rest are counted, not each written',
    );
  });
});
