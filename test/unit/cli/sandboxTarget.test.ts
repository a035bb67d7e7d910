// One rule for the sandbox a command acts on: the flag's, else the environment's (WFS_BASE_URL with
// WFS_SANDBOX_SECRET); whatever is missing named at once.
import assert from 'node:assert/strict';
import { findSandbox, sandboxTarget } from '../../../src/cli/sandboxTarget';
import { UsageError } from '../../../src/cli/flags';

const FLAG = '--sandbox-url';

describe('which sandbox a command acts on', () => {
  it('the environment names one only with both variables; the flag names another, with the same secret', () => {
    const env = { WFS_BASE_URL: 'http://127.0.0.1:4010', WFS_SANDBOX_SECRET: 's3' };
    assert.deepEqual(findSandbox(env, FLAG, undefined), {
      baseUrl: 'http://127.0.0.1:4010',
      secret: 's3',
      named: 'WFS_BASE_URL http://127.0.0.1:4010',
    });
    assert.deepEqual(findSandbox(env, FLAG, 'http://127.0.0.1:4020'), {
      baseUrl: 'http://127.0.0.1:4020',
      secret: 's3',
      named: '--sandbox-url http://127.0.0.1:4020',
    });
  });

  it('names every missing variable at once, and the line that fixes it', () => {
    const none = findSandbox({}, FLAG, undefined);
    assert.ok('missing' in none);
    assert.deepEqual(none.missing, ['WFS_BASE_URL', 'WFS_SANDBOX_SECRET']);
    assert.equal(
      none.problem,
      'no sandbox named: --sandbox-url is not given and WFS_BASE_URL and WFS_SANDBOX_SECRET are not set. Paste the `export` line that `wfs sandbox` prints (it sets WFS_BASE_URL and WFS_SANDBOX_SECRET), or give --sandbox-url URL with WFS_SANDBOX_SECRET set',
    );
    const realService = findSandbox({ WFS_BASE_URL: 'https://svc.example' }, FLAG, undefined);
    assert.deepEqual('missing' in realService && realService.missing, ['WFS_SANDBOX_SECRET']);
    const flagOnly = findSandbox({}, FLAG, 'http://127.0.0.1:4010');
    assert.match(
      'problem' in flagOnly ? flagOnly.problem : '',
      /^--sandbox-url http:\/\/127\.0\.0\.1:4010: WFS_SANDBOX_SECRET is not set/,
    );
  });

  it("a usage error says the command's own problems and the sandbox's together; a bad address at once", () => {
    assert.throws(
      () => sandboxTarget({}, FLAG, undefined, ['unknown fault "x"']),
      (err: Error) => err instanceof UsageError && /^unknown fault "x"; and no sandbox named: /.test(err.message),
    );
    assert.throws(
      () => sandboxTarget({ WFS_BASE_URL: '127.0.0.1:4010', WFS_SANDBOX_SECRET: 's' }, FLAG, undefined),
      /WFS_BASE_URL is not a URL: 127\.0\.0\.1:4010 \(it lacks its scheme/,
    );
  });
});
