// wfs.environments' problems, as VS Code shows them: core's Saids worded through the bundle, their English (the
// CLI's and the log's before) unchanged.
import assert from 'node:assert/strict';
import { parseEnvironments } from '../../../src/core/environments/environmentConfig';
import { worded } from '../../../src/core/presentation/said';
import { plainLetters } from '../l10n/pseudoLocale';
import { pseudoWording, withoutValues } from '../helpers/pseudoWording';

describe("wfs.environments' problems in the user's words", () => {
  const cases: [unknown, string][] = [
    ['x', 'wfs.environments must be a list of environments.'],
    [[3], 'wfs.environments[0] is not an object.'],
    [[{}], 'wfs.environments[0] has no "name".'],
    [[{ name: 'Sandbox' }], 'wfs.environments[0]: the name "Sandbox" is already used by the built-in sandbox.'],
    [[{ name: 'Prod', baseUrl: 'ftp://x' }], 'wfs.environments[0] ("Prod"): "baseUrl" must be an http(s) URL.'],
    [
      [{ name: 'Prod', baseUrl: 'https://p.example', userAliasPlacement: 'cookie' }],
      'wfs.environments[0] ("Prod"): "userAliasPlacement" must be body, header or query.',
    ],
    [
      [{ name: 'Prod', baseUrl: 'https://p.example', products: [{}] }],
      'wfs.environments[0] ("Prod"): a product needs a "service" and a "model"; one was skipped.',
    ],
    [
      [{ name: 'Prod', baseUrl: 'https://p.example', findWorkflowsUrl: 'https://other.example/x' }],
      'wfs.environments[0] ("Prod"): "findWorkflowsUrl" must be an http(s) URL on the baseUrl\'s origin with {correlationId} in it.',
    ],
  ];
  for (const [raw, english] of cases)
    it(english, () => {
      const parsed = parseEnvironments(raw);
      assert.deepEqual(parsed.problems, [english]);
      assert.equal(parsed.problemsSaid.length, 1);
      const shown = worded(parsed.problemsSaid[0]!, pseudoWording());
      assert.notEqual(shown, english);
      const rest = withoutValues(
        shown,
        'wfs.environments[0]',
        'wfs.environments',
        'Prod',
        'Sandbox',
        'baseUrl',
        'userAliasPlacement',
        'findWorkflowsUrl',
        'ftp://x',
        '{correlationId}',
      );
      assert.equal(plainLetters(rest), '', shown);
    });
});
