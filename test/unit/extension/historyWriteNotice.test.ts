import assert from 'node:assert/strict';
import '../helpers/vscodeL10n';
import { HistoryWriteNotice, historyWriteFailureText } from '../../../src/extension/receiver/historyWriteNotice';

const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('the warning that the delivery history cannot be written', () => {
  it('is shown once per run of failures: the service retries, and each retry fails the same way', () => {
    const shown: string[] = [];
    const notice = new HistoryWriteNotice((t) => shown.push(t));
    notice.failed(enospc);
    notice.failed(enospc);
    notice.failed(new Error('EIO: i/o error, write'));
    assert.equal(shown.length, 1);
    notice.written();
    notice.failed(enospc);
    assert.equal(shown.length, 2, 'a failure after a write that succeeded is news again');
  });

  it('says what the user can do: a full disk needs space; anything else says the error', () => {
    assert.equal(
      historyWriteFailureText(enospc),
      'The webhook delivery history could not be written: the disk holding it is full (ENOSPC: no space left on device, write). Verified deliveries are answered 503, so the service sends them again, until space is freed.',
    );
    assert.equal(
      historyWriteFailureText(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' })),
      'The webhook delivery history could not be written (EIO: i/o error, write). Verified deliveries are answered 503, so the service sends them again, until it can be.',
    );
  });
});
