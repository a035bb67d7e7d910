// Issue 67, point 2, where it was found: `printf '@secret.txt' | wfs sign --body - --keys DIR --format curl --to URL`,
// then the printed command run with bash, in a folder holding secret.txt. curl must get the body's own bytes on its
// standard input, never the file of that name: a `curl` stand-in first on PATH records what it would receive, and
// where the real curl is installed the command also runs against a recording loopback server.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { CurlStandIn, realCurl, runBash } from '../unit/helpers/curlStandIn';
import { RecordingServer } from '../unit/helpers/recordingServer';
import { CLI, WfsProcess } from './helpers/wfsProcess';

const BODIES = ['@secret.txt', '<secret.txt', '@/dev/zero'];

describe('wfs sign --format curl: the printed command sends the body, never a file it names', () => {
  const standIn = new CurlStandIn();
  const server = new RecordingServer();
  let dir: string;
  let keys: string;
  let url: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wfs-sign-curl-'));
    writeFileSync(join(dir, 'secret.txt'), 'TOP-SECRET');
    keys = join(dir, 'keys');
    const g = new WfsProcess(['keys', 'generate', '--out', keys]);
    assert.equal(await g.exitCode(), 0, g.stdout + g.stderr);
    url = `${await server.start()}/app`;
  });
  after(() => server.stop());

  /** What the user's pipeline prints: the body piped into `wfs sign --body -`, run by bash in `dir`. */
  async function printed(body: string): Promise<string> {
    const env = { PATH: process.env.PATH ?? '', NODE: process.execPath, CLI, BODY: body, KEYS: keys, TO: url };
    const r = await runBash(
      `printf %s "$BODY" | "$NODE" "$CLI" sign --body - --keys "$KEYS" --format curl --to "$TO"`,
      env,
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  }

  for (const body of BODIES)
    it(`${body}: curl receives --data-binary @- and the bytes ${body} on its standard input`, async () => {
      const command = await printed(body);
      const before = standIn.runs().length;
      const r = await runBash(command, standIn.env(), { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      const run = standIn.runs().slice(before);
      assert.equal(run.length, 1);
      const argv = run[0]!.argv.map((a) => a.toString());
      assert.deepEqual(argv.slice(0, 6), ['-sS', '--globoff', '-X', 'POST', '--url', url]);
      assert.deepEqual(argv.slice(-2), ['--data-binary', '@-']);
      assert.ok(!argv.some((a) => a.includes('secret.txt')), JSON.stringify(argv));
      assert.equal(run[0]!.stdin.toString(), body);
    });

  it('with the real curl, the recording server receives the bytes @secret.txt, signed, not the file', async function () {
    if (!realCurl()) this.skip();
    const command = await printed('@secret.txt');
    const before = server.requests.length;
    const r = await runBash(command, { PATH: process.env.PATH ?? '', HOME: dir }, { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, before + 1);
    const got = server.requests.at(-1)!;
    assert.equal(got.body.toString(), '@secret.txt');
    const jwks = createLocalJWKSet(JSON.parse(readFileSync(join(keys, 'jwks.json'), 'utf8')));
    const { payload } = await jwtVerify(String(got.headers.authorization).slice('Bearer '.length), jwks);
    assert.equal(payload.body_sha256, createHash('sha256').update('@secret.txt').digest('hex'));
  });
});
