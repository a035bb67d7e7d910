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
