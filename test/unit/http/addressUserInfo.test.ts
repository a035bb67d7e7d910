// Issue #74, hole 4: an address with a user name or password in it is refused at every place one is configured
// (the WFS_* variables, wfs.environments, forward targets, the public address, --sandbox-url, audit targets, every
// other URL flag), with where credentials go instead, and never repeated: neither the password nor the user.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readServiceTarget, refuseCredentialsInAddressVariables } from '../../../src/cli/cliEnvironment';
import { UsageError } from '../../../src/cli/flags';
import { httpUrlValue } from '../../../src/cli/httpUrlValue';
import { main } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/output';
import { parseEnvironments } from '../../../src/core/environments/environmentConfig';
import { addressWithoutUserInfo } from '../../../src/core/http/addressUserInfo';
import { httpUrlProblem } from '../../../src/core/http/httpUrlProblem';
import { ForwardRuleError, parseForwardRules } from '../../../src/core/webhooks/forwardRules';
import { ManualClock } from '../helpers/manualClock';

const USER = 'alice';
const PASSWORD = 'TopSecretPw99';
const WITH_BOTH = `https://${USER}:${PASSWORD}@wfs.example:8443/base`;

/** The message refuses for credentials, says where they go, and repeats neither the user nor the password. */
function assertRefusedUnrepeated(message: string, user = USER, password = PASSWORD): void {
  assert.match(message, /holds a user name or password/, message);
  assert.match(message, /sign-in/, message);
  assert.match(message, /WFS_USERNAME and WFS_PASSWORD/, message);
  assert.ok(!message.includes(password), `the password is repeated: ${message}`);
  assert.ok(!message.includes(user), `the user is repeated: ${message}`);
}

describe('an address with credentials in it (issue #74, hole 4)', () => {
  describe('httpUrlProblem, the one check of every address', () => {
    it('refuses a user and password, a user alone, a password alone: shown as https://…@host/path', () => {
      for (const url of [
        WITH_BOTH,
        `https://${USER}@wfs.example:8443/base`,
        `https://:${PASSWORD}@wfs.example:8443/base`,
      ]) {
        const p = httpUrlProblem(url);
        assert.ok(p, `${url} was accepted`);
        assertRefusedUnrepeated(p);
        assert.match(p, /\(https:\/\/…@wfs\.example:8443\/base\)/);
      }
    });

    it('accepts an address without user info, and an @ in its path or query', () => {
      assert.equal(httpUrlProblem('https://wfs.example/base'), undefined);
      assert.equal(httpUrlProblem('http://127.0.0.1:4010/a@b?c=d@e'), undefined);
    });

    it('never repeats a password of an address that does not parse either', () => {
      // A password with "/" ends the host early: "alice:pw" is then a host with a bad port, and nothing parses.
      const p = httpUrlProblem(`https://${USER}:Top/SecretPw99@wfs.example/`)!;
      assert.match(p, /is not a URL: https:\/\/…@wfs\.example\//);
      assert.ok(!p.includes('SecretPw99') && !p.includes(USER), p);
      const q = httpUrlProblem(`${USER}:${PASSWORD}@wfs.example`)!;
      assert.ok(q && !q.includes(PASSWORD) && !q.includes(USER), q);
    });

    it('property: whatever the user and password, the refusal names neither', () => {
      const part = fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=%-]{6,24}$/);
      fc.assert(
        fc.property(part, part, fc.boolean(), (user, password, withPassword) => {
          const u = `Zq${user}`;
          const pw = `Xk${password}`;
          for (const value of [
            `https://${u}${withPassword ? `:${pw}` : ''}@wfs.example/p`,
            `http://${u}:${pw}@127.0.0.1:4010`,
            `https://${u}:${pw}/x@wfs.example/`,
            `${u}:${pw}@wfs.example`,
          ]) {
            const p = httpUrlProblem(value) ?? '';
            assert.ok(p, `${value} was accepted`);
            assert.ok(!p.includes(u) && !p.includes(pw), `${value}: ${p}`);
          }
        }),
        { numRuns: 200, seed: 74 },
      );
    });

    it('addressWithoutUserInfo leaves an address without user info as it is', () => {
      assert.equal(addressWithoutUserInfo('https://wfs.example/a'), 'https://wfs.example/a');
      assert.equal(addressWithoutUserInfo(WITH_BOTH), 'https://…@wfs.example:8443/base');
    });
  });

  describe('each place an address is configured', () => {
    it('WFS_BASE_URL and the other WFS_* address variables: a usage error naming the variable', () => {
      for (const name of ['WFS_BASE_URL', 'WFS_TEST_WEBHOOK_URL', 'WFS_FIND_WORKFLOWS_URL', 'WFS_PROBLEMS_BASE']) {
        const env = {
          WFS_BASE_URL: 'https://wfs.example',
          WFS_USERNAME: 'u',
          WFS_PASSWORD: 'p',
          [name]: name === 'WFS_FIND_WORKFLOWS_URL' ? `${WITH_BOTH}/find?c={correlationId}` : WITH_BOTH,
        };
        for (const read of [() => refuseCredentialsInAddressVariables(env), () => readServiceTarget(env)])
          assert.throws(read, (e: Error) => {
            assert.ok(e instanceof UsageError, e.message);
            assert.ok(e.message.startsWith(`${name} holds a user name or password`), e.message);
            assertRefusedUnrepeated(e.message);
            return true;
          });
      }
    });

    it('the wfs.environments setting: baseUrl, testWebhookUrl, problemsBase and a trusted jwksUrl', () => {
      const entry = { name: 'Staging', baseUrl: 'https://wfs.example' };
      for (const field of ['baseUrl', 'testWebhookUrl', 'problemsBase']) {
        const parsed = parseEnvironments([{ ...entry, [field]: WITH_BOTH }]);
        assert.equal(parsed.environments.length, 0, field);
        assert.equal(parsed.problems.length, 1, field);
        assert.ok(parsed.problems[0]!.includes(`"${field}" holds a user name or password`), parsed.problems[0]);
        assertRefusedUnrepeated(parsed.problems[0]!);
      }
      const issuer = { issuer: 'https://iss.example', audience: 'a', jwksUrl: `${WITH_BOTH}/jwks.json` };
      const parsed = parseEnvironments([{ ...entry, trustedIssuers: [issuer] }]);
      assert.equal(parsed.environments[0]!.trustedIssuers.length, 0);
      assertRefusedUnrepeated(parsed.problems[0]!);
    });

    it('a forward target (wfs.receiver.forward, --forward-to): refused, the rule named, credentials not repeated', () => {
      assert.throws(
        () =>
          parseForwardRules([{ topic: 'loan/**', url: `http://${USER}:${PASSWORD}@localhost:3000/hooks` }], 'rules'),
        (e: Error) => {
          assert.ok(e instanceof ForwardRuleError);
          assert.match(e.message, /^rules\[0\] \(loan\/\*\* → http:\/\/…@localhost:3000\/hooks\): "url" holds/);
          assert.match(e.message, /forward rule's "headers"/);
          assertRefusedUnrepeated(e.message);
          return true;
        },
      );
    });

    it('a URL flag (httpUrlValue): a usage error naming the flag', () => {
      assert.throws(
        () => httpUrlValue('--sandbox-url', WITH_BOTH, "the sandbox's http(s) baseUrl"),
        (e: Error) =>
          e instanceof UsageError && e.message.startsWith('--sandbox-url holds') && !e.message.includes(PASSWORD),
      );
    });

    describe('the CLI, exit 2 before anything is sent', () => {
      let lines: Record<string, unknown>[];
      const io = (env: Record<string, string> = {}): CliIO => ({
        emit: (l) => lines.push(l),
        print: (t) => lines.push({ print: t }),
        printError: (t) => lines.push({ printError: t }),
        env,
        clock: new ManualClock(0),
        readStdin: () => '',
        onStop: () => () => undefined,
      });
      beforeEach(() => (lines = []));

      const cases: [string, string[], Record<string, string>?][] = [
        [
          '--public-url',
          ['listen', '--public-url', WITH_BOTH, '--port', '4999', '--trust-sandbox', 'http://127.0.0.1:1'],
        ],
        ['--sandbox-url', ['mcp', '--http', '0', '--sandbox-url', WITH_BOTH], { WFS_SANDBOX_SECRET: 's' }],
        ['--target', ['audit', '--target', `http://${USER}:${PASSWORD}@127.0.0.1:3000/hooks`]],
        ['--forward-to', ['mcp', '--http', '0', '--forward-to', `http://${USER}:${PASSWORD}@127.0.0.1:3000/hooks`]],
        ['--to', ['send', '--to', `http://${USER}:${PASSWORD}@127.0.0.1:3000/hooks`, 'x.webhook.json']],
        ['WFS_BASE_URL', ['env'], { WFS_BASE_URL: WITH_BOTH }],
        ['WFS_BASE_URL', ['mcp', '--http', '0'], { WFS_BASE_URL: WITH_BOTH }],
        ['WFS_BASE_URL', ['sign-in'], { WFS_BASE_URL: WITH_BOTH, WFS_USERNAME: 'u', WFS_PASSWORD: 'p' }],
      ];
      for (const [name, argv, env] of cases)
        it(`wfs ${argv[0]}: ${name}`, async () => {
          const code = await main(argv, io(env));
          const text = JSON.stringify(lines);
          assert.equal(code, 2, text);
          assert.ok(text.includes(`${name} holds a user name or password`), text);
          assert.ok(!text.includes(PASSWORD) && !text.includes(USER), text);
        });
    });
  });
});
