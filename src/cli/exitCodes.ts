/**
 * Every exit code of every command, in one table (docs/cli.md lists them): each code means one thing across commands.
 * A command's --help names the ones it uses.
 */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** A billed start may have happened: its answer was lost (start), or a probe's start was answered 2xx. */
  outcomeUnknown: 3,
  deadline: 4,
  noneFound: 5,
  /** A followed workflow ended failed or cancelled. */
  notComplete: 6,
  /** test-webhook: the service answered that the delivery to the receiver failed. */
  deliveryFailed: 7,
  /** audit: the target could not be reached. */
  targetUnreachable: 8,
  /** audit: the receiver refused the genuine delivery (most often it does not trust the key that signed it); the
   * attack cases were not sent. */
  trustMismatch: 9,
  /** audit: the target answered 404, 405 or 421 to the genuine delivery: nothing takes webhooks at that path. */
  pathNotServed: 10,
  interrupted: 130,
} as const;
