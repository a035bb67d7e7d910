// The last step of every tool call on both faces: nothing a tool returns carries a password, a token, a signing key or
// a control secret (docs/agents.md, "The rules"). A tool builds its result without them; this pass holds even when a
// delivery's body, an app's answer or a service message carries one.

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

/** A copy of `value` with every secret replaced: fields named like credentials, the `secrets` given (passwords, the
 * control secret, the access token) wherever they occur in a string, JWTs, bearer credentials and private keys. */
export function redactResult<T>(value: T, secrets: readonly string[] = []): T {
  // Longest first, so a secret that contains another is replaced whole.
  const known = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  return walk(value, known) as T;
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
    if (SECRET_FIELD.test(k) && v !== undefined && v !== null && typeof v !== 'boolean' && typeof v !== 'number') {
      out[k] = typeof v === 'string' && ALREADY_REDACTED.test(v) ? v : REDACTED;
      continue;
    }
    out[k] = walk(v, known);
  }
  return out;
}

export function redactText(text: string, known: readonly string[] = []): string {
  let t = text;
  for (const s of known) if (t.includes(s)) t = t.split(s).join(REDACTED);
  return t
    .replace(PRIVATE_KEY, '<redacted private key>')
    .replace(JWT, (m) => `<redacted JWT, ${m.length} characters>`)
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}
