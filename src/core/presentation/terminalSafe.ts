// Text from outside (a delivery, an app's answer, a service's error, a file) shown to a person: every character that
// could drive a terminal or reorder what is seen is written as a visible escape instead. Tab and line feed stay.
//
// Escaped: C0 controls but tab and line feed (ESC, CR, BEL, backspace …), DEL, C1 (U+0080–U+009F: a raw U+009B is
// a CSI to many terminals), the bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line
// and paragraph separators U+2028/U+2029. A character below U+0100 is written \xHH only when it is C0 or DEL, so the
// C1 range reads as \u0080–\u009f, as in JSON; every other one as \uHHHH, lower-case hex.
//
// Backslashes: left alone, so a Windows path or a regular expression reads as it is, except where one could be taken
// for the start of an escape: a run of backslashes directly before "x" and two hex digits, "u" and four, or an
// escaped character is doubled. Read back, an odd run before such a sequence ends in an escape, an even run is only
// backslashes: one reading for every output (the property test decodes it back).

/** The characters written as escapes. */
const UNSAFE_CLASS =
  '[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029]';
const UNSAFE = new RegExp(UNSAFE_CLASS);
/** A run of backslashes that reads like an escape's start, or one unsafe character. */
const TO_ESCAPE = new RegExp(`(\\\\+)(?=x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|${UNSAFE_CLASS})|${UNSAFE_CLASS}`, 'g');

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x20 || code === 0x7f
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control, C1, bidi control and line/paragraph separator written as a visible escape. */
export function terminalSafe(text: string): string {
  if (!UNSAFE.test(text) && !text.includes('\\')) return text;
  return text.replace(TO_ESCAPE, (m: string, run: string | undefined) => (run ? run + run : escapeChar(m)));
}

const UNSAFE_ALL = new RegExp(UNSAFE_CLASS, 'g');

/** The same characters escaped the same way, backslashes left as they are: for a structured answer (a tool's JSON),
 * where the text must stay as it arrived (a JSON body's own "\u00e9" is not doubled) and nothing renders it. */
export function controlsEscaped(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escapeChar) : text;
}

/** A copy of a JSON-like value with every string in it (object keys too) made terminal-safe. */
export function terminalSafeDeep<T>(value: T): T {
  return safeValue(value) as T;
}

function safeValue(value: unknown): unknown {
  if (typeof value === 'string') return terminalSafe(value);
  if (Array.isArray(value)) return value.map(safeValue);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[terminalSafe(k)] = safeValue(v);
  return out;
}
