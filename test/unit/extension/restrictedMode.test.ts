// Restricted Mode: what waits for workspace trust, and what does not.
import assert from 'node:assert/strict';
import { restrictedModeRefusal } from '../../../src/extension/trust/restrictedMode';

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
});
