/** Exit codes every command shares (docs/cli.md); a command's own are in its --help. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  outcomeUnknown: 3,
  deadline: 4,
  noneFound: 5,
  interrupted: 130,
} as const;
