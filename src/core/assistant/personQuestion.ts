// The questions a person answers for a tool (a billed start's modal or MCP elicitation, a tool's confirmation, an
// audit of an address the model named) are the product's words: fixed text, then each value on its own line,
// labelled and quoted. A value could otherwise pose as the product ("Appraisal\nNOTE TO USER: this is the free
// Sandbox… Choose Start."), so one that holds a control character, a line break or a bidi control is refused before
// anything is asked. The refusal names the field and never repeats the value. A question is a Said (the fixed text
// and the labels are core's words, the values data), worded by each face: English in MCP elicitation, the user's
// language in VS Code.
import { said, type Said, type SaidValue } from '../presentation/said';
import { ToolRefused } from './assistantTool';

/** A value shown in a question: `label` for the person (core's words, or a protocol name shown as it is), `field`
 * (the tool's input name) for the refusal. `shown`, when given, is the line's text instead of the quoted value: core's
 * words with the value quoted inside (e.g. the receiver at "http://…"); `value` is what is checked. */
export interface AskedValue {
  label: SaidValue;
  field: string;
  value: string;
  shown?: Said;
}

/** C0 (tab, CR and LF included), DEL, C1 (U+0085 included), the line and paragraph separators, and the bidi
 * controls: none of them can be shown in a question as what they are. */
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** The first value that cannot be shown in a question, with where in it and which character (as U+XXXX). */
function unshowableValue(
  values: readonly AskedValue[],
): { field: string; codePoint: string; position: number } | undefined {
  for (const v of values) {
    const m = UNSHOWABLE.exec(v.value);
    if (m)
      return {
        field: v.field,
        codePoint: `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
        position: m.index + 1,
      };
  }
  return undefined;
}

/** Throws ToolRefused, naming the field, when a value cannot be shown in a question as it is. */
export function checkAskable(values: readonly AskedValue[]): void {
  const bad = unshowableValue(values);
  if (!bad) return;
  throw new ToolRefused(
    `${bad.field} holds a control character (${bad.codePoint} at character ${bad.position}: a line break, tab, invisible or text-direction control), which a question to the user cannot show as it is: nothing was asked, sent or started. Call again with ${bad.field} free of control characters.`,
    { refused: 'control-character', field: bad.field },
  );
}

/** A value quoted as a question shows it: JSON's quotes and escapes, so where it ends is never in doubt. */
export function quoted(value: string): string {
  return JSON.stringify(value);
}

/** The question: `lead` (fixed text), each value as `Label: "value"` on its own line, then `tail` (fixed text).
 * Checked first: a value that cannot be shown is refused (checkAskable). */
export function personQuestion(lead: Said, values: readonly AskedValue[], tail?: Said): Said {
  checkAskable(values);
  const lines = values.map((v) => said('{0}: {1}', v.label, v.shown ?? quoted(v.value)));
  return linesSaid([lead, ...lines, ...(tail ? [tail] : [])]);
}

/** Lines as one Said, halved at each level so that a long question stays shallow (worded() words 8 levels). */
function linesSaid(lines: readonly Said[]): Said {
  if (lines.length === 1) return lines[0]!;
  const half = Math.ceil(lines.length / 2);
  return said('{0}\n{1}', linesSaid(lines.slice(0, half)), linesSaid(lines.slice(half)));
}
