// What core says to a person, kept as a message and its values so that each face words it in its own language:
// the CLI, the MCP tools and the test kit in English, the extension through vscode.l10n. A message is written once,
// in core, as a call of said with a literal message and its values: esbuild.mjs exports every such call into the
// extension's l10n bundle, where a translator finds it beside the extension's own words. A value is data (a name,
// an address, a number), shown as it is, or another Said (a reason inside a reason), worded in the same language.

export type SaidValue = string | number | Said;

export interface Said {
  readonly message: string;
  readonly values?: readonly SaidValue[];
}

/** A message of core's for people. The message must be a string literal (the l10n export reads the source). */
export function said(message: string, ...values: SaidValue[]): Said {
  return values.length ? { message, values } : { message };
}

/** How a face words one message: vscode.l10n.t in the extension; `englishWording` elsewhere. */
export type Wording = (message: string, ...values: (string | number)[]) => string;

/** The message with `{0}`, `{1}`… filled in: the English, which is also the key of the extension's bundle. */
export const englishWording: Wording = (message, ...values) =>
  message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < values.length ? String(values[Number(i)]) : whole));

/** Deeper than this, a Said read from a file is not ours: its innermost values are shown as they are. */
const MAX_DEPTH = 8;

/** The words of `s` in the face's language, its inner Saids first. Defensive: a Said read back from a history file
 * that is not one comes out as its text, or empty. */
export function worded(s: Said, wording: Wording = englishWording, depth = 0): string {
  if (!isSaid(s)) return typeof s === 'string' ? s : '';
  const values = (s.values ?? []).map((v) =>
    isSaid(v) && depth < MAX_DEPTH ? worded(v, wording, depth + 1) : typeof v === 'number' ? v : String(v),
  );
  return wording(s.message, ...values);
}

/** English, as the CLI and the MCP tools print it. */
export function english(s: Said): string {
  return worded(s, englishWording);
}

export function isSaid(v: unknown): v is Said {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as Said).message === 'string' &&
    ((v as Said).values === undefined || Array.isArray((v as Said).values))
  );
}

/** The characters a Said holds, for byte budgets that estimate a record's size. */
export function saidLength(s: Said | undefined, depth = 0): number {
  if (!isSaid(s) || depth > MAX_DEPTH) return 0;
  let n = s.message.length + 16;
  for (const v of s.values ?? []) n += typeof v === 'object' ? saidLength(v, depth + 1) : String(v).length + 4;
  return n;
}

/** An error whose message is core's: `message` is its English; a face that words otherwise reads `said`. */
export class SaidError extends Error {
  constructor(readonly said: Said) {
    super(english(said));
  }
}

/** What an error says in the face's words: a SaidError's own message, else its English message as it is. */
export function errorWorded(err: unknown, wording: Wording = englishWording): string {
  if (err instanceof SaidError) return worded(err.said, wording);
  return err instanceof Error ? err.message : String(err);
}

/** An error as a value of a message: a SaidError's Said (worded in the face's language), else its message as data. */
export function saidOf(err: unknown): SaidValue {
  if (err instanceof SaidError) return err.said;
  return err instanceof Error ? err.message : String(err);
}

/** A JSON.stringify replacer for output whose format is a promise (the CLI's JSON lines, MCP results, what a model
 * reads): the Saids kept beside the English for faces that word them are left out. A string field named said (what
 * a receiver answered) is data and stays. */
export function withoutSaids(key: string, value: unknown): unknown {
  return (key === 'said' || key.endsWith('Said')) && isSaid(value) ? undefined : value;
}

/** The value as that output holds it: a copy without the Saids. */
export function saidsLeftOut<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, withoutSaids)) as T;
}
