import assert from 'node:assert/strict';
import { sourceForOldTunnelSetting } from '../../../src/extension/receiver/publicAddressSource';

describe('wfs.receiver.tunnel → wfs.receiver.publicAddress', () => {
  it('never is none; auto and always were localtunnel; anything else is not migrated', () => {
    assert.equal(sourceForOldTunnelSetting('never'), 'none');
    assert.equal(sourceForOldTunnelSetting('auto'), 'localtunnel');
    assert.equal(sourceForOldTunnelSetting('always'), 'localtunnel');
    assert.equal(sourceForOldTunnelSetting('sometimes'), undefined);
    assert.equal(sourceForOldTunnelSetting(undefined), undefined);
  });
});
