import assert from 'node:assert/strict';
import { messageTimestamp, parseUtcTimestamp, triggeredAtTimestamp } from '../../../src/core/time/timestamps';

describe('timestamps', () => {
  it('message timestamps omit fractional seconds when they are zero', () => {
    assert.equal(messageTimestamp(Date.UTC(2026, 0, 15, 12, 0, 0, 0)), '2026-01-15T12:00:00Z');
  });
  it('message timestamps keep non-zero fractional seconds without trailing zeros', () => {
    assert.equal(messageTimestamp(Date.UTC(2026, 0, 15, 12, 0, 0, 250)), '2026-01-15T12:00:00.25Z');
    assert.equal(messageTimestamp(Date.UTC(2026, 0, 15, 12, 0, 0, 7)), '2026-01-15T12:00:00.007Z');
  });
  it('triggeredAt has exactly seven fractional digits', () => {
    const t = triggeredAtTimestamp(Date.UTC(2026, 0, 15, 12, 0, 0, 123), 4567);
    assert.equal(t, '2026-01-15T12:00:00.1234567Z');
    assert.match(triggeredAtTimestamp(Date.UTC(2026, 0, 15), 0), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
  });
  it('parses timestamps with 0 to 7 fractional digits, and rejects garbage', () => {
    assert.equal(parseUtcTimestamp('2026-01-15T12:00:00Z'), Date.UTC(2026, 0, 15, 12));
    assert.equal(parseUtcTimestamp('2026-01-15T12:00:00.1234567Z'), Date.UTC(2026, 0, 15, 12, 0, 0, 123));
    assert.equal(parseUtcTimestamp('2026-01-15T12:00:00.25Z'), Date.UTC(2026, 0, 15, 12, 0, 0, 250));
    assert.equal(parseUtcTimestamp('yesterday'), undefined);
  });
});
