// Flags through node:util parseArgs, strictly: unknown flags, missing values and stray arguments are usage errors
// with a message that names the flag, never silently ignored.
import { parseArgs } from 'node:util';

export interface FlagSpec {
  /** 'string' flags take a value; 'boolean' flags stand alone. */
  type: 'string' | 'boolean';
  /** May be given more than once; its values are kept in order. */
  multiple?: boolean;
  /** The value's placeholder in help, e.g. 'PORT'. */
  value?: string;
  description: string;
}

export type FlagSpecs = Record<string, FlagSpec>;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedFlags {
  values: Map<string, string>;
  lists: Map<string, string[]>;
  switches: Set<string>;
}

export function parseFlags(argv: string[], specs: FlagSpecs): ParsedFlags {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [name, s] of Object.entries(specs)) options[name] = { type: s.type, ...(s.multiple ? { multiple: true } : {}) };
  let parsed: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError(usageMessage(err as Error & { code?: string }, argv));
  }
  const out: ParsedFlags = { values: new Map(), lists: new Map(), switches: new Set() };
  for (const [name, v] of Object.entries(parsed)) {
    if (Array.isArray(v)) out.lists.set(name, v.map(String));
    else if (typeof v === 'string') out.values.set(name, v);
    else if (v === true) out.switches.add(name);
  }
  return out;
}

/** parseArgs' own messages suggest `--` tricks that do not apply here; name the flag plainly instead. */
function usageMessage(err: Error & { code?: string }, argv: string[]): string {
  const flag = /'(-[^' ,]*)/.exec(err.message)?.[1];
  const arg = /'([^']*)'/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag ?? arg}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${arg}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing|ambiguous/.test(err.message)) {
        const name = longFlag(err.message) ?? flag;
        // A value that starts with a dash (a negative number) is read as the next flag: say how to pass it.
        const next = /ambiguous/.test(err.message) && name ? argv[argv.indexOf(name) + 1] : undefined;
        return next ? `${name} needs a value: "${next}" is read as a flag (write ${name}=${next} if it is the value)` : `${name} needs a value`;
      }
      return `${longFlag(err.message) ?? flag} takes no value`;
    default:
      return err.message;
  }
}

function longFlag(message: string): string | undefined {
  return /(--[a-z0-9-]+)/.exec(message)?.[1];
}

export function intFlag(flags: ParsedFlags, name: string, min: number, max: number): number | undefined {
  const raw = flags.values.get(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

export function requiredFlag(flags: ParsedFlags, name: string, what?: string): string {
  const v = flags.values.get(name);
  if (!v) throw new UsageError(`--${name} is required${what ? `: ${what}` : ''}`);
  return v;
}
