// What a forwarded delivery's target answered, and the tests on it: plain data, importable by the CLI's renderers
// without the record's hashing (so `wfs --help` loads no crypto).
import { isUtf8 } from 'node:buffer';

export interface ForwardResult {
  target: string;
  status?: number;
  latencyMs: number;
  error?: string;
}

/** One target's answer to a forwarded delivery (a `forwards` entry): what the app said, kept as text. */
export interface ForwardAnswerRecord extends ForwardResult {
  /** The rules that sent the delivery here (two rules naming one target send it once). */
  rules: string[];
  /** Response headers, names in lower case. */
  headers?: Record<string, string>;
  /** The body's first 4 KiB as text, when UTF-8 (else bodyBase64). */
  body?: string;
  bodyBase64?: string;
  /** The body's full size in bytes, as far as it arrived. */
  bodySize?: number;
  truncated?: boolean;
  /** A 3xx answer's Location: never followed. */
  redirect?: string;
  /** Why there is no full answer. */
  failure?: 'timeout' | 'network' | 'aborted';
}

/** An app's answer body, kept as text when it is UTF-8, else as base64. A cut may fall inside a UTF-8 sequence: a
 * truncated body lets up to 3 bytes at its end go before it is called binary. */
export function answerBodyFields(body: Buffer, truncated: boolean): { body: string } | { bodyBase64: string } {
  for (let drop = 0; drop <= (truncated ? 3 : 0); drop++) {
    const part = body.subarray(0, body.length - drop);
    if (isUtf8(part)) return { body: part.toString('utf8') };
  }
  return { bodyBase64: body.toString('base64') };
}

/** Failed at a glance: no answer (refused, timed out) or a 5xx. */
export function forwardFailed(f: ForwardResult): boolean {
  return f.status === undefined || f.status >= 500;
}

/** The forward answers of a record: `forwards`, or the one `forward` of a history line written before rules. */
export function forwardsOf(r: { forward?: ForwardResult; forwards?: ForwardAnswerRecord[] }): ForwardAnswerRecord[] {
  if (r.forwards) return r.forwards;
  return r.forward ? [{ ...r.forward, rules: [] }] : [];
}
