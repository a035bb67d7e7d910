// Timestamp formats the spec fixes exactly.

/** RFC 3339 UTC with trailing Z; fractional seconds only when non-zero (spec: Message.timestamp). */
export function messageTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-01-15T12:00:00.000Z
  return iso.endsWith('.000Z') ? iso.slice(0, -5) + 'Z' : iso.replace(/0+Z$/, 'Z');
}

/** UTC ISO 8601 with exactly 7 fractional digits (spec: webhook triggeredAt). Sub-ms digits come from `subMs`
 * (0..9999). */
export function triggeredAtTimestamp(ms: number, subMs = 0): string {
  const iso = new Date(ms).toISOString();
  const frac = String(subMs).padStart(4, '0').slice(0, 4);
  return iso.slice(0, -1) + frac + 'Z';
}

/** Parses RFC 3339 / ISO 8601 UTC timestamps with any number of fractional digits (Date alone rejects 7). */
export function parseUtcTimestamp(text: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return undefined;
  const ms = m[2] ? Number((m[2] + '000').slice(0, 3)) : 0;
  const base = Date.parse(`${m[1]}${m[3]}`);
  return Number.isNaN(base) ? undefined : base + ms;
}

/** Exactly `new Date(ms).toISOString()` for whole milliseconds, cheaper when called often: the date, hour and minute
 * are formatted once per minute and the rest by arithmetic. A receiver stamps every delivery with it
 * (docs/benchmarks.md: "Why the hot path is written as it is"). */
export function isoTimestamp(ms: number): string {
  const t = Math.trunc(ms); // as Date does
  // A burst stamps several deliveries in one millisecond: they share one string.
  if (t === lastStamp.t) return lastStamp.text;
  const minute = t - (((t % 60_000) + 60_000) % 60_000);
  if (minute !== isoMinute.start) {
    const iso = new Date(minute).toISOString();
    // Years beyond 9999 or before 0 have another shape: format those whole, each time.
    if (iso.length !== 24) return new Date(t).toISOString();
    isoMinute.start = minute;
    isoMinute.prefix = iso.slice(0, 17);
  }
  const rest = t - minute;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  // Joined, not concatenated: one flat string of 24 characters, where `+` leaves a tree of pieces that every record
  // kept in the history would hold (136 bytes against 38, measured; docs/benchmarks.md).
  const text = [
    isoMinute.prefix,
    s < 10 ? '0' : '',
    s,
    '.',
    milli < 10 ? '00' : milli < 100 ? '0' : '',
    milli,
    'Z',
  ].join('');
  lastStamp.t = t;
  lastStamp.text = text;
  return text;
}

const lastStamp = { t: Number.NaN, text: '' };

const isoMinute = { start: Number.NaN, prefix: '' };
