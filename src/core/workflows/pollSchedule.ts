// The spec's polling guidance (Limits): 2 s for the first two checks, then 5 s, then 10 s thereafter,
// with an overall deadline after which polling stops.

export const DEFAULT_POLL_DEADLINE_MS = 10 * 60_000;

/** Delay before check number `check` (1-based). */
export function pollDelayMs(check: number): number {
  if (check <= 2) return 2000;
  if (check === 3) return 5000;
  return 10_000;
}

/** Read errors after which polling cannot succeed: stop rather than keep asking (a dropped connection goes on). */
export const FINAL_READ_ERRORS: ReadonlySet<string> = new Set([
  'not-found',
  'path-not-served',
  'forbidden',
  'unauthorized',
  'local-validation',
  'validation',
  'malformed-request',
]);
