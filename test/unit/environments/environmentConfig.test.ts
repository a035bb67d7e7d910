import assert from 'node:assert/strict';
import {
  parseEnvironments,
  sandboxEnvironment,
  SANDBOX_ENVIRONMENT,
} from '../../../src/core/environments/environmentConfig';
import { readServiceTarget } from '../../../src/cli/cliEnvironment';

describe('wfs.environments setting', () => {
  it('reads a full entry, trimming and defaulting the test-webhook URL to the base URL', () => {
    const { environments, problems } = parseEnvironments([
      {
        name: ' Staging ',
        baseUrl: 'https://staging.example.test/',
        problemsBase: 'https://staging.example.test/problems',
        userAlias: 'alias1',
        userAliasPlacement: 'header',
        products: [{ service: 'Appraisal', model: 'Standard' }],
        trustedIssuers: [{ issuer: 'https://iss', audience: 'aud', jwksUrl: 'https://iss/jwks' }],
      },
    ]);
    assert.deepEqual(problems, []);
    assert.equal(environments.length, 1);
    const e = environments[0]!;
    assert.equal(e.name, 'Staging');
    assert.equal(e.baseUrl, 'https://staging.example.test');
    assert.equal(e.testWebhookUrl, 'https://staging.example.test');
    assert.equal(e.aliasPlacement, 'header');
    assert.equal(e.userAlias, 'alias1');
    assert.deepEqual(e.products, [{ service: 'Appraisal', model: 'Standard' }]);
    assert.equal(e.trustedIssuers[0]!.jwksUrl, 'https://iss/jwks');
    assert.equal(e.builtIn, false);
  });

  it('plain http to a host that is not loopback, as baseUrl or testWebhookUrl: the entry is refused, naming the field (credentials never go there)', () => {
    const { environments, problems } = parseEnvironments([
      { name: 'Prod', baseUrl: 'http://wfs.example.test' },
      { name: 'Hooks', baseUrl: 'https://wfs.example.test', testWebhookUrl: 'http://10.0.0.7:8080' },
      { name: 'Local', baseUrl: 'http://127.0.0.1:4010', testWebhookUrl: 'http://localhost:4010' },
    ]);
    assert.deepEqual(
      environments.map((e) => e.name),
      ['Local'],
    );
    assert.equal(problems.length, 2);
    assert.match(
      problems[0]!,
      /^wfs\.environments\[0\] \("Prod"\): "baseUrl" is plain http to wfs\.example\.test, which is not this machine: .* unencrypted, so none is sent\. Use the service's https:\/\/ address, or a loopback address/,
    );
    assert.match(
      problems[1]!,
      /^wfs\.environments\[1\] \("Hooks"\): "testWebhookUrl" is plain http to 10\.0\.0\.7:8080, which is not this machine/,
    );
  });

  it('a base URL written without its scheme: the problem gives it with one', () => {
    const { environments, problems } = parseEnvironments([
      { name: 'Staging', baseUrl: 'staging.example.test' },
      { name: 'Local', baseUrl: 'http://127.0.0.1:8080', testWebhookUrl: 'localhost:8080' },
    ]);
    assert.deepEqual(environments, []);
    assert.match(
      problems[0]!,
      /\("Staging"\): "baseUrl" is not a URL: staging\.example\.test \(it lacks its scheme: write https:\/\/staging\.example\.test\)\.$/,
    );
    assert.match(
      problems[1]!,
      /\("Local"\): "testWebhookUrl" must be an http\(s\) URL \(it lacks its scheme: write http:\/\/localhost:8080\)\.$/,
    );
    const issuer = parseEnvironments([
      {
        name: 'Prod',
        baseUrl: 'https://api.example.test',
        trustedIssuers: [{ issuer: 'i', audience: 'a', jwksUrl: 'keys.example.test/jwks' }],
      },
    ]);
    assert.deepEqual(issuer.environments[0]!.trustedIssuers, []);
    assert.deepEqual(issuer.problems, [
      'wfs.environments[0] ("Prod"): a trusted issuer\'s "jwksUrl" is not a URL: keys.example.test/jwks (it lacks its scheme: write https://keys.example.test/jwks); that issuer was skipped.',
    ]);
  });

  it('skips each bad entry with a problem naming it, and keeps the good ones', () => {
    const { environments, problems } = parseEnvironments([
      'nope',
      { baseUrl: 'https://a' },
      { name: 'Sandbox', baseUrl: 'https://a' },
      { name: 'ftp', baseUrl: 'ftp://a' },
      {
        name: 'Good',
        baseUrl: 'https://good',
        products: [{ service: 'X' }],
        trustedIssuers: [{ issuer: 'i', audience: 'a', jwksUrl: 'file:///etc/passwd' }],
      },
      { name: 'good', baseUrl: 'https://dup' },
      { name: 'Bad<script>', baseUrl: 'https://a' },
      { name: 'Alias', baseUrl: 'https://a', userAliasPlacement: 'cookie' },
    ]);
    assert.deepEqual(
      environments.map((e) => e.name),
      ['Good'],
    );
    assert.deepEqual(environments[0]!.products, []);
    assert.deepEqual(environments[0]!.trustedIssuers, [], 'a jwksUrl that is not http(s) is refused');
    assert.equal(problems.length, 9);
    assert.match(problems[0]!, /wfs\.environments\[0\] is not an object/);
    assert.match(problems[1]!, /\[1\] has no "name"/);
    assert.match(problems[2]!, /already used by the built-in sandbox/);
    assert.match(problems[3]!, /"baseUrl" must be an http\(s\) URL/);
    assert.ok(problems.some((p) => /"good" is already used/.test(p)));
    assert.ok(problems.some((p) => /userAliasPlacement/.test(p)));
  });

  it('a setting that is not a list is one problem, not an exception', () => {
    assert.deepEqual(parseEnvironments({ name: 'x' }), {
      environments: [],
      problems: ['wfs.environments must be a list of environments.'],
      problemsSaid: [{ message: 'wfs.environments must be a list of environments.' }],
    });
    assert.deepEqual(parseEnvironments(undefined), { environments: [], problems: [], problemsSaid: [] });
  });

  it('the built-in Sandbox pre-fills its products (the unentitled one too) and its trusted issuer', () => {
    const e = sandboxEnvironment({
      baseUrl: 'http://127.0.0.1:1',
      testWebhookUrl: 'http://127.0.0.1:1',
      problemsBase: 'http://127.0.0.1:1/problems',
      issuer: 'https://sandbox/iss',
      audience: 'aud',
      jwksUrl: 'http://127.0.0.1:1/.well-known/jwks.json',
      products: [{ service: 'A', model: 'B' }],
      unentitledProduct: { service: 'C', model: 'D' },
    });
    assert.equal(e.name, SANDBOX_ENVIRONMENT);
    assert.equal(e.builtIn, true);
    assert.deepEqual(e.products, [
      { service: 'A', model: 'B' },
      { service: 'C', model: 'D' },
    ]);
    assert.deepEqual(e.trustedIssuers, [
      { issuer: 'https://sandbox/iss', audience: 'aud', jwksUrl: 'http://127.0.0.1:1/.well-known/jwks.json' },
    ]);
  });

  it('findWorkflowsUrl: a template with {correlationId} on the origin of baseUrl, or the entry is refused with a reason', () => {
    const ok = parseEnvironments([
      {
        name: 'S',
        baseUrl: 'https://svc.example',
        findWorkflowsUrl: 'https://svc.example/wf/search?c={correlationId}',
      },
    ]);
    assert.equal(ok.environments[0]!.findWorkflowsUrl, 'https://svc.example/wf/search?c={correlationId}');
    for (const bad of ['https://other.example/s?c={correlationId}', 'https://svc.example/search', 42]) {
      const r = parseEnvironments([{ name: 'S', baseUrl: 'https://svc.example', findWorkflowsUrl: bad }]);
      assert.equal(r.environments.length, 0, String(bad));
      assert.match(r.problems[0]!, /findWorkflowsUrl/);
    }
  });
});

// The CLI reads WFS_* through the same parser (parseServiceFields): one rule for addresses, plain http and the
// alias placement, each said in the CLI's words (its variable's name) and the setting's (its entry and field).
describe('the CLI and the setting read an environment through one parser', () => {
  const credentials = { WFS_USERNAME: 'demo', WFS_PASSWORD: 'demo-password' };
  const cases: { name: string; fields: Record<string, string>; cli: RegExp; setting: RegExp }[] = [
    {
      name: 'an address without its scheme',
      fields: { baseUrl: 'api.example.com' },
      cli: /^WFS_BASE_URL is not a URL: api\.example\.com \(it lacks its scheme: write https:\/\/api\.example\.com\)$/,
      setting:
        /"baseUrl" is not a URL: api\.example\.com \(it lacks its scheme: write https:\/\/api\.example\.com\)\.$/,
    },
    {
      name: 'plain http off this machine',
      fields: { baseUrl: 'https://wfs.example', testWebhookUrl: 'http://wfs.example' },
      cli: /^WFS_TEST_WEBHOOK_URL is plain http to wfs\.example, which is not this machine: .+ for a local sandbox\.$/,
      setting: /"testWebhookUrl" is plain http to wfs\.example, which is not this machine: .+ for a local sandbox\.$/,
    },
    {
      name: 'an alias placement that is not body, header or query',
      fields: { baseUrl: 'https://wfs.example', userAliasPlacement: 'cookie' },
      cli: /^WFS_USER_ALIAS_PLACEMENT must be body, header or query$/,
      setting: /"userAliasPlacement" must be body, header or query\.$/,
    },
  ];
  const variable: Record<string, string> = {
    baseUrl: 'WFS_BASE_URL',
    testWebhookUrl: 'WFS_TEST_WEBHOOK_URL',
    userAliasPlacement: 'WFS_USER_ALIAS_PLACEMENT',
  };
  for (const c of cases)
    it(`${c.name}: refused by both, each naming its own field`, () => {
      const env = Object.fromEntries(Object.entries(c.fields).map(([k, v]) => [variable[k]!, v]));
      assert.throws(
        () => readServiceTarget({ ...credentials, ...env }),
        (e: Error) => c.cli.test(e.message),
      );
      const { environments, problems } = parseEnvironments([{ name: 'E', ...c.fields }]);
      assert.deepEqual(environments, []);
      assert.match(problems.join(' '), c.setting);
    });

  it('a good entry reads the same: trailing slashes gone, test webhooks at the service, alias placement kept', () => {
    const fields = { baseUrl: 'http://127.0.0.1:4010/base//', userAliasPlacement: 'query' };
    const cli = readServiceTarget({
      ...credentials,
      WFS_BASE_URL: fields.baseUrl,
      WFS_USER_ALIAS_PLACEMENT: fields.userAliasPlacement,
    });
    const [setting] = parseEnvironments([{ name: 'E', ...fields }]).environments;
    const pick = (e: { baseUrl: string; testWebhookUrl: string; aliasPlacement: string }) => [
      e.baseUrl,
      e.testWebhookUrl,
      e.aliasPlacement,
    ];
    assert.deepEqual(pick(cli), pick(setting!));
    assert.deepEqual(pick(cli), ['http://127.0.0.1:4010/base', 'http://127.0.0.1:4010/base', 'query']);
    assert.equal(cli.key, 'wfs@http://127.0.0.1:4010+http://127.0.0.1:4010', 'an Environment value, keyed like one');
  });
});
