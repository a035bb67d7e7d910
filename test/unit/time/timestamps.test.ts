import assert from 'node:assert/strict';
import {
  isoTimestamp,
  messageTimestamp,
  parseUtcTimestamp,
  triggeredAtTimestamp,
} from '../../../src/core/time/timestamps';

describe('timestamps', () => {
  it('isoTimestamp is exactly toISOString, across minutes, days, years and before 1970', () => {
    const at = [
      Date.UTC(2026, 10, 23, 10, 59, 59, 999),
      Date.UTC(2026, 10, 23, 11, 0, 0, 0),
      Date.UTC(2026, 10, 23, 11, 0, 0, 7),
      Date.UTC(2026, 11, 31, 23, 59, 59, 99),
      Date.UTC(2027, 0, 1),
      0,
      -1,
      -0.5,
      -60_000,
      -60_001,
      1.9,
      // the same millisecond again (a burst shares one string), then the same time of another minute and day
      1.2,
      1,
      60_001,
      86_400_001,
      Date.UTC(1969, 11, 31, 23, 59, 5, 50),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      8.64e15,
      -8.64e15,
    ];
    // Consecutive calls in one minute take the cached path; a seeded walk also crosses minutes back and forth.
    let x = 1_700_000_000_000;
    for (let i = 0; i < 20_000; i++) {
      x += ((i * 7919) % 9001) - 4000;
      at.push(x);
    }
    for (const ms of at) assert.equal(isoTimestamp(ms), new Date(ms).toISOString(), String(ms));
    assert.throws(() => isoTimestamp(Number.NaN), RangeError);
  });

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
