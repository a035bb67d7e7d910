// The name asked of a localtunnel server (its subdomain): a DNS label the server accepts. Checked before anything is
// opened, so a typo is named with its setting or flag rather than failing as the server's refusal.

const NAME = /^[a-z0-9][a-z0-9-]{2,61}[a-z0-9]$/;

/** Why `name` cannot be asked for, or undefined when it can. */
export function tunnelNameProblem(name: string): string | undefined {
  if (NAME.test(name)) return undefined;
  return `is not a name a localtunnel server gives (${JSON.stringify(name.length > 70 ? `${name.slice(0, 70)}…` : name)}): 4 to 63 lower-case letters, digits and hyphens, starting and ending with a letter or digit`;
}
