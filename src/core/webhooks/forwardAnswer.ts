// What a forwarded delivery's target answered, and the tests on it: plain data, importable by the CLI's renderers
// without the record's hashing (so `wfs --help` loads no crypto).
import { credentialByteForms, credentialTextForms } from './credentialForms';
import { isUtf8 } from 'node:buffer';
import type { TlsProblem } from '../http/tlsFailure';
import type { Said } from '../presentation/said';

export interface ForwardResult {
  target: string;
  status?: number;
  latencyMs: number;
  /** Why there is no full answer, in English (the CLI's, the JSON's). */
  error?: string;
  /** The same as core's Said, for the extension to word; absent in records written before it was kept. */
  errorSaid?: Said;
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
  /** Instead of bodyBase64: why a binary body is not kept (it held a credential this process sent or holds). */
  bodyWithheld?: string;
  /** The body's full size in bytes, as far as it arrived. */
  bodySize?: number;
  truncated?: boolean;
  /** A 3xx answer's Location: never followed. */
  redirect?: string;
  /** Why there is no full answer. */
  failure?: 'timeout' | 'network' | 'aborted';
  /** With failure 'network': what was wrong with the app's certificate (`error` names it, with the fix). */
  tls?: TlsProblem;
  /** The rule said `insecure`: the app's certificate was not checked. Shown on every line of this answer. */
  insecure?: true;
}

/** What stands for an answer body that held a credential this process holds, when the body is not text. */
export const BODY_WITHHELD =
  "the app's answer holds a credential this process holds (a token it sent, a secret it keeps); not shown";

/** A credential in a text body is replaced by this. */
const CREDENTIAL_REDACTED = '<redacted>';

/** An app's answer body, kept as text when it is UTF-8, else as base64. A cut may fall inside a UTF-8 sequence: a
 * truncated body lets up to 3 bytes at its end go before it is called binary.
 *
 * `credentials` are values this process sent or holds (the token it forwarded or signed, a header a rule adds): an app
 * that echoes one must not hand it on. They are taken out before anything is encoded: replaced in text, and a binary
 * body holding one's bytes is withheld whole (base64 would hide it from every later redaction). Values shorter than
 * 8 characters are not looked for: they would match ordinary words. */
export function answerBodyFields(
  body: Buffer,
  truncated: boolean,
  credentials: readonly string[] = [],
): { body: string } | { bodyBase64: string } | { bodyWithheld: string } {
  // Each value in every form an app could echo it in (credentialForms.ts); longest first, so a value that contains
  // another ("Bearer <token>", the token) is replaced whole.
  const values = credentials.filter((c) => typeof c === 'string' && c.length >= 8);
  const known = values.flatMap(credentialTextForms).sort((a, b) => b.length - a.length);
  // UTF-16 text is valid UTF-8 when it is ASCII (a NUL after each byte): looked for in the bytes, before decoding.
  const wide = (c: string) => credentialByteForms(c).slice(-2);
  if (values.some((c) => wide(c).some((f) => body.includes(f)))) return { bodyWithheld: BODY_WITHHELD };
  for (let drop = 0; drop <= (truncated ? 3 : 0); drop++) {
    const part = body.subarray(0, body.length - drop);
    if (isUtf8(part)) {
      let text = part.toString('utf8');
      for (const c of known) if (text.includes(c)) text = text.split(c).join(CREDENTIAL_REDACTED);
      return { body: text };
    }
  }
  if (values.some((c) => credentialByteForms(c).some((f) => body.includes(f)))) return { bodyWithheld: BODY_WITHHELD };
  return { bodyBase64: body.toString('base64') };
}

/** The credential values among headers sent to an app: the bearer token (without its scheme) and every other value
 * of a header that names a credential (a rule's API key); what an answer must not echo back. */
export function sentCredentials(headers: Record<string, string | string[] | undefined>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!/authorization|token|secret|api[-_]?key|cookie|credential|password/i.test(name)) continue;
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      out.push(v);
      const scheme = /^(?:Bearer|Basic)\s+(.+)$/i.exec(v);
      if (scheme) out.push(scheme[1]!);
    }
  }
  return out;
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
