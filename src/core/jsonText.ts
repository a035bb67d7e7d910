// JSON text a user wrote (a --data file, a trust file, a sandbox profile, an event body): parsed as JSON.parse does,
// and when it is not JSON, said with the line and column an editor shows. JSON.parse names neither in every Node
// version, so a failed parse is scanned again to find where it went wrong.
import { JsonScanner, JsonSyntaxError } from './fixtures/jsonSpans';
import { said } from './presentation/said';

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
  const s = new JsonScanner(text);
  try {
    s.skipValue();
    s.ws();
    if (s.i < text.length) s.fail(said('unexpected text after the JSON value'));
    return undefined;
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err;
    throw err;
  }
}
