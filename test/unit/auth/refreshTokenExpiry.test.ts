import assert from 'node:assert/strict';
import { refreshTokenExpiry } from '../../../src/core/auth/refreshTokenExpiry';

const iso = (ms: number) => new Date(ms).toISOString();

describe('refreshTokenExpiry (24 h rounded up to midnight America/New_York)', () => {
  it('winter (EST, UTC-5): rounds up to the next 05:00Z', () => {
    assert.equal(iso(refreshTokenExpiry(Date.parse('2026-01-15T15:30:00Z'))), '2026-01-17T05:00:00.000Z');
  });
  it('summer (EDT, UTC-4): rounds up to the next 04:00Z', () => {
    assert.equal(iso(refreshTokenExpiry(Date.parse('2026-07-10T15:30:00Z'))), '2026-07-12T04:00:00.000Z');
  });
  it('exactly midnight Eastern after 24 h stays as it is', () => {
    assert.equal(iso(refreshTokenExpiry(Date.parse('2026-01-14T05:00:00Z'))), '2026-01-15T05:00:00.000Z');
  });
  it('a millisecond past midnight rounds to the following midnight', () => {
    assert.equal(iso(refreshTokenExpiry(Date.parse('2026-01-14T05:00:00.001Z'))), '2026-01-16T05:00:00.000Z');
  });
  describe('spring forward (2026-03-08 02:00 EST → 03:00 EDT)', () => {
    it('24 h lands on the switch day after it: the next midnight is EDT (04:00Z)', () => {
      assert.equal(iso(refreshTokenExpiry(Date.parse('2026-03-07T12:00:00Z'))), '2026-03-09T04:00:00.000Z');
    });
    it('24 h lands on the switch day before 02:00: the next midnight is still the EDT one', () => {
      assert.equal(iso(refreshTokenExpiry(Date.parse('2026-03-07T06:30:00Z'))), '2026-03-09T04:00:00.000Z');
    });
    it('24 h lands the evening before: midnight of the switch day is EST (05:00Z)', () => {
      assert.equal(iso(refreshTokenExpiry(Date.parse('2026-03-07T03:00:00Z'))), '2026-03-08T05:00:00.000Z');
    });
  });
  describe('fall back (2026-11-01 02:00 EDT → 01:00 EST)', () => {
    it('24 h lands after the switch: the next midnight is EST (05:00Z)', () => {
      assert.equal(iso(refreshTokenExpiry(Date.parse('2026-10-31T12:00:00Z'))), '2026-11-02T05:00:00.000Z');
    });
    it('24 h lands in the repeated hour (01:30 EST): next midnight is EST', () => {
      assert.equal(iso(refreshTokenExpiry(Date.parse('2026-10-31T06:30:00Z'))), '2026-11-02T05:00:00.000Z');
    });
    it('24 h lands the evening before: midnight of the switch day is EDT (04:00Z)', () => {
      assert.equal(iso(refreshTokenExpiry(Date.parse('2026-10-31T02:00:00Z'))), '2026-11-01T04:00:00.000Z');
    });
  });
});
