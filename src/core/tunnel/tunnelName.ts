// The name asked of a localtunnel server (its subdomain): a DNS label the server accepts. Checked before anything is
// opened, so a typo is named with its setting or flag rather than failing as the server's refusal.
import { english, said, type Said, type SaidValue } from '../presentation/said';

const NAME = /^[a-z0-9][a-z0-9-]{2,61}[a-z0-9]$/;

/** Why `name` cannot be asked for, as a sentence naming `what` holds it (a flag, a setting), or undefined when it
 * can: core's Said, worded by the extension in the user's language. */
export function tunnelNameProblemSaid(what: SaidValue, name: string): Said | undefined {
  if (NAME.test(name)) return undefined;
  return said(
    '{0} is not a name a localtunnel server gives ({1}): 4 to 63 lower-case letters, digits and hyphens, starting and ending with a letter or digit',
    what,
    JSON.stringify(name.length > 70 ? `${name.slice(0, 70)}…` : name),
  );
}

/** Why `name` cannot be asked for, in English, the words that follow its flag ("--subdomain is not …"), or undefined
 * when it can. */
export function tunnelNameProblem(name: string): string | undefined {
  const s = tunnelNameProblemSaid('', name);
  return s && english(s).slice(1);
}
