/**
 * Every exit code of every command, in one table: its name (what the code says as `EXIT.<name>`), its number, and
 * its meaning. Each code means one thing across commands. Every `--help` shows the common ones (0, 1, 2, 130) with
 * their meaning and the command's own codes with its words; docs/cli.md's exit-code table is this table, row for row
 * (a unit test compares them): `meaning` and then `more`, which only the document carries.
 */
export const EXIT_TABLE = {
  ok: {
    code: 0,
    meaning: 'success',
    more: ' (for `sandbox` and `listen`: stopped by SIGTERM/SIGINT; for `status --follow`: the workflow ended `complete`; for `audit`: every case passed)',
    common: true,
  },
  failed: {
    code: 1,
    meaning: 'the service refused or failed, or could not be reached (the error line says why)',
    more: ', and what to do. For `status --follow` and `start --follow`: no answer for `--give-up-after` seconds, `"kind":"unreachable"`. For a command that acts on a running sandbox (`sandbox fault`, `sign`, `listen --trust-sandbox`, `mcp --sandbox-url`…): nothing answered there, said in the same words by each. For `audit`: a case failed. For `sandbox` and `listen`: the port could not be opened (`"kind":"listen"`, e.g. already in use)',
    common: true,
  },
  usage: {
    code: 2,
    meaning: 'usage error, or a request refused before anything was sent',
    more: '; nothing is sent, not even the sign-in (the list below)',
    common: true,
  },
  outcomeUnknown: {
    code: 3,
    meaning: 'outcome unknown: a billed workflow may exist',
    more: '. The start answered 500, or was sent and its answer lost (a timeout, a connection cut, or SIGINT/SIGTERM while its answer was on its way). Run `wfs find --correlation-id C` with the correlationId in the error line before starting another. For `probe-service`: one of its starts was answered 2xx (it stops at once and names the workflow)',
  },
  deadline: {
    code: 4,
    meaning: '`status --follow` reached its deadline while the workflow was still running',
  },
  noneFound: { code: 5, meaning: '`find`: no workflow has that correlationId' },
  notComplete: {
    code: 6,
    meaning: '`status --follow`: the workflow ended `failed` or `cancelled`',
    more: ' (`{"event":"error","kind":"workflow-not-complete","status":"failed",…}`), so `wfs status --follow --workflow W && next-step` stops',
  },
  deliveryFailed: {
    code: 7,
    meaning: '`test-webhook`: the service took the request and says the delivery to the address failed',
    more: ' (`{"event":"error","kind":"delivery-failed",…}` after the `sent` line, naming what the receiver answered)',
  },
  targetUnreachable: {
    code: 8,
    meaning: '`audit`: nothing listens at the target, so nothing was audited',
    more: ' (one line, `"kind":"target-unreachable"`)',
  },
  trustMismatch: {
    code: 9,
    meaning: '`audit`: the receiver refused the genuine delivery, so the other cases were not sent',
    more: ' (most often it does not trust the key the audit signed with; one line, `{"event":"trust-mismatch",…}`)',
  },
  pathNotServed: {
    code: 10,
    meaning: '`audit`: `--target` answered the genuine delivery 404, 405 or 421: nothing takes webhooks at that path',
    more: ', so nothing was audited (`{"event":"error","kind":"path-not-served",…}`)',
  },
  interrupted: {
    code: 130,
    meaning: 'stopped by SIGINT, SIGTERM or SIGHUP before it finished',
    more: '. While `status --follow` or `start --follow` was polling: `{"kind":"cancelled","workflowId","lastStatus","resume"}` (the workflow goes on, and `resume` is the command that follows it again). While a command that does not run until stopped was still working: `{"kind":"interrupted"}` (for `start`, only before its request was sent: nothing was billed). A second signal always ends the process at once',
    common: true,
  },
} as const satisfies Record<string, ExitCodeEntry>;

export interface ExitCodeEntry {
  code: number;
  /** One line: what every `--help` says of a common code, and the start of its row in docs/cli.md. */
  meaning: string;
  /** The rest of its row in docs/cli.md (Markdown), right after `meaning`. */
  more?: string;
  /** Every command may end with it, so every `--help` lists it. */
  common?: true;
}

export type ExitName = keyof typeof EXIT_TABLE;

/** The codes by name: what a command returns and names in its `exits`, never a number. */
export const EXIT = Object.freeze(
  Object.fromEntries(Object.entries(EXIT_TABLE).map(([name, e]) => [name, e.code])),
) as { readonly [N in ExitName]: (typeof EXIT_TABLE)[N]['code'] };

/** The table's rows in code order. */
export function exitCodeRows(): (ExitCodeEntry & { name: ExitName })[] {
  return (Object.entries(EXIT_TABLE) as [ExitName, ExitCodeEntry][])
    .map(([name, e]) => ({ name, ...e }))
    .sort((a, b) => a.code - b.code);
}

/** The rows every `--help` shows before a command's own: code and meaning. */
export function commonExitCodes(): [number, string][] {
  return exitCodeRows()
    .filter((r) => r.common)
    .map((r) => [r.code, r.meaning]);
}

/** docs/cli.md's exit-code table, as the document must hold it. */
export function exitCodeMarkdown(): string {
  const rows = exitCodeRows().map((r) => `| ${r.code} | ${r.meaning}${r.more ?? ''} |`);
  return ['| exit code | meaning |', '|---|---|', ...rows].join('\n');
}
