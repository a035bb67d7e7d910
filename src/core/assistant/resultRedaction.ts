// The last step of every tool call on both faces: nothing a tool returns carries a password, a token, a signing key or
// a control secret (docs/agents.md, "The rules"). A tool builds its result without them; this pass holds even when a
// delivery's body, an app's answer or a service message carries one. Secrets go by value (what the process knows,
// knownSecrets.ts) and by shape (JWTs, bearer credentials, private keys), in text and inside base64 bodies alike.
// Then no control, C1, bidi control or line separator of outside text reaches the model raw (finalAnswer).
import { credentialByteForms, credentialTextForms } from '../webhooks/credentialForms';
import { controlsEscaped } from '../presentation';
import { knownSecretValues } from './knownSecrets';

/** Field names whose values are credentials wherever they appear (headers, claims, answers, objects of any kind). */
const SECRET_FIELD = /password|passwd|secret|token|authorization|cookie|api[-_]?key|private[-_]?key|credential/i;
/** What the receiver already kept of a credential header: its scheme and length, which say why step 1 failed. */
const ALREADY_REDACTED = /^\S{0,20} ?<redacted, \d+ characters>$/;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/g;
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g;
/** The private members of an RSA or EC key in JWK form. */
const JWK_PRIVATE = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

export const REDACTED = '<redacted>';

/** Stands for a base64 body whose bytes hold a secret: base64 would carry it past every text redaction. */
export const BODY_WITHHELD =
  'the body holds a credential (a value this process holds, a token or a private key); not shown';

/** The fields that carry a body as base64, and the field that says why one is withheld instead. */
const BASE64_FIELDS: Record<string, string> = { bodyBase64: 'bodyWithheld', base64: 'withheld' };

/** A copy of `value` with every secret replaced: fields named like credentials, the `secrets` given (passwords, the
 * control secret, the access token) wherever they occur in a string, JWTs, bearer credentials and private keys; a
 * base64 body whose bytes hold one is withheld with a note. */
export function redactResult<T>(value: T, secrets: readonly string[] = []): T {
  return walk(value, knownSecretValues(secrets)) as T;
}

/** A tool's answer as the model gets it: redacted, then every string (keys too) with its controls, C1, bidi
 * controls and U+2028/2029 written as visible escapes (\x1b, \u202e): outside text cannot reorder, hide or break
 * what the model or a person reading the answer sees. */
export function finalAnswer<T>(value: T, secrets: readonly string[] = []): T {
  return escapeStrings(redactResult(value, secrets)) as T;
}

function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return controlsEscaped(value);
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[controlsEscaped(k)] = escapeStrings(v);
  return out;
}

/** Whether body bytes hold a known secret (in any form an app could echo it in) or something shaped like one. */
function holdsSecret(bytes: Buffer, known: readonly string[]): boolean {
  if (known.some((s) => credentialByteForms(s).some((f) => bytes.includes(f)))) return true;
  // latin1 maps each byte to one character, so the ASCII shapes are found wherever they sit among other bytes.
  const text = bytes.toString('latin1');
  return [JWT, BEARER, PRIVATE_KEY].some((re) => {
    re.lastIndex = 0;
    return re.test(text);
  });
}

function walk(value: unknown, known: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, known);
  if (Array.isArray(value)) return value.map((v) => walk(v, known));
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const isJwk = typeof o.kty === 'string';
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (isJwk && JWK_PRIVATE.includes(k)) continue;
    const withheld = BASE64_FIELDS[k];
    if (withheld !== undefined && typeof v === 'string' && holdsSecret(Buffer.from(v, 'base64'), known)) {
      out[withheld] = BODY_WITHHELD;
      continue;
    }
    if (SECRET_FIELD.test(k) && v !== undefined && v !== null && typeof v !== 'boolean' && typeof v !== 'number') {
      out[k] = typeof v === 'string' && ALREADY_REDACTED.test(v) ? v : REDACTED;
      continue;
    }
    out[k] = walk(v, known);
  }
  return out;
}

/** `known`: values from knownSecretValues (at least 8 characters, longest first). */
function redactText(text: string, known: readonly string[] = []): string {
  let t = text;
  // Every form an app could echo a secret in (base64, a JWT's signature alone), longest first.
  const forms = known.flatMap(credentialTextForms).sort((a, b) => b.length - a.length);
  for (const s of forms) if (t.includes(s)) t = t.split(s).join(REDACTED);
  return t
    .replace(PRIVATE_KEY, '<redacted private key>')
    .replace(JWT, (m) => `<redacted JWT, ${m.length} characters>`)
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}
