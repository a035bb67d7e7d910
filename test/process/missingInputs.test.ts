// What is missing is said once and whole (issue 69, point 10): every missing flag and every unset variable in one
// usage error that names the real command's help, and `wfs env` shows no empty line.
import assert from 'node:assert/strict';
import { WfsProcess } from './helpers/wfsProcess';

async function usageError(args: string[], env: Record<string, string> = {}): Promise<string> {
  const p = new WfsProcess(args, env);
  assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
  const last = p.lines.at(-1)!;
  assert.deepEqual([last.event, last.kind], ['error', 'usage']);
  return String(last.message);
}

describe('missing flags and variables, named at once', () => {
  it('wfs start with nothing set: its three flags and the three variables in one error, and `wfs start --help`', async () => {
    assert.equal(
      await usageError(['start']),
      '--session ID, --service S and --model M are required; and WFS_BASE_URL, WFS_USERNAME and WFS_PASSWORD are not set: export them; a local `wfs sandbox` prints the export line for its own (run `wfs start --help` for its flags and the environment it reads)',
    );
  });

  it('wfs test-webhook without its flags: all four named; the variables too when unset', async () => {
    const message = await usageError(['test-webhook', '--address', 'https://example.test/hook'], {
      WFS_BASE_URL: 'http://127.0.0.1:9',
      WFS_USERNAME: 'u',
      WFS_PASSWORD: 'p',
    });
    assert.equal(
      message,
      '--topic T, --sub-topic S and --tenant-id T are required (run `wfs test-webhook --help` for its flags)',
    );
  });

  it('the flags given and some variables unset: those variables at once, with the real command, never "<command>"', async () => {
    const message = await usageError(['status', '--workflow', 'wf_1'], { WFS_BASE_URL: 'http://127.0.0.1:9' });
    assert.equal(
      message,
      'WFS_USERNAME and WFS_PASSWORD are not set: export them; a local `wfs sandbox` prints the export line for its own (run `wfs status --help` for the environment it reads)',
    );
    assert.doesNotMatch(await usageError(['find', '--correlation-id', 'c']), /<command>/);
  });

  it('wfs env on a terminal: no empty "webhook test" line, and what is missing said under the table', async () => {
    const none = new WfsProcess(['env', '--human']);
    assert.equal(await none.exitCode(), 2);
    const row = none.stdout.split('\n').find((l) => l.startsWith('webhook test'));
    assert.equal(row, 'webhook test  the service (WFS_TEST_WEBHOOK_URL not set)');
    assert.match(
      none.stdout,
      /\nWFS_BASE_URL, WFS_USERNAME and WFS_PASSWORD are not set: the service commands need them\n$/,
    );
    const base = new WfsProcess(['env', '--human'], { WFS_BASE_URL: 'http://127.0.0.1:4010' });
    await base.exited;
    assert.match(
      base.stdout,
      /\nwebhook test  http:\/\/127\.0\.0\.1:4010 \(the service: WFS_TEST_WEBHOOK_URL not set\)\n/,
    );
  });
});

describe('missing arguments with missing flags', () => {
  it('wfs send with nothing: its fixtures and --to, in one error', async () => {
    const p = new WfsProcess(['send']);
    assert.equal(await p.exitCode(), 2);
    assert.equal(
      p.lines.at(-1)!.message,
      'FILE|DIR… and --to URL are required (run `wfs send --help` for its arguments and flags)',
    );
  });
});
