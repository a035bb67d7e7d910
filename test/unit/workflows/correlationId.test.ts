// What copying adds to a correlationId (quotes, a comma, spaces) is recognised, so that a search after an unknown
// outcome does not report "none" for a workflow the service holds under the clean form.
import assert from 'node:assert/strict';
import { copiedCorrelationId } from '../../../src/core/workflows/correlationId';

describe('copiedCorrelationId', () => {
  it('strips the quotes, trailing comma and spaces of a value copied from a JSON line', () => {
    assert.equal(copiedCorrelationId('"wfs-20261125T152819Z-480d646a"'), 'wfs-20261125T152819Z-480d646a');
    assert.equal(copiedCorrelationId('"wfs-20261125T152819Z-480d646a",'), 'wfs-20261125T152819Z-480d646a');
    assert.equal(copiedCorrelationId("  'order 42'  "), 'order 42');
    assert.equal(copiedCorrelationId('`cid`'), 'cid');
    assert.equal(copiedCorrelationId(' cid\n'), 'cid');
  });

  it('leaves alone what copying did not add: nothing to strip, quotes inside, unmatched quotes, or nothing left', () => {
    assert.equal(copiedCorrelationId('wfs-20261125T152819Z-480d646a'), undefined);
    assert.equal(copiedCorrelationId('say "hi" twice'), undefined);
    assert.equal(copiedCorrelationId('"unmatched'), undefined);
    assert.equal(copiedCorrelationId('""'), undefined);
    assert.equal(copiedCorrelationId('"a"b"'), 'a"b');
  });
});
