// Restricted Mode: what waits for workspace trust, and what does not.
import '../helpers/vscodeL10n';
import assert from 'node:assert/strict';
import { presentError } from '../../../src/extension/errors/errorPresentation';
import { restrictedModeRefusal, WaitsForTrust } from '../../../src/extension/trust/restrictedMode';

describe('restricted mode', () => {
  it('a billed start or a sign-in on a real environment waits for trust; the sandbox never does', () => {
    assert.match(
      restrictedModeRefusal('start', 'Production', false)!,
      /^Starting a billed workflow on Production waits until you trust this workspace/,
    );
    assert.match(restrictedModeRefusal('sign-in', 'Production', false)!, /^Signing in to Production waits/);
    assert.equal(restrictedModeRefusal('start', 'Sandbox', false), undefined);
    assert.equal(restrictedModeRefusal('sign-in', 'Sandbox', false), undefined);
    assert.equal(restrictedModeRefusal('start', 'Production', true), undefined);
  });

  it('an action held for trust says what waits and what to do, and offers Manage Workspace Trust (not Show Log)', () => {
    const p = presentError('Send test webhook', new WaitsForTrust('Using your sign-in to Staging'));
    assert.equal(
      p.message,
      'Send test webhook: Using your sign-in to Staging waits until you trust this workspace (Restricted Mode). Trust it with "Workspaces: Manage Workspace Trust".',
    );
    assert.deepEqual(p.actions, ['Manage Workspace Trust']);
    assert.equal(p.modal, false);
  });
});
