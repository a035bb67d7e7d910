import assert from 'node:assert/strict';
import '../helpers/vscodeL10n';
import { formatRemaining, statusBarModel } from '../../../src/extension/statusBar/statusBarText';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const SANDBOX = { name: 'Sandbox', baseUrl: 'http://127.0.0.1:4010/workflow-services-ws' };
const session = { username: 'demo', accessExpiresAt: NOW + 65 * 60_000, refreshExpiresAt: Date.UTC(2026, 0, 17, 5) };

describe('status bar model', () => {
  it('formats time to expiry', () => {
    assert.deepEqual(
      [formatRemaining(30_000), formatRemaining(59 * 60_000), formatRemaining(65 * 60_000)],
      ['<1m', '59m', '1h 05m'],
    );
  });
  it('signed out', () => {
    assert.equal(statusBarModel(SANDBOX, 'signed-out', NOW).text, '$(account) Sandbox: signed out');
  });
  it('signed in: environment, user, token time to expiry; tooltip names the midnight-ET lapse', () => {
    const m = statusBarModel(SANDBOX, 'signed-in', NOW, session);
    assert.equal(m.text, '$(account) Sandbox: demo · token 1h 05m');
    assert.match(m.tooltip, /^Workflow Service — Sandbox \(http:\/\/127\.0\.0\.1:4010\)\n/, 'names where it goes');
    assert.match(m.tooltip, /lapses at 2026-01-17T05:00:00Z \(midnight US Eastern\)/);
    assert.equal(m.warning, false);
  });
  it('alias, refreshing, lapsing soon and expired', () => {
    assert.match(statusBarModel(SANDBOX, 'signed-in', NOW, { ...session, userAlias: 'ops' }).text, /demo as ops/);
    assert.match(statusBarModel(SANDBOX, 'refreshing', NOW, session).text, /^\$\(sync~spin\)/);
    const soon = statusBarModel(SANDBOX, 'lapsing-soon', NOW, session);
    assert.equal(soon.warning, true);
    assert.match(soon.tooltip, /soon/);
    assert.equal(statusBarModel(SANDBOX, 'expired', NOW, session).text, '$(warning) Sandbox: sign-in lapsed');
  });
  it('says its state in words for a screen reader, not only by its icon', () => {
    assert.equal(statusBarModel(SANDBOX, 'signed-out', NOW).ariaLabel, 'Workflow Service: Sandbox, signed out');
    assert.equal(
      statusBarModel(SANDBOX, 'signed-in', NOW, session).ariaLabel,
      'Workflow Service: Sandbox, signed in as demo, token valid for 1h 05m',
    );
    assert.match(statusBarModel(SANDBOX, 'refreshing', NOW, session).ariaLabel, /refreshing the token$/);
    assert.match(statusBarModel(SANDBOX, 'lapsing-soon', NOW, session).ariaLabel, /sign-in lapses soon$/);
    assert.equal(
      statusBarModel(SANDBOX, 'expired', NOW, session).ariaLabel,
      'Workflow Service: Sandbox, sign-in of demo lapsed',
    );
  });
});
