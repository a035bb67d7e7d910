// What a CLI command is: its flags, its help, and the function that runs it. main.ts dispatches on these, so every
// command gets `--help`, strict flag parsing and the same exit-code handling. Its line in `wfs --help` is in
// commandList.ts, which loads the command's module only when it runs.
import type { FlagSpecs, ParsedFlags } from './flags';
import type { CliIO } from './output';
import { commonExitCodes } from './exitCodes';

export interface CommandSpec {
  name: string;
  /** The synopsis after `wfs `, e.g. 'start --session ID …'. */
  synopsis: string;
  /** A few sentences on what it does and prints. */
  description: string;
  flags: FlagSpecs;
  /** The command takes arguments besides its flags (`wfs send FILE|DIR…`): their placeholder and meaning. */
  positionals?: [string, string];
  /** One word the command takes after its name (`wfs sandbox fault KIND`): in ParsedFlags.argument. */
  argument?: { value: string; description: string };
  /** Environment variables the command reads, with their meaning. */
  env?: [string, string][];
  /** Exit codes beyond the common ones (exitCodes.ts), or a command's own meaning of one: `EXIT.<name>` with its
   * meaning here. */
  exits?: [number, string][];
  run(flags: ParsedFlags, io: CliIO): Promise<number>;
}

export const SERVICE_ENV: [string, string][] = [
  ['WFS_BASE_URL', "the service (required), e.g. the sandbox's baseUrl"],
  ['WFS_TEST_WEBHOOK_URL', 'the webhook test endpoint host (default: WFS_BASE_URL)'],
  ['WFS_USERNAME, WFS_PASSWORD', 'credentials (required); tokens are kept in memory only'],
  ['WFS_USER_ALIAS', 'optional user alias, sent at sign-in and as X-Svc-UserAlias'],
  ['WFS_USER_ALIAS_PLACEMENT', 'where sign-in carries the alias: body (default), header or query'],
  ['WFS_RATE_LIMIT_ATTEMPTS', 'attempts per request while the service answers 429, 1 to 10 (default 5)'],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'an HTTP proxy for the service (CONNECT for https); loopback is never proxied'],
];

export const PROXY_ENV: [string, string][] = [SERVICE_ENV[SERVICE_ENV.length - 1]];

export function commandHelp(spec: CommandSpec): string {
  const out = [`usage: wfs ${spec.synopsis}`, '', spec.description, ''];
  if (spec.argument) out.push('argument:', ...table([[spec.argument.value, spec.argument.description]]), '');
  const rows: [string, string][] = Object.entries(spec.flags).map(([name, f]) => [
    `--${name}${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`,
    f.description + (f.multiple ? ' (repeatable)' : ''),
  ]);
  rows.push(['--help', 'print this help and exit 0']);
  if (spec.positionals) out.push('arguments:', ...table([spec.positionals]), '');
  out.push('flags:', ...table(rows));
  if (spec.env?.length) out.push('', 'environment:', ...table(spec.env));
  // A command's own meaning of a code replaces the common one (audit's 1 is a failed case), in code order.
  const exits = new Map<number, string>(commonExitCodes());
  for (const [code, meaning] of spec.exits ?? []) exits.set(code, meaning);
  out.push('', 'exit codes:', ...table([...exits].sort(([a], [b]) => a - b).map(([c, m]) => [String(c), m])));
  return out.join('\n') + '\n';
}

/** Two aligned columns, as in every help text. */
export function helpTable(rows: [string, string][]): string[] {
  return table(rows);
}

function table(rows: [string, string][]): string[] {
  const width = Math.min(34, Math.max(...rows.map(([a]) => a.length)) + 2);
  return rows.map(([a, b]) => `  ${a.padEnd(width)}${a.length >= width ? '\n  ' + ' '.repeat(width) : ''}${b}`);
}
