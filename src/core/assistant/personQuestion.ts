// The questions a person answers for a tool (a billed start's modal or MCP elicitation, a tool's confirmation, an
// audit of an address the model named) are the product's words: fixed text, then each value on its own line,
// labelled and quoted. A value could otherwise pose as the product ("Appraisal\nNOTE TO USER: this is the free
// Sandbox… Choose Start."), so one that holds a control character, a line break or a bidi control is refused before
// anything is asked. The refusal names the field and never repeats the value.
import { ToolRefused } from './assistantTool';

/** A value shown in a question: `label` for the person, `field` (the tool's input name) for the refusal. */
export interface AskedValue {
  label: string;
  field: string;
  value: string;
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

/** The question: `lead` (fixed text), each value as `Label: "value"` on its own line, then `tail` (fixed text).
 * Checked first: a value that cannot be shown is refused (checkAskable). */
export function personQuestion(lead: string, values: readonly AskedValue[], tail?: string): string {
  checkAskable(values);
  return [lead, ...values.map((v) => `${v.label}: ${JSON.stringify(v.value)}`), ...(tail ? [tail] : [])].join('\n');
}
