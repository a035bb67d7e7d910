// `wfs sandbox` as a process: ready line first, one JSON line per event, clean stop on SIGTERM.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { rawRequest } from '../helpers/rawHttp';

const CLI = join(__dirname, '../../../../dist/cli.js');

function lines(child: ChildProcess): AsyncIterator<string> {
  return createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
}

describe('wfs sandbox (CLI)', () => {
  it('prints the ready line, logs requests as JSON lines, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--access-token-ttl', '600'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const it = lines(child);
    const ready = JSON.parse((await it.next()).value);
    assert.equal(ready.event, 'ready');
    for (const k of [
      'baseUrl',
      'testWebhookUrl',
      'problemsBase',
      'issuer',
      'audience',
      'jwksUrl',
      'username',
      'password',
      'sessions',
      'products',
      'unentitledProduct',
    ])
      assert.ok(k in ready, k);
    assert.match(ready.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(ready.sessions.staged && ready.sessions.empty);
    const r = await rawRequest(ready.baseUrl + '/user-management-services-ws/oauth2/002/signInWithPassword', {
      json: { username: ready.username, password: ready.password },
    });
    assert.equal(r.json().expires_in, 600);
    const logged = JSON.parse((await it.next()).value);
    assert.deepEqual([logged.event, logged.method, logged.status], ['request', 'POST', 200]);
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
  it('exits 2 with a JSON error line on an unknown flag', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--bogus'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const first = JSON.parse((await lines(child).next()).value);
    assert.equal(first.event, 'error');
    assert.match(first.message, /--bogus/);
    assert.equal(await new Promise((res) => child.once('exit', res)), 2);
  });
});
