// A small, strict flag parser: unknown flags and missing values are errors, never silently ignored.

export interface FlagSpec {
  /** Flags that take a value, e.g. 'port'. */
  values: string[];
  /** Flags that stand alone, e.g. 'follow'. */
  switches?: string[];
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedFlags {
  values: Map<string, string>;
  switches: Set<string>;
}

export function parseFlags(argv: string[], spec: FlagSpec): ParsedFlags {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq >= 0 ? eq : undefined);
    if (spec.switches?.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      switches.add(name);
    } else if (spec.values.includes(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      values.set(name, value);
    } else {
      throw new UsageError(`unknown flag --${name}`);
    }
  }
  return { values, switches };
}

export function intFlag(flags: ParsedFlags, name: string, min: number, max: number): number | undefined {
  const raw = flags.values.get(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}
