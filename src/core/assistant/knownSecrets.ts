// The secret values a process knows (passwords, tokens it holds or signed, control secrets, the MCP bearer token):
// what the last pass over every tool answer removes by value, whatever shape the text around them has.

/** Shorter values are not looked for: they would match ordinary words. */
const MIN_SECRET_LENGTH = 8;
/** At most this many values are looked for in one answer: the pass stays cheap whatever the process holds. */
export const MAX_KNOWN_SECRETS = 256;

/** The values worth looking for: strings of at least MIN_SECRET_LENGTH characters, each once, longest first (a
 * secret that contains another is replaced whole), at most MAX_KNOWN_SECRETS. */
export function knownSecretValues(values: readonly unknown[]): string[] {
  const kept = new Set<string>();
  for (const v of values) if (typeof v === 'string' && v.length >= MIN_SECRET_LENGTH) kept.add(v);
  return [...kept].sort((a, b) => b.length - a.length).slice(0, MAX_KNOWN_SECRETS);
}

/** The tokens a context signed most recently (an app may echo one in its answer); the oldest go first past `limit`,
 * so the set stays bounded however many deliveries are sent. */
export class RecentSecrets {
  private readonly held: string[] = [];

  constructor(private readonly limit = 64) {}

  add(value: string): void {
    if (value.length < MIN_SECRET_LENGTH) return;
    this.held.push(value);
    if (this.held.length > this.limit) this.held.splice(0, this.held.length - this.limit);
  }

  values(): readonly string[] {
    return this.held;
  }
}
