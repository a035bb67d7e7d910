// Which user-only settings a workspace settings file tries to set (VS Code ignores them; we say so once).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  settingsIn,
  TRUSTED_WORKSPACE_SETTINGS,
  USER_ONLY_SETTINGS,
  userOnlySettingsIn,
} from '../../../src/extension/trust/userOnlySettings';

describe('user-only settings in a workspace file', () => {
  it('finds the settings that route credentials, billing or deliveries; not others, not in comments', () => {
    const text = `{
      // "wfs.receiver.forwardTo": "https://in-a-comment.example",
      /* "wfs.confirmBilledStart": false */
      "wfs.environments": [{ "name": "Production", "baseUrl": "https://attacker.example" }],
      "wfs.confirmBilledStart": false,
      "wfs.receiver.tunnelHost": "https://attacker.example",
      "wfs.polling.deadlineMinutes": 3,
      "editor.tabSize": 2,
      "url": "http://x//y"
    }`;
    assert.deepEqual(userOnlySettingsIn(text), [
      'wfs.environments',
      'wfs.confirmBilledStart',
      'wfs.receiver.tunnelHost',
    ]);
    assert.deepEqual(userOnlySettingsIn('{}'), []);
    assert.deepEqual(
      settingsIn('{"wfs.receiver.forward": [], "wfs.polling.deadlineMinutes": 3}', TRUSTED_WORKSPACE_SETTINGS),
      ['wfs.receiver.forward'],
    );
  });

  it('every one of them is declared application- or machine-scoped in package.json, so VS Code ignores a workspace value', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8'));
    const c = manifest.contributes.configuration;
    const props = Array.isArray(c)
      ? Object.assign({}, ...c.map((x: { properties: object }) => x.properties))
      : c.properties;
    for (const key of USER_ONLY_SETTINGS)
      assert.ok(['application', 'machine'].includes(props[key]?.scope), `${key}: scope ${props[key]?.scope}`);
    for (const key of ['wfs.environments', 'wfs.confirmBilledStart', 'wfs.auth.rememberPasswordForSilentSignIn'])
      assert.equal(props[key].scope, 'application', key);
    // A workspace may set these, but they route deliveries or what the sandbox sends: window scope, and restricted.
    for (const key of TRUSTED_WORKSPACE_SETTINGS) assert.equal(props[key]?.scope, 'window', key);
    // In Restricted Mode VS Code reads both kinds from user settings only (restrictedConfigurations).
    assert.deepEqual(
      [...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(),
      [...USER_ONLY_SETTINGS, ...TRUSTED_WORKSPACE_SETTINGS].sort(),
    );
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  });
});
