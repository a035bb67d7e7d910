// `wfs sandbox --host 0.0.0.0` (issue 69, point 6): it printed `export WFS_BASE_URL=http://0.0.0.0:…`, which sign-in
// refuses and the sandbox answers 421 to. The export line it prints now runs as printed, in a shell.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, WfsProcess } from './helpers/wfsProcess';

describe('wfs sandbox --host 0.0.0.0', () => {
  it('its ready line gives a loopback baseUrl, and its printed export line, run in a shell, signs in', async () => {
    const sandbox = new WfsProcess(['sandbox', '--port', '0', '--host', '0.0.0.0', '--human']);
    const exportLine = (await sandbox.line((l) => /^\s*export WFS_BASE_URL=/.test(String(l.text)), 'the export line'))
      .text as string;
    assert.match(exportLine, /WFS_BASE_URL=http:\/\/127\.0\.0\.1:\d+ /);
    assert.match(sandbox.stdout, /\n {2}listening on +0\.0\.0\.0, every interface/);
    const shell = spawnSync(
      'bash',
      ['-c', `${exportLine.trim()}\nexec "${process.execPath}" "${CLI}" sign-in --json`],
      {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '' },
      },
    );
    assert.equal(shell.status, 0, shell.stdout + shell.stderr);
    assert.equal(JSON.parse(shell.stdout.trim().split('\n').at(-1)!).event, 'signed-in');
    await sandbox.stopCleanly();
  });

  it('as JSON: baseUrl and jwksUrl on 127.0.0.1, and listeningOn says where it listens', async () => {
    const sandbox = new WfsProcess(['sandbox', '--port', '0', '--host', '0.0.0.0']);
    const ready = await sandbox.event('ready');
    assert.match(ready.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(ready.jwksUrl, `${ready.baseUrl}/.well-known/jwks.json`);
    assert.equal(ready.listeningOn, '0.0.0.0');
    await sandbox.stopCleanly();
  });
});
