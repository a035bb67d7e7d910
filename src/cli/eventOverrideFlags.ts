// `--set PATH=VALUE` (repeatable) on every command that makes an event (send, sign, test-webhook, fixture new), and
// `--allow-env NAME` where a fixture's {{env.NAME}} is filled (send). The parsing and applying are core's
// (core/fixtures/eventOverrides); this is the flag, its help, and its errors as usage errors: nothing is sent.
import { OverrideError, parseOverrides, PlaceholderError, type EventOverride } from '../core/fixtures';
import { UsageError, type FlagSpecs, type ParsedFlags } from './flags';

export const SET_FLAG: FlagSpecs = {
  set: {
    type: 'string',
    value: 'PATH=VALUE',
    multiple: true,
    description:
      'change a value the event already has before it is signed: a dotted path (data.runId, tenantId, data.items.0) and a value, JSON when it parses as JSON (3, true, null, "3", {"a":1}), else the text as written; repeatable, in order (a missing path is refused, naming the nearest)',
  },
};

export const ALLOW_ENV_FLAG: FlagSpecs = {
  'allow-env': {
    type: 'string',
    value: 'NAME',
    multiple: true,
    description:
      "let a fixture's {{env.NAME}} read this variable although its name looks like a credential (TOKEN, SECRET, KEY, PASS, …); repeatable",
  },
};

/** The --set changes given, checked (paths, bounds); none when the flag is not given. */
export function overridesOf(flags: ParsedFlags): EventOverride[] {
  try {
    return parseOverrides(flags.lists.get('set') ?? []);
  } catch (err) {
    if (err instanceof OverrideError) throw new UsageError(`--set: ${err.message}`);
    throw err;
  }
}

/** The words for a change or a placeholder that cannot be made (ending in a full stop), or undefined for any other
 * error. */
export function changeProblem(err: unknown): string | undefined {
  if (!(err instanceof OverrideError) && !(err instanceof PlaceholderError)) return undefined;
  const words = err instanceof OverrideError ? `--set ${err.message}` : err.message;
  return /[.?]$/.test(words) ? words : `${words}.`;
}

/** `err` as a usage error that says nothing was sent, when it is a change or a placeholder that cannot be made. */
export function notSentError(err: unknown): unknown {
  const words = changeProblem(err);
  return words === undefined ? err : new UsageError(`${words} Nothing was sent.`);
}

/** How a credential-looking variable is allowed on the command line (for the placeholder's error). */
export const allowEnvHow = (name: string) => `add --allow-env ${name}`;
