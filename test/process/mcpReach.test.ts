// Issue #74, as an attacker met `wfs mcp`: a password in WFS_BASE_URL (hole 4), a billed-start question written by
// the model (hole 5), the audit sent wherever the model chose (hole 9), and a web page flooding the log (hole 10).
import assert from 'node:assert/strict';
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
