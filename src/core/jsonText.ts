// JSON text a user wrote (a --data file, a trust file, a sandbox profile, an event body): parsed as JSON.parse does,
// and when it is not JSON, said with the line and column an editor shows. JSON.parse names neither in every Node
// version, so a failed parse is scanned again to find where it went wrong.
import { JsonSyntaxError, positionAt } from './fixtures/jsonSpans';

export { JsonSyntaxError };

/** The value of `text` (a leading byte-order mark dropped, as editors on Windows save one). Throws JsonSyntaxError,
 * whose message ends "at line L, column C", when the text is not JSON. */
export function parseJsonText(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    throw jsonSyntaxError(body) ?? err;
  }
}

/** Where `text` stops being JSON, or undefined when it is JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const fail = (what: string): never => {
    // An escape at the very end steps past it: the position is the end of the text, never beyond.
    throw new JsonSyntaxError(
      i >= text.length ? 'unexpected end of the JSON text' : what,
      positionAt(text, Math.min(i, text.length)),
    );
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const str = () => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail('a control character (a line break?) inside a string');
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    try {
      JSON.parse(text.slice(start, i));
    } catch {
      i = start;
      fail('an invalid escape in a string');
    }
  };
  // A literal or a number, read where it starts (sticky): however long a number is, it is read whole.
  const scalar = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  // Iterative over containers, so a deeply nested text cannot exhaust the stack.
  const closers: string[] = [];
  /** One value; an opening bracket only opens its container (the loop below reads its members). */
  const value = () => {
    for (;;) {
      ws();
      const c = text[i];
      if (c === '"') return str();
      if (c === '{' || c === '[') {
        i++;
        closers.push(c === '{' ? '}' : ']');
        ws();
        if (text[i] === closers.at(-1)) {
          i++;
          closers.pop();
          return;
        }
        if (c === '{') key();
        continue;
      }
      scalar.lastIndex = i;
      if (!scalar.test(text))
        fail(`unexpected ${JSON.stringify(c)}${c === "'" ? ' (JSON strings take double quotes)' : ''}`);
      i = scalar.lastIndex;
      return;
    }
  };
  const key = () => {
    ws();
    if (text[i] !== '"') fail(`expected a "quoted" key, found ${JSON.stringify(text[i])}`);
    str();
    ws();
    if (text[i] !== ':') fail('expected ":" after a key');
    i++;
  };
  try {
    value();
    for (;;) {
      ws();
      const close = closers.at(-1);
      if (close === undefined) break;
      if (text[i] === ',') {
        i++;
        ws();
        if (text[i] === close) fail(`a trailing comma before "${close}"`);
        if (close === '}') key();
        value();
        continue;
      }
      if (text[i] === close) {
        i++;
        closers.pop();
        continue;
      }
      fail(`expected "," or "${close}"`);
    }
    if (i < text.length) fail('unexpected text after the JSON value');
    return undefined;
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err;
    throw err;
  }
}
