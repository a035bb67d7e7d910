// A receiver setting changed while the receiver or the history runs: what the notice says, and its one action.
import '../helpers/vscodeL10n';
import assert from 'node:assert/strict';
import { changedReceiverSettings, settingsChangeNotice } from '../../../src/extension/receiver/receiverSettingsNotice';

const touched = (...keys: string[]) =>
  changedReceiverSettings((k) => keys.some((t) => k === t || k.startsWith(`${t}.`)));

describe('the notice for a receiver setting changed while it runs', () => {
  it('sorts what a change touched into what a restart applies and what a reload applies', () => {
    assert.deepEqual(touched('wfs.receiver.forwardTo'), { restart: ['wfs.receiver.forwardTo'], reload: [] });
    assert.deepEqual(touched('wfs.receiver.historyStorage', 'wfs.receiver.port'), {
      restart: ['wfs.receiver.port'],
      reload: ['wfs.receiver.historyStorage'],
    });
    assert.deepEqual(touched('wfs.environments'), { restart: [], reload: [] });
  });

  it('a receiver setting: Restart Receiver while it runs, nothing while it is stopped (it reads them when it starts)', () => {
    assert.deepEqual(settingsChangeNotice(touched('wfs.receiver.forwardTo', 'wfs.receiver.port'), true, false), {
      text: 'wfs.receiver.port and wfs.receiver.forwardTo changed: the running webhook receiver uses the new value once restarted.',
      action: 'Restart Receiver',
    });
    assert.equal(settingsChangeNotice(touched('wfs.receiver.forwardTo'), false, false), undefined);
    assert.equal(settingsChangeNotice(touched('wfs.environments'), true, false), undefined);
  });

  it('a history setting: Reload Window, running or not; "memory" says the file is then erased', () => {
    assert.deepEqual(settingsChangeNotice(touched('wfs.receiver.historyStorage'), false, true), {
      text: 'wfs.receiver.historyStorage changed: the delivery history uses the new value once the window reloads. The history file is then erased.',
      action: 'Reload Window',
    });
    assert.deepEqual(
      settingsChangeNotice(touched('wfs.receiver.historyStorage'), false, false)?.text,
      'wfs.receiver.historyStorage changed: the delivery history uses the new value once the window reloads.',
    );
    assert.equal(
      settingsChangeNotice(
        touched('wfs.receiver.historyMemoryMiB', 'wfs.receiver.historyDiskMiB', 'wfs.receiver.port'),
        true,
        false,
      )?.text,
      'wfs.receiver.historyMemoryMiB and wfs.receiver.historyDiskMiB changed: the delivery history uses the new value once the window reloads.',
    );
  });
});
