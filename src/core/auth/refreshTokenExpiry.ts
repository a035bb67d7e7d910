// Refresh tokens live 24 h, rounded up to the next midnight in US Eastern time (spec: Limits).

const EASTERN = 'America/New_York';
const DAY_MS = 24 * 60 * 60 * 1000;

// Made per call, not at load: building a formatter for a time zone reads ICU's zone data, tens of milliseconds that
// every command importing this module (`wfs mcp` among them) would pay at start-up.
function easternFormat(): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: EASTERN,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallTimeInEastern(eastern: Intl.DateTimeFormat, ms: number): WallTime {
  const parts: Record<string, number> = {};
  for (const p of eastern.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

/** Offset (ms) of Eastern time from UTC at instant ms: -5 h in winter, -4 h in summer. */
function easternOffset(eastern: Intl.DateTimeFormat, ms: number): number {
  const w = wallTimeInEastern(eastern, ms);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The UTC instant of 00:00 Eastern on the given calendar date (midnight never falls in a DST gap in New York). */
function easternMidnight(eastern: Intl.DateTimeFormat, year: number, month: number, day: number): number {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall - easternOffset(eastern, wall + 5 * 3600_000);
  guess = wall - easternOffset(eastern, guess);
  return guess;
}

/** Issue time + 24 h, rounded up to the next midnight in America/New_York (unchanged if it is exactly midnight). */
export function refreshTokenExpiry(issuedAtMs: number): number {
  const t = issuedAtMs + DAY_MS;
  const eastern = easternFormat();
  const w = wallTimeInEastern(eastern, t);
  const midnightSameDay = easternMidnight(eastern, w.year, w.month, w.day);
  if (midnightSameDay === t) return t;
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return easternMidnight(eastern, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
}
