// Flags through node:util parseArgs, strictly: unknown flags, missing values and stray arguments are usage errors
// with a message that names the flag, never silently ignored.
import { parseArgs } from 'node:util';
import { editDistance } from '../core/presentation';

interface FlagSpec {
  /** 'string' flags take a value; 'boolean' flags stand alone. */
  type: 'string' | 'boolean';
  /** May be given more than once; its values are kept in order. */
  multiple?: boolean;
  /** The value's placeholder in help, e.g. 'PORT'. */
  value?: string;
  description: string;
  /** The command cannot run without it: every missing one is named in one usage error, before the command runs. */
  required?: boolean;
}

export type FlagSpecs = Record<string, FlagSpec>;

export class UsageError extends Error {
  /** What `wfs <command> --help` tells that fixes it (e.g. 'the environment it reads'): the message then ends with the
   * real command's help, which only the runner knows. */
  readonly seeHelp?: string;

  constructor(message: string, seeHelp?: string) {
    super(message);
    this.name = 'UsageError';
    this.seeHelp = seeHelp;
  }
}

export interface ParsedFlags {
  values: Map<string, string>;
  lists: Map<string, string[]>;
  switches: Set<string>;
  /** Arguments that are not flags: only for a command that takes them (CommandSpec.positionals). */
  positionals: string[];
  /** The one word a command takes after its name, if it takes one (CommandSpec.argument). */
  argument?: string;
}

/** envNames: the environment variables the command reads, so a flag written for one of them (--base-url for
 * WFS_BASE_URL) is pointed there. */
export function parseFlags(
  argv: string[],
  specs: FlagSpecs,
  envNames: readonly string[] = [],
  allowPositionals = false,
): ParsedFlags {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [name, s] of Object.entries(specs))
    options[name] = { type: s.type, ...(s.multiple ? { multiple: true } : {}) };
  let parsed: Record<string, string | boolean | (string | boolean)[] | undefined>;
  let positionals: string[];
  try {
    ({ values: parsed, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals }));
  } catch (err) {
    throw new UsageError(usageMessage(err as Error & { code?: string }, argv, specs, envNames));
  }
  const out: ParsedFlags = { values: new Map(), lists: new Map(), switches: new Set(), positionals };
  for (const [name, v] of Object.entries(parsed)) {
    if (Array.isArray(v)) out.lists.set(name, v.map(String));
    else if (typeof v === 'string') out.values.set(name, v);
    else if (v === true) out.switches.add(name);
  }
  return out;
}

/** parseArgs' own messages suggest `--` tricks that do not apply here; name the flag plainly instead. */
function usageMessage(
  err: Error & { code?: string },
  argv: string[],
  specs: FlagSpecs,
  envNames: readonly string[],
): string {
  const flag = /'(-[^' ,]*)/.exec(err.message)?.[1];
  const arg = /'([^']*)'/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag ?? arg}${unknownFlagHint(flag ?? arg ?? '', specs, envNames)}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${arg}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing|ambiguous/.test(err.message)) {
        const name = longFlag(err.message) ?? flag;
        // A value that starts with a dash (a negative number) is read as the next flag: say how to pass it.
        const next = /ambiguous/.test(err.message) && name ? argv[argv.indexOf(name) + 1] : undefined;
        return next
          ? `${name} needs a value: "${next}" is read as a flag (write ${name}=${next} if it is the value)`
          : `${name} needs a value`;
      }
      return `${longFlag(err.message) ?? flag} takes no value`;
    default:
      return err.message;
  }
}

/** What the user probably meant: the environment variable a flag names (credentials and addresses come from the
 * environment, so they never show in a process list), a flag one or two typos away, or one a word longer or shorter
 * (only when a single flag fits: "--trust" could be --trust-file or --trust-sandbox). */
function unknownFlagHint(flag: string, specs: FlagSpecs, envNames: readonly string[]): string {
  const name = flag.replace(/^-+/, '').split('=')[0]!.toLowerCase();
  const variable = `WFS_${name.replace(/-/g, '_').toUpperCase()}`;
  if (envNames.includes(variable)) return `: set ${variable} in the environment instead`;
  let best: string | undefined;
  // Within two edits, and no more than a third of the name: "--data" is not a typo of "--path".
  let bestDistance = Math.min(3, Math.floor(name.length / 3) + 1);
  for (const known of Object.keys(specs)) {
    const d = editDistance(name, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  // A known flag with a word more or less: "--workflow-id" for "--workflow", "--correlation" for "--correlation-id".
  best ??= single(Object.keys(specs).filter((known) => name.startsWith(`${known}-`) || known.startsWith(`${name}-`)));
  return best ? ` (did you mean --${best}?)` : '';
}

/** The one candidate within two typos of `name` (a third of its length at most), or a prefix of exactly one. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.floor(name.length / 3) + 1);
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best ?? single(candidates.filter((c) => name.length >= 3 && c.startsWith(name.toLowerCase())));
}

function single(list: readonly string[]): string | undefined {
  return list.length === 1 ? list[0] : undefined;
}

function longFlag(message: string): string | undefined {
  return /(--[a-z0-9-]+)/.exec(message)?.[1];
}

export function intFlag(flags: ParsedFlags, name: string, min: number, max: number): number | undefined {
  const raw = flags.values.get(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** Names joined as a person lists them: "a", "a and b", "a, b and c". */
export function listInWords(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The required flags (FlagSpec.required) not given, each with its placeholder: ['--service S', '--model M']. */
export function missingRequiredFlags(flags: ParsedFlags, specs: FlagSpecs): string[] {
  return Object.entries(specs)
    .filter(([name, s]) => s.required && !flags.values.get(name) && !flags.lists.get(name)?.length)
    .map(([name, s]) => `--${name}${s.type === 'string' ? ` ${s.value ?? 'VALUE'}` : ''}`);
}

export function requiredFlag(flags: ParsedFlags, name: string, what?: string): string {
  const v = flags.values.get(name);
  if (!v) throw new UsageError(`--${name} is required${what ? `: ${what}` : ''}`);
  return v;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in words a person reads: "90 s", "10 min", "2 h", "500 ms". */
export function durationInWords(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/**
 * A duration flag, in milliseconds: a number with a unit (500ms, 3s, 2m, 1h, 1d; decimals allowed, 1.5s), or a bare
 * number in the flag's own unit (`bareUnit`: what it meant before units were accepted). Within [minMs, maxMs].
 */
export function durationFlag(
  flags: ParsedFlags,
  name: string,
  bareUnit: 's' | 'ms',
  minMs: number,
  maxMs: number,
): number | undefined {
  const raw = flags.values.get(name);
  if (raw === undefined) return undefined;
  const ms = parseDuration(raw, bareUnit);
  if (ms === undefined || ms < minMs || ms > maxMs)
    throw new UsageError(
      `--${name} ${raw}: give a duration from ${durationInWords(minMs)} to ${durationInWords(maxMs)}, with a unit (500ms, 3s, 2m, 1h) or as a number of ${bareUnit === 's' ? 'seconds' : 'milliseconds'}`,
    );
  return ms;
}

/** "3s" → 3000, "1.5m" → 90000, "20" → 20 in `bareUnit`; undefined when it is not a duration or not whole ms. */
function parseDuration(raw: string, bareUnit: 's' | 'ms'): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(raw);
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[(m[2] ?? bareUnit).toLowerCase()]!;
  return Number.isSafeInteger(ms)
    ? ms
    : Number.isFinite(ms) && Math.abs(ms - Math.round(ms)) < 1e-6
      ? Math.round(ms)
      : undefined;
}

/** A duration flag that must be whole seconds (a token's expires_in): in seconds. */
export function wholeSecondsFlag(flags: ParsedFlags, name: string, minS: number, maxS: number): number | undefined {
  const ms = durationFlag(flags, name, 's', minS * 1000, maxS * 1000);
  if (ms === undefined) return undefined;
  if (ms % 1000 !== 0) throw new UsageError(`--${name} ${flags.values.get(name)}: give whole seconds (e.g. 90s, 2m)`);
  return ms / 1000;
}
